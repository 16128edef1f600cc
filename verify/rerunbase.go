package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/pyharness"
	"github.com/sessiongate/sessiongate/testcounts"
)

// baseCheckout is the base commit checked out beside the head's
// worktree, made on the first command that needs it: a run at the head
// that reports tests skipped or expected to fail is compared with the
// same command's run there.
type baseCheckout struct {
	dir, sh string
	node    bool // link CI's node_modules in, as the head's worktree has it
	made    bool
}

func (b *baseCheckout) close(ctx context.Context, repo *gitrepo.Repo) {
	if b.made {
		repo.RemoveWorktree(context.WithoutCancel(ctx), b.dir)
	}
}

// turnedOff runs line at base and says which tests that ran to a
// verdict there are skipped, expected to fail, deselected or dropped in
// head's run: by pytest's node ids where a pytest reported at both
// (pyharness), else by the runners' counts (o, counted) beyond the tests
// head added. "" when none, or when the base's run gives nothing to
// compare.
func (b *baseCheckout) turnedOff(ctx context.Context, repo *gitrepo.Repo, base, line string, args, env []string, to time.Duration, head testcounts.Outcome, counted bool, tests map[string]pyharness.TestState) (string, error) {
	if !b.made {
		if err := repo.AddFullWorktree(ctx, b.dir, base); err != nil {
			return "", fmt.Errorf("rerun: check out the base %s to compare its run: %w", shorten.SHA(base), err)
		}
		b.made = true
		if b.node {
			if err := os.Symlink(filepath.Join(repo.Root(), "node_modules"), filepath.Join(b.dir, "node_modules")); err != nil {
				return "", fmt.Errorf("rerun: link the checkout's node_modules into the base's: %w", err)
			}
		}
	}
	r, err := runIn(ctx, b.sh, b.dir, line, args, env, to)
	if err != nil {
		return "", err
	}
	if r.tests != nil && tests != nil {
		off := pyharness.TurnedOff(pyharness.PassedHashes(r.tests), tests)
		if len(off) == 0 {
			return "", nil
		}
		return fmt.Sprintf("%d test(s) that passed at the base %s are collected and not run to a verdict at the head (skipped, expected to fail, deselected, dropped from the run's items, or their function replaced by one that never finished it): %s; a known-failures list or a conftest can do that without a skip marker in a test file",
			len(off), shorten.SHA(base), pyharness.ListIDs(off, 5)), nil
	}
	was, ok := testcounts.OutcomeOf(r.out.Bytes())
	if !ok || !counted {
		return "", nil
	}
	n := testcounts.TurnedOff(was, head)
	if n == 0 {
		return "", nil
	}
	return fmt.Sprintf("%d test(s) that ran to a verdict at the base %s do not at the head: skipped, expected to fail or deselected (base: %d passed, %d not run; head: %d passed, %d not run), with no test added to account for them; a known-failures list or a conftest can do that without a skip marker in a test file",
		n, shorten.SHA(base), was.Passed, was.NotRun, head.Passed, head.NotRun), nil
}

// anyNotRun says whether pytest collected a test it did not run to a
// verdict.
func anyNotRun(tests map[string]pyharness.TestState) bool {
	for _, st := range tests {
		if st == pyharness.Collected || st == pyharness.NotRun {
			return true
		}
	}
	return false
}
