// Package docsgo reads the Go (and Python) source a docs gate judges a
// change on: both sides of a changed file, the unchanged files of its
// package, and the packages that import it, so docmention can tell a flag
// whose resolved value changed. It needs no session: the gate (session)
// gives it the work tree, the session's start commit and a reader of it.
package docsgo

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/docmention"
	"github.com/sessiongate/sessiongate/goimporters"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/repopath"
)

// BodyCap bounds a file read for the docs gate.
const BodyCap = 1 << 20

// ReadAt reads a file at a commit (gitrepo.Repo.ReadAt).
type ReadAt func(ctx context.Context, rev, path string) ([]byte, error)

// goPackageCap bounds the unchanged Go files read per changed package; a
// larger package is judged on the changed files alone.
const goPackageCap = 300

// WholeChange gives a changed Go file both its sides, so docmention
// judges its package on the source (a flag counts when its resolved
// definition changed, not when a line naming it did). A file the start
// lacks is new (""); one that cannot be read is left to the line rule.
func WholeChange(ctx context.Context, root, start string, readAt ReadAt, ch *docmention.Change) {
	if strings.HasSuffix(ch.Path, ".py") && start != "" && !docmention.IgnoredPath(ch.Path) {
		// A Python file's docstrings are no code (a quoted parser defines
		// no flag): both sides are read.
		if abs, ok, err := repopath.Resolve(root, ch.Path); err == nil && ok {
			if st, err := os.Stat(abs); err == nil && st.Mode().IsRegular() && st.Size() <= BodyCap {
				if b, err := boundedread.File(abs, boundedread.DefaultLimit); err == nil {
					ch.Body = string(b)
				}
			}
		}
		if b, err := readAt(ctx, start, ch.Path); err == nil && len(b) <= BodyCap {
			ch.Before = string(b)
		}
		return
	}
	if !strings.HasSuffix(ch.Path, ".go") || docmention.IgnoredPath(ch.Path) || start == "" {
		return
	}
	if !ch.Deleted && ch.Body == "" {
		return // not read (too large, not a regular file)
	}
	b, err := readAt(ctx, start, ch.Path)
	switch {
	case err == nil:
		ch.Before = string(b)
	case len(ch.Removed) > 0:
		return // it existed: unread, judged by its lines
	}
	ch.Whole = true
}

// UnchangedFiles reads the Go files of each changed package that the
// session did not change, from the work tree (the same as at the start):
// a constant or default declared there names a value a changed file uses.
func UnchangedFiles(root string, changes []docmention.Change, changed []string) map[string]string {
	isChanged := map[string]bool{}
	for _, f := range changed {
		isChanged[f] = true
	}
	out := map[string]string{}
	done := map[string]bool{}
	for _, c := range changes {
		d := path.Dir(c.Path)
		if !c.Whole || done[d] {
			continue
		}
		done[d] = true
		abs := root
		if d != "." {
			a, ok, err := repopath.Resolve(abs, d)
			if err != nil || !ok {
				continue
			}
			abs = a
		}
		ents, err := os.ReadDir(abs)
		if err != nil || len(ents) > goPackageCap {
			continue
		}
		for _, e := range ents {
			p := path.Join(d, e.Name())
			if d == "." {
				p = e.Name()
			}
			if !e.Type().IsRegular() || !strings.HasSuffix(p, ".go") || docmention.IgnoredPath(p) || isChanged[p] {
				continue
			}
			if st, err := e.Info(); err != nil || st.Size() > BodyCap {
				continue
			}
			if b, err := boundedread.File(abs+"/"+e.Name(), boundedread.DefaultLimit); err == nil {
				out[p] = string(b)
			}
		}
	}
	return out
}

// AddImporters adds to unchanged the Go files of the packages that import
// one of dirs (changed packages whose exported values changed): their
// flags' defaults may be those values (flag.Int("n", limits.N, ...),
// round 22). goimporters finds them (each package named by its nearest
// go.mod, git grep with no cap: round 23).
func AddImporters(ctx context.Context, root string, dirs []string, unchanged map[string]string, changed []string) {
	found, _ := goimporters.Find(ctx, root, dirs)
	isChanged := map[string]bool{}
	for _, f := range changed {
		isChanged[f] = true
	}
	importers := map[string]bool{}
	for _, d := range found {
		importers[d] = true
	}
	for d := range importers {
		abs := filepath.Join(root, filepath.FromSlash(d))
		ents, err := os.ReadDir(abs)
		if err != nil || len(ents) > goPackageCap {
			continue
		}
		for _, e := range ents {
			p := path.Join(d, e.Name())
			if d == "." {
				p = e.Name()
			}
			if _, ok := unchanged[p]; ok || !e.Type().IsRegular() || !strings.HasSuffix(p, ".go") || docmention.IgnoredPath(p) || isChanged[p] {
				continue
			}
			if st, err := e.Info(); err != nil || st.Size() > BodyCap {
				continue
			}
			if b, err := boundedread.File(filepath.Join(abs, e.Name()), boundedread.DefaultLimit); err == nil {
				unchanged[p] = string(b)
			}
		}
	}
}
