package session

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
)

// A suite longer than command_timeout (round 20 left it open): the QA gate
// killed its own run of the command, and no honest agent could pass it:
// `sessiongate run --timeout` helped only the agent's run. The gate now
// takes, when and only when its own run timed out, a passing
// `sessiongate run` of exactly its command (the same line, or `sh -c`
// of it) that saw the tree the gate would test: the same clean
// environment (gateEnviron), the work tree's tracked files the same
// before and after the run and now (documentation aside: a handoff
// written after the run), and no untracked file the runner reads.
// A failing run at the gate is never overruled, and a run observed by an
// agent's hook (the agent's own environment) does not count.

var gateTreeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`, the gate's command on tree ([0-9a-f]{40,64})\b`)
})

// gateCommandRun says whether argv runs one of a QA phase's gate commands
// (without placeholders) as the gate would, and returns that line.
func gateCommandRun(p *protocolspec.Phase, cfg Config, argv []string) string {
	if !qaPhase(p, cfg) {
		return ""
	}
	for _, c := range GateChecks(p, cfg.Commands) {
		if c.Kind != protocolspec.CheckCommand || len(protocolspec.Placeholders(c.Arg)) > 0 {
			continue
		}
		if sameGateLine(commandLine(argv), argv, c.Arg) {
			return strings.TrimSpace(c.Arg)
		}
	}
	return ""
}

// sameGateLine: the run's argv (shown as line) is the gate's line, run
// directly or as `sh -c LINE` / `bash -c LINE`, as the gate runs it.
func sameGateLine(line string, argv []string, gate string) bool {
	gate = strings.TrimSpace(gate)
	if gate == "" {
		return false
	}
	if line == gate {
		return true
	}
	return len(argv) == 3 && (argv[0] == "sh" || argv[0] == "bash") && argv[1] == "-c" && strings.TrimSpace(argv[2]) == gate
}

// treeForGate is the work tree's tree when the files the command reads
// are all tracked, "" when they are not (the gate would refuse the run).
func treeForGate(ctx context.Context, repo Repo, s *Session, line string) (string, error) {
	files, err := untrackedRead(ctx, repo, s, line)
	if err != nil || len(files) > 0 {
		return "", err
	}
	tree, err := repo.WorkTreeTree(ctx)
	if err != nil {
		return "", fmt.Errorf("read the tree the run sees: %w", err)
	}
	return tree, nil
}

// slowSuiteRun finds, newest first, the phase's passing `sessiongate run`
// of the gate's line that saw the work tree's tree now; nil when none.
func slowSuiteRun(ctx context.Context, env gateEnv, line string) (*Evidence, error) {
	var tree string
	for i := len(env.evidence) - 1; i >= 0; i-- {
		ev := &env.evidence[i]
		if ev.Phase != env.phase.ID || ev.Origin != OriginObserved || ev.Source != SourceRun || !ev.Succeeded() {
			continue
		}
		m := gateTreeRE().FindStringSubmatch(ev.Ref)
		if m == nil || !sameRecordedLine(ev.Command, line) {
			continue
		}
		if tree == "" {
			t, err := env.repo.WorkTreeTree(ctx)
			if err != nil {
				return nil, fmt.Errorf("read the work tree's tree: %w", err)
			}
			tree = t
		}
		if m[1] == tree {
			return ev, nil
		}
		// Documentation written after the run (a handoff, notes) is no
		// change the tests saw; anything else is.
		diff, err := env.repo.TreeDiff(ctx, m[1], tree)
		if err != nil {
			return nil, fmt.Errorf("compare the tree the run saw: %w", err)
		}
		if !slices.ContainsFunc(diff, func(f string) bool { return !docGlob(env.cfg.DocGlobs, f) }) {
			return ev, nil
		}
	}
	return nil, nil
}

func docGlob(globs []string, f string) bool {
	return slices.ContainsFunc(globs, func(g string) bool { return repopath.Match(g, f) })
}

// sameRecordedLine compares a recorded run's line (commandLine of its
// argv) with the gate's line.
func sameRecordedLine(recorded, gate string) bool {
	gate = strings.TrimSpace(gate)
	return recorded == gate || recorded == commandLine([]string{"sh", "-c", gate}) || recorded == commandLine([]string{"bash", "-c", gate})
}

// slowSuiteMsg tells the agent how a suite longer than the gate's limit passes.
func slowSuiteMsg(timeout time.Duration, phase, line string) string {
	return fmt.Sprintf("command timed out after %s: %s: if the suite needs longer, run it yourself on the work as it is, `sessiongate run --phase %s --timeout 30m -- sh -c %s` (the gate takes a passing run of its own command that saw this tree), or raise command_timeout in sessiongate.yaml",
		timeout, line, phase, commandLine([]string{line}))
}
