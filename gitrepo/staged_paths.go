package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/sessiongate/sessiongate/protect"
)

// StagedPaths returns the files matching one of the root-anchored globs
// whose index entry differs from HEAD's (added, changed or deleted), each
// with whether the index deleted it.
// pre-commit asks it on every commit (the CI files, session/cijob.go), so
// it reads the index file and HEAD's tree in process when it can: a glob
// whose wildcard is in its last segment, a plain SHA-1 index, HEAD born.
// Otherwise git answers (`git diff --cached`).
func (r *Repo) StagedPaths(ctx context.Context, patterns []string) (map[string]bool, error) {
	if out, ok := r.stagedPathsInProcess(ctx, patterns); ok {
		return out, nil
	}
	args := []string{"-c", "index.sparse=false", "diff", "--cached", "--name-status", "-z", "--no-renames", "--"}
	for _, p := range patterns {
		args = append(args, ":(glob,icase)"+p)
	}
	b, err := run(ctx, r.root, args...)
	if err != nil {
		return nil, fmt.Errorf("list staged files: %w", err)
	}
	out := map[string]bool{}
	f := splitZ(b)
	for i := 0; i+1 < len(f); i += 2 {
		out[f[i+1]] = strings.HasPrefix(f[i], "D")
	}
	return out, nil
}

func (r *Repo) stagedPathsInProcess(ctx context.Context, patterns []string) (map[string]bool, bool) {
	index, ok := r.ownIndexPath()
	if !ok || r.isSHA256() {
		return nil, false
	}
	if _, whole := r.indexFlagged(ctx); !whole {
		return nil, false // split or sparse: entries elsewhere
	}
	head, _, err := r.Head(ctx)
	if err != nil || head == "" {
		return nil, false
	}
	want := map[string]string{}
	var folders, lower []string // as the patterns spell them; for indexBlobs
	for _, p := range patterns {
		dir, base := path.Split(p)
		switch {
		case !strings.ContainsAny(p, "*?[\\"):
			want[strings.ToLower(p)] = p
		case dir != "" && !strings.ContainsAny(dir, "*?[\\") && !strings.Contains(base, "**"):
			folders, lower = append(folders, dir), append(lower, strings.ToLower(dir))
		default:
			return nil, false
		}
	}
	blobs, under, ok := indexBlobs(index, want, lower...)
	if !ok {
		return nil, false
	}
	staged := map[string]string{}
	for _, m := range []map[string]string{blobs, under} {
		for p, id := range m {
			if protect.Match(patterns, p) {
				staged[p] = id
			}
		}
	}
	committed := map[string]string{}
	err = r.withGoGit(ctx, func(repo *filesystem.Storage) error {
		c, err := object.GetCommit(repo, plumbing.NewHash(head))
		if err != nil {
			return err
		}
		tree, err := c.Tree()
		if err != nil {
			return err
		}
		for _, p := range want {
			if e, err := tree.FindEntry(p); err == nil && e.Mode.IsFile() {
				committed[p] = e.Hash.String()
			} else if err != nil && !notFound(err) {
				return err
			}
		}
		for _, dir := range folders {
			sub, err := tree.Tree(strings.TrimSuffix(dir, "/"))
			if notFound(err) {
				continue
			} else if err != nil {
				return err
			}
			for _, e := range sub.Entries {
				if p := dir + e.Name; e.Mode.IsFile() && protect.Match(patterns, p) {
					committed[p] = e.Hash.String()
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, false
	}
	out := map[string]bool{}
	for p, id := range staged {
		if committed[p] != id {
			out[p] = false
		}
	}
	for p := range committed {
		if _, ok := staged[p]; !ok {
			out[p] = true
		}
	}
	return out, true
}

func notFound(err error) bool {
	return errors.Is(err, object.ErrFileNotFound) || errors.Is(err, object.ErrDirectoryNotFound) || errors.Is(err, object.ErrEntryNotFound)
}
