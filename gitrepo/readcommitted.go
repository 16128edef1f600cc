package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/sessiongate/sessiongate/protect"
)

// readCommittedLimit bounds a file read in process; a larger one goes to
// git (a CI file or Makefile is kilobytes).
const readCommittedLimit = 8 << 20

// ReadCommitted reads path as commit rev (an object id) holds it. The
// pre-commit hook reads HEAD's CI files and Makefile with it when a
// commit stages one (session/cijob.go): a git process for each read made
// such a commit 1.7x slower (docs/benchmarks.md, round 34), so it reads
// in process (go-git) when it can: a SHA-1 repository that is not a
// partial clone. Otherwise, or when go-git fails, git answers (ReadAt).
// ok is false when rev has no such file.
func (r *Repo) ReadCommitted(ctx context.Context, rev, p string) (b []byte, ok bool, err error) {
	if !r.inProcessObjects(rev) {
		return r.readAtOK(ctx, rev, p)
	}
	var out []byte
	absent := false
	err = r.withGoGit(ctx, func(s *filesystem.Storage) error {
		tree, err := commitTree(s, rev)
		if err != nil {
			return err
		}
		f, err := tree.File(p)
		if notFound(err) {
			absent = true
			return nil
		}
		if err != nil {
			return err
		}
		if f.Size > readCommittedLimit {
			return fmt.Errorf("%s is %d bytes", p, f.Size)
		}
		rd, err := f.Reader()
		if err != nil {
			return err
		}
		defer rd.Close()
		out, err = io.ReadAll(rd)
		return err
	})
	switch {
	case err != nil:
		return r.readAtOK(ctx, rev, p)
	case absent:
		return nil, false, nil
	}
	return out, true, nil
}

func (r *Repo) readAtOK(ctx context.Context, rev, p string) ([]byte, bool, error) {
	b, err := r.ReadAt(ctx, rev, p)
	if errors.Is(err, ErrNoFile) {
		return nil, false, nil
	}
	return b, err == nil, err
}

// inProcessObjects reports whether go-git can read rev's objects as git
// would: rev is an object id, objects are SHA-1, none is fetched lazily.
func (r *Repo) inProcessObjects(rev string) bool {
	return isObjectID(rev) && len(rev) == 40 && !r.isSHA256() && !r.promisor()
}

func commitTree(s *filesystem.Storage, rev string) (*object.Tree, error) {
	c, err := object.GetCommit(s, plumbing.NewHash(rev))
	if err != nil {
		return nil, err
	}
	return c.Tree()
}

// filesAtInProcess is FilesAt through go-git, for globs whose wildcard is
// in their last segment (or none); ok is false otherwise.
func (r *Repo) filesAtInProcess(ctx context.Context, rev string, patterns []string) (files []string, ok bool) {
	if !r.inProcessObjects(rev) {
		return nil, false
	}
	for _, p := range patterns {
		if dir, _ := path.Split(p); strings.ContainsAny(dir, "*?[\\") || strings.Contains(p, "**") {
			return nil, false
		}
	}
	err := r.withGoGit(ctx, func(s *filesystem.Storage) error {
		tree, err := commitTree(s, rev)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, p := range patterns {
			dir, _ := path.Split(p)
			var entries []object.TreeEntry
			if dir == "" {
				entries = tree.Entries
			} else {
				sub, err := tree.Tree(strings.TrimSuffix(dir, "/"))
				if notFound(err) {
					continue
				} else if err != nil {
					return err
				}
				entries = sub.Entries
			}
			for _, e := range entries {
				if f := dir + e.Name; e.Mode.IsFile() && !seen[f] && protect.Match(patterns, f) {
					seen[f] = true
					files = append(files, f)
				}
			}
		}
		return nil
	})
	return files, err == nil
}
