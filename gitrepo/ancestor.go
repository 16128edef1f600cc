package gitrepo

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// ancestorWalkMax bounds isAncestorFromObjects' walk: a session's HEAD is
// a few commits past its start; a longer history is git's (its commit-graph
// and generation numbers), not a walk of decoded commits here.
const ancestorWalkMax = 256

// isAncestorFromObjects answers `git merge-base --is-ancestor a b` by
// walking b's parents in process (a git process was most of what the
// foreign-amend check cost a pre-commit, issue 29). ok is false, and the
// caller asks git, whenever git could see another history than the object
// files: a shallow clone, a SHA-256 repository, an id that is not a full
// one, a missing object, or a walk past ancestorWalkMax commits.
func (r *Repo) isAncestorFromObjects(ctx context.Context, a, b string) (is, ok bool) {
	if len(a) != 40 || len(b) != 40 || !isHexID(a) || !isHexID(b) || r.isSHA256() || !r.plainHistory() {
		return false, false
	}
	err := r.withGoGit(ctx, func(repo *filesystem.Storage) error {
		// a must be a commit, as git requires of it.
		if _, err := object.GetCommit(repo, plumbing.NewHash(a)); err != nil {
			return err
		}
		target := plumbing.NewHash(a)
		seen := map[plumbing.Hash]bool{}
		queue := []plumbing.Hash{plumbing.NewHash(b)}
		for len(queue) > 0 {
			h := queue[0]
			queue = queue[1:]
			if h == target {
				is, ok = true, true
				return nil
			}
			if seen[h] {
				continue
			}
			seen[h] = true
			if len(seen) > ancestorWalkMax {
				return errWalkTooLong
			}
			c, err := object.GetCommit(repo, h)
			if err != nil {
				return err
			}
			queue = append(queue, c.ParentHashes...)
		}
		is, ok = false, true // every root reached without meeting a
		return nil
	})
	if err != nil {
		return false, false
	}
	return is, ok
}

var errWalkTooLong = errors.New("ancestor walk too long")

// plainHistory reports whether git would see commits' parents as their
// object files record them: no shallow file and no partial-clone promisor
// (a missing parent is fetched, not an error). Replace refs and grafts do
// not count: every git sessiongate starts turns them off (gitenv), as
// go-git never reads them.
func (r *Repo) plainHistory() bool {
	if _, err := os.Lstat(filepath.Join(r.commonDir, "shallow")); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return !r.promisor()
}

// promisor reports a partial clone: a missing parent is fetched, not an error.
func (r *Repo) promisor() bool {
	matches, _ := filepath.Glob(filepath.Join(r.commonDir, "objects", "pack", "*.promisor"))
	return len(matches) > 0
}
