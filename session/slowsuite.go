package session

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
	"github.com/sessiongate/sessiongate/slowsuite"
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
		if slowsuite.SameGateLine(commandLine(argv), argv, c.Arg) {
			return strings.TrimSpace(c.Arg)
		}
	}
	return ""
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
	var runs []slowsuite.Run
	var at []int
	for i := len(env.evidence) - 1; i >= 0; i-- {
		ev := &env.evidence[i]
		if ev.Phase != env.phase.ID || ev.Origin != OriginObserved || ev.Source != SourceRun || !ev.Succeeded() {
			continue
		}
		runs = append(runs, slowsuite.Run{Command: ev.Command, Ref: ev.Ref})
		at = append(at, i)
	}
	k, err := slowsuite.Pick(ctx, runs, line, env.repo, func(f string) bool { return docGlob(env.cfg.DocGlobs, f) })
	if err != nil || k < 0 {
		return nil, err
	}
	return &env.evidence[at[k]], nil
}

func docGlob(globs []string, f string) bool {
	return slices.ContainsFunc(globs, func(g string) bool { return repopath.Match(g, f) })
}
