package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
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

// turnedOff runs line at base and says how tests that ran to a verdict
// there are skipped, expected to fail or deselected in head's run (o),
// beyond the tests head added: "" when none, or when the base's run
// gives no summary to compare.
func (b *baseCheckout) turnedOff(ctx context.Context, repo *gitrepo.Repo, base, line string, args, env []string, to time.Duration, head testcounts.Outcome) (string, error) {
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
	was, ok := testcounts.OutcomeOf(r.out.Bytes())
	if !ok {
		return "", nil
	}
	n := testcounts.TurnedOff(was, head)
	if n == 0 {
		return "", nil
	}
	return fmt.Sprintf("%d test(s) that ran to a verdict at the base %s do not at the head: skipped, expected to fail or deselected (base: %d passed, %d not run; head: %d passed, %d not run), with no test added to account for them; a known-failures list or a conftest can do that without a skip marker in a test file",
		n, shorten.SHA(base), was.Passed, was.NotRun, head.Passed, head.NotRun), nil
}
