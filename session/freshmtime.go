package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// freshenChanged sets the mtime of every file the session changed
// (committed, staged, unstaged or untracked since its start commit) to
// one moment, now, before a QA gate's command runs. Build tools and
// caches judge freshness by mtime: make keeps a target newer than its
// prerequisites, so the lazy agent built the start's code (`make test`),
// wrote a broken greet.c, set its mtime back (`touch -r`), and the gate's
// `make test` ran the old binary: COMPLETE, clean, verify passing
// (adversarial pass). One moment for all, so a generated file the session
// committed beside its source is not made older than it. Content is not
// touched; git sees only stat changes. It returns how many files it set.
func freshenChanged(ctx context.Context, repo Repo, s *Session, now time.Time) (int, error) {
	files, err := repo.ChangedFiles(ctx, s.StartCommit)
	if err != nil {
		return 0, fmt.Errorf("freshen the session's files: %w", err)
	}
	n := 0
	for _, f := range files {
		p := filepath.Join(repo.Root(), filepath.FromSlash(f))
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Equal(now) {
			continue // deleted, a link (its target may be outside), a folder
		}
		if err := os.Chtimes(p, now, now); err != nil {
			if errors.Is(err, fs.ErrPermission) {
				continue // another user's file (a container's root): the agent cannot make one
			}
			return n, fmt.Errorf("freshen %s: %w", f, err)
		}
		n++
	}
	return n, nil
}
