// Package slowsuite decides when a QA gate whose own run of its command
// timed out takes a `sessiongate run` of that command instead: a suite
// longer than command_timeout killed the gate's run, and no honest agent
// could pass it (round 20 left it open). The gate takes a passing run of
// exactly its command (the same line, or `sh -c` of it) that recorded the
// tree it saw, when that tree is the work tree's now or differs from it
// only in documentation (a handoff written after the run). A failing run
// at the gate is never overruled; which runs are candidates (the phase's,
// observed by `sessiongate run`, passing) is the engine's to say
// (session/slowsuite.go), and so is reading the trees.
package slowsuite

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sessiongate/sessiongate/shellline"
)

// refTag is what an observed run's ref carries when the run was the
// gate's command on a tree; Tag writes it, TreeOf reads it.
const refTag = ", the gate's command on tree "

var treeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(regexp.QuoteMeta(refTag) + `([0-9a-f]{40,64})\b`)
})

// Tag is the ref's part that says the run was the gate's command on tree.
func Tag(tree string) string { return refTag + tree }

// TreeOf is the tree a run's ref says the gate's command ran on ("" when
// it says none).
func TreeOf(ref string) string {
	if m := treeRE().FindStringSubmatch(ref); m != nil {
		return m[1]
	}
	return ""
}

// SameGateLine says whether the run's argv (shown as line) is the gate's
// line, run directly or as `sh -c LINE` / `bash -c LINE`, as the gate
// runs it.
func SameGateLine(line string, argv []string, gate string) bool {
	gate = strings.TrimSpace(gate)
	if gate == "" {
		return false
	}
	if line == gate {
		return true
	}
	return len(argv) == 3 && (argv[0] == "sh" || argv[0] == "bash") && argv[1] == "-c" && strings.TrimSpace(argv[2]) == gate
}

// SameRecordedLine compares a recorded run's line (shellline.Join of its
// argv) with the gate's line.
func SameRecordedLine(recorded, gate string) bool {
	gate = strings.TrimSpace(gate)
	return recorded == gate || recorded == shellline.Join([]string{"sh", "-c", gate}) || recorded == shellline.Join([]string{"bash", "-c", gate})
}

// Run is a candidate: a passing run of the phase, as recorded.
type Run struct {
	Command string // its line (shellline.Join of its argv)
	Ref     string // its ref, with Tag when it ran the gate's command
}

// Trees reads what Pick compares: the work tree's tree now, and the files
// two trees differ in.
type Trees interface {
	WorkTreeTree(ctx context.Context) (string, error)
	TreeDiff(ctx context.Context, from, to string) ([]string, error)
}

// Pick is the index of the first of runs (newest first) that ran line and
// saw the work tree as it is now, documentation (doc) aside; -1 when none.
// The work tree's tree is read once, and only when a run of line comes.
func Pick(ctx context.Context, runs []Run, line string, trees Trees, doc func(path string) bool) (int, error) {
	var now string
	for i, r := range runs {
		saw := TreeOf(r.Ref)
		if saw == "" || !SameRecordedLine(r.Command, line) {
			continue
		}
		if now == "" {
			t, err := trees.WorkTreeTree(ctx)
			if err != nil {
				return -1, fmt.Errorf("read the work tree's tree: %w", err)
			}
			now = t
		}
		if saw == now {
			return i, nil
		}
		// Documentation written after the run (a handoff, notes) is no
		// change the tests saw; anything else is.
		diff, err := trees.TreeDiff(ctx, saw, now)
		if err != nil {
			return -1, fmt.Errorf("compare the tree the run saw: %w", err)
		}
		if !slices.ContainsFunc(diff, func(f string) bool { return !doc(f) }) {
			return i, nil
		}
	}
	return -1, nil
}

// Msg tells the agent how a suite longer than the gate's limit passes.
func Msg(timeout time.Duration, phase, line string) string {
	return fmt.Sprintf("command timed out after %s: %s: if the suite needs longer, run it yourself on the work as it is, `sessiongate run --phase %s --timeout 30m -- sh -c %s` (the gate takes a passing run of its own command that saw this tree), or raise command_timeout in sessiongate.yaml",
		timeout, line, phase, shellline.Join([]string{line}))
}
