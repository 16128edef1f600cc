package gateenv

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/ctime"
)

// The PATH a gate's command resolves its programs on. A program the agent
// wrote (a `go` that prints "ok", a `pytest` that exits 0) answers first
// when its folder comes first: the work tree's bin/, /tmp/fake, or a
// folder the agent put on PATH after the session started. Kept: the
// absolute entries of the caller's PATH that are outside the work tree and
// the temporary folders and, once a session has started, that were on the
// PATH it started with, unless unchanged since the start (a folder the
// agent's shell profile adds, as Claude Code's Bash tool does). Not covered: a program written after the start
// into a folder that was already on PATH (docs/security.md).

// Why an entry was dropped, as the gate's message names it.
const (
	dropInTree = "PATH entries inside the work tree"
	dropTemp   = "PATH entries in a temporary folder"
	dropAdded  = "PATH entries added after the session started"
)

// tempDirs are folders anyone can write, where a fake program is made in
// a second: /tmp, /var/tmp, /dev/shm and the caller's TMPDIR (unless it is
// a top folder such as /usr, which would drop every entry).
func tempDirs(environ []string) []string {
	dirs := []string{"/tmp", "/var/tmp", "/dev/shm", os.TempDir()}
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok && filepath.IsAbs(v) && strings.Count(filepath.Clean(v), "/") >= 2 {
			dirs = append(dirs, filepath.Clean(v))
		}
	}
	return dirs
}

// neutralPath returns path without the entries a gate's command must not
// resolve programs on, and why entries were dropped.
func neutralPath(path string, o Options, temps []string) (string, []string) {
	var keep, why []string
	note := func(w string) {
		for _, x := range why {
			if x == w {
				return
			}
		}
		why = append(why, w)
	}
	realRoot, err := filepath.EvalSymlinks(o.Root)
	if err != nil {
		realRoot = o.Root
	}
	// Each temporary folder resolved once per call, not once per PATH
	// entry: the walks were most of a gate call's CPU. Still per call, so
	// a link re-pointed since the last gate is followed.
	temps = withResolved(temps)
	var start map[string]bool
	if o.StartPathBound {
		start = map[string]bool{}
		for _, d := range filepath.SplitList(o.StartPath) {
			if filepath.IsAbs(d) {
				start[filepath.Clean(d)] = true
			}
		}
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" || !filepath.IsAbs(d) {
			note(dropInTree)
			continue
		}
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			real = filepath.Clean(d)
		}
		switch {
		case o.Root != "" && (inside(o.Root, d) || inside(realRoot, d) || inside(realRoot, real)):
			note(dropInTree)
			continue
		case inAny(temps, d) || inAny(temps, real):
			note(dropTemp)
			continue
		case start != nil && !start[filepath.Clean(d)] && filepath.Base(d) != "git-core" && changedSince(d, o.Since):
			// (git puts its own exec path first when it runs a hook; a
			// folder an agent's shell profile adds, unchanged since the
			// start, is no folder the agent just made)
			note(dropAdded + " (" + d + ")")
			continue
		}
		keep = append(keep, d)
	}
	return strings.Join(keep, string(os.PathListSeparator)), why
}

// withResolved is dirs followed by each one's resolved path, where it
// resolves to another: inAny then matches an entry under a folder or
// under what the folder links to.
func withResolved(dirs []string) []string {
	out := slices.Clip(dirs)
	for _, d := range dirs {
		if r, err := filepath.EvalSymlinks(d); err == nil && r != d && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func inAny(dirs []string, p string) bool {
	cp := filepath.Clean(p)
	for _, d := range dirs {
		if d == cp || inside(d, p) {
			return true
		}
	}
	return false
}

// changedSince reports whether folder d was created or changed (a file
// added, removed or renamed in it) after since; zero since: always.
func changedSince(d string, since time.Time) bool {
	if since.IsZero() {
		return true
	}
	t, err := ctime.Of(d)
	return err != nil || t.After(since)
}
