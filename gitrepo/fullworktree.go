package gitrepo

import (
	"context"
	"fmt"
	"strings"
)

// AddFullWorktree is AddWorktree with the whole of rev checked out. git
// worktree add copies a sparse checkout's patterns into the new worktree
// (a monorepo's CI checks out part of the tree: actions/checkout's
// sparse-checkout input), and verify --rerun ran the base's gates on that
// part of the head only: a file outside it was not there to fail them
// (round 21, TestVerifyRerunSparseCheckout). The job's own checkout keeps
// its patterns: sparse-checkout disable writes the new worktree's config.
func (r *Repo) AddFullWorktree(ctx context.Context, dir, rev string) error {
	if err := r.AddWorktree(ctx, dir, rev); err != nil {
		return err
	}
	b, err := run(ctx, dir, "config", "--type=bool", "--default=false", "--get", "core.sparseCheckout")
	if err != nil {
		return fmt.Errorf("read core.sparseCheckout in the new worktree: %w", err)
	}
	if strings.TrimSpace(string(b)) != "true" {
		return nil
	}
	if _, err := run(ctx, dir, "sparse-checkout", "disable"); err != nil {
		return fmt.Errorf("check out the whole tree in the new worktree (it copied this checkout's sparse patterns): %w", err)
	}
	return nil
}
