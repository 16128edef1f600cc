// Package mtimefresh dates a work tree's changed files now before a QA
// gate's command runs, and sets back whatever in it is dated in the
// future. Build tools and caches judge freshness by mtime: make keeps a
// target newer than its prerequisites, so the lazy agent built the
// start's code (`make test`), wrote a broken greet.c, set its mtime back
// (`touch -r`), and the gate's `make test` ran the old binary: COMPLETE,
// clean, verify passing (adversarial pass). It needs no session: the
// engine (session/freshmtime.go) hands it the files the session changed.
package mtimefresh

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Freshen sets the mtime of every regular file of files (slash paths
// under root) to one moment, now, after ClampFuture: one moment for all,
// so a generated file committed beside its source is not made older than
// it; a build output dated in the future (`touch -d '+1 year'
// build/greet`) is set back first, or it would stay newer than them. Content is not
// touched; git sees only stat changes. It returns how many files it set.
func Freshen(root string, files []string, now time.Time) (int, error) {
	n, err := ClampFuture(root, now)
	if err != nil {
		return n, err
	}
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
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

// futureSlack is how far before now a future-dated file is set: further
// than the coarsest mtime a filesystem keeps (FAT's two seconds), so the
// sources set to now are strictly newer than it wherever they live.
const futureSlack = 2 * time.Second

// ClampFuture sets every file and folder under root (not .git) dated
// after now to now-futureSlack, and returns how many it set. Setting the
// session's sources later than the newest output instead would date
// them in the future for every build after the gate (make warns of clock
// skew and rebuilds each time); refusing would block honest work
// unpacked from a machine whose clock ran ahead. Ignored folders
// (build/, node_modules) are walked too: they are where outputs live. A
// link to a future-dated file outside root is refused: its target is not
// the work tree's to touch, and a build tool follows it.
func ClampFuture(root string, now time.Time) (int, error) {
	past := now.Add(-futureSlack)
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist) {
				return nil // another user's folder, or gone while walked
			}
			return err
		}
		if d.IsDir() && d.Name() == ".git" && p != root {
			return fs.SkipDir
		}
		rel, _ := filepath.Rel(root, p)
		if d.Type()&fs.ModeSymlink != 0 {
			// The link's own mtime is not what make reads; its target's is.
			t, err := os.Stat(p)
			if err != nil || !t.ModTime().After(now) {
				return nil
			}
			if to, err := filepath.EvalSymlinks(p); err == nil && !within(root, to) {
				return fmt.Errorf("%s links to %s, dated %s, in the future: a build tool takes it as newer than the work; remove the link or date its target now", filepath.ToSlash(rel), to, t.ModTime().UTC().Format(time.DateTime))
			}
			return nil // a target inside root is set where the walk finds it
		}
		fi, err := d.Info()
		if err != nil || !fi.ModTime().After(now) {
			return nil
		}
		if err := os.Chtimes(p, past, past); err != nil {
			if errors.Is(err, fs.ErrPermission) {
				return nil // another user's: the agent cannot have dated it
			}
			return fmt.Errorf("set back %s, dated in the future: %w", filepath.ToSlash(rel), err)
		}
		n++
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("set back future-dated files: %w", err)
	}
	return n, nil
}

// within reports whether path p is root or under it.
func within(root, p string) bool {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		r = root
	}
	rel, err := filepath.Rel(r, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
