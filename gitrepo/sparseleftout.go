package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"time"
)

// SparseLeftOut lists which of paths a sparse checkout leaves out of the
// work tree: absent from it, flagged skip-worktree in git's index, with
// core.sparseCheckout on and its patterns not keeping the path. Git
// commits such a file as its index holds it, so it is not deleted (round
// 25, c4: an honest cone `src` had every start refused for a deleted
// `.claude/settings.json`). The flag set by hand (`git update-index
// --skip-worktree`) with no sparse checkout, or on a path the patterns
// keep, is not the sparse checkout's: those paths are not listed. Nor is
// one when the pattern file changed at or after since (non-zero: the
// session's start): an agent that turns a sparse checkout on in its
// session (`git config core.sparseCheckout true`, the pattern file
// written by a script, `git read-tree -mu HEAD`) takes the agent hooks'
// config out of the work tree (round 25 review, c8).
func (r *Repo) SparseLeftOut(ctx context.Context, paths []string, since time.Time) (map[string]bool, error) {
	out := map[string]bool{}
	if len(paths) == 0 {
		return out, nil
	}
	entries, ok := r.indexFlagged(ctx)
	if !ok {
		var err error
		if entries, err = r.lsFlagged(ctx); err != nil {
			return nil, err
		}
	}
	var absent []string
	for _, p := range paths {
		if e, ok := entries[p]; !ok || e.how != "skip-worktree" {
			continue
		}
		if _, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(p))); err == nil {
			continue // present: HiddenFiles compares its content
		}
		absent = append(absent, p)
	}
	if len(absent) == 0 {
		return out, nil
	}
	if why, err := r.sparseSince(ctx, since); err != nil || why != "" {
		return out, err // no sparse checkout (or no pattern file): the flag was set by hand; or set up in the session
	}
	kept, err := r.sparseKeeps(ctx, absent)
	if err != nil {
		return nil, err
	}
	for _, p := range absent {
		if !kept[p] {
			out[p] = true
		}
	}
	return out, nil
}
