// Package outsidelink finds what a test run read through a tracked
// symbolic link that leads out of the repository. Git holds a link's text,
// not what it points at, so work done in the target (a person's shared
// checkout, ~/lib/greetlib.py) passes the tests in this work tree and is
// in no commit: the gate saw a tree nobody can review or check out. A link
// that was there before the session and whose target nobody touched since
// is a person's set-up and is left alone; a link added or changed in the
// session, or a target changed since it started, is reported.
package outsidelink

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/ctime"
)

// maxFiles bounds the walk of a linked folder (a shared checkout): past
// it the rest is not looked at, which a note says.
const maxFiles = 5000

// Change is one tracked link that leads out of the repository and what
// changed since the session started.
type Change struct {
	Link   string // the link, relative to the repository
	Target string // where it leads (resolved)
	What   string // what changed
}

func (c Change) String() string { return c.Link + " -> " + c.Target + ": " + c.What }

// Changed lists the links of the index at root (mode 120000) that resolve
// outside root and that changed, or whose target changed, at or after
// since (by change time, ctime, which no user call sets back). A dangling
// link is left out: nothing reads through it.
func Changed(ctx context.Context, root string, since time.Time) ([]Change, error) {
	if since.IsZero() {
		return nil, nil
	}
	links, err := trackedLinks(ctx, root)
	if err != nil {
		return nil, err
	}
	if len(links) == 0 {
		return nil, nil
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("resolve the work tree %s: %w", root, err)
	}
	var out []Change
	for _, l := range links {
		abs := filepath.Join(root, filepath.FromSlash(l))
		target, err := filepath.EvalSymlinks(abs)
		if err != nil {
			continue // dangling, or not a link in the work tree any more
		}
		if rel, err := filepath.Rel(realRoot, target); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue // inside: git holds what it points at
		}
		c := Change{Link: l, Target: target}
		if t, err := ctime.OfLink(abs); err == nil && !t.Before(since) {
			c.What = "the link was made or changed in this session"
		} else if what, err := targetChanged(target, since); err != nil {
			return nil, fmt.Errorf("read %s, the target of %s: %w", target, l, err)
		} else {
			c.What = what
		}
		if c.What != "" {
			out = append(out, c)
		}
	}
	return out, nil
}

// trackedLinks lists the paths the index holds as symbolic links.
func trackedLinks(ctx context.Context, root string) ([]string, error) {
	cmd := gitenv.Command(ctx, root, nil, "ls-files", "-s", "-z")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list the tracked links (git ls-files -s): %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	var out []string
	for _, e := range bytes.Split(b, []byte{0}) {
		// "120000 <sha> <stage>\t<path>"
		meta, p, ok := bytes.Cut(e, []byte{'\t'})
		if ok && bytes.HasPrefix(meta, []byte("120000 ")) {
			out = append(out, string(p))
		}
	}
	return out, nil
}

// targetChanged says what in target (a file, or a folder walked up to
// maxFiles) has a change time at or after since; "" when nothing does.
func targetChanged(target string, since time.Time) (string, error) {
	fi, err := os.Stat(target)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		if !fi.Mode().IsRegular() {
			return "", nil // a device (/dev/null): no content of its own
		}
		if t, err := ctime.Of(target); err != nil {
			return "", err
		} else if !t.Before(since) {
			return "changed in this session, outside the repository", nil
		}
		return "", nil
	}
	var what string
	n := 0
	stop := errors.New("stop")
	err = filepath.WalkDir(target, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: the run could not read it either
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "__pycache__" || d.Name() == "node_modules") && p != target {
			return filepath.SkipDir // caches and git's own files change on every run
		}
		if n++; n > maxFiles {
			return stop
		}
		if t, err := ctime.OfLink(p); err == nil && !t.Before(since) && !d.IsDir() {
			rel, _ := filepath.Rel(target, p)
			what = filepath.ToSlash(rel) + " changed in this session, outside the repository"
			return stop
		}
		return nil
	})
	if err != nil && !errors.Is(err, stop) {
		return "", err
	}
	return what, nil
}
