package compliance_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A row's project set-up (two git init, sessiongate init, the first
// commit, a push, sessiongate install: eleven processes) is the same for
// every row of a project: it is made once per project, under
// templateRoot, and each row's world is a copy (cp -a keeps modes and
// mtimes). The copy's only path to its old place is origin's URL in
// .git/config (checked: nothing else under the template names it), which
// is rewritten. What a row does after the set-up (beforeBranch, the
// branch, the session) runs on its own copy.

// templateRoot holds the project templates ("" when TestMain made none:
// every world is then built from scratch).
var templateRoot string

var (
	templatesMu sync.Mutex
	templates   = map[string]*projectTemplate{}
)

// projectTemplate is one project's set-up, made once.
type projectTemplate struct {
	mu   sync.Mutex
	dir  string // base folder (work, home, origin.git); "" until made
	head string // the published commit (world.base)
}

// templateKey names p's set-up; "" when p cannot be copied (afterInit is
// a function whose effect the key cannot name, unless afterInitKey names it).
func templateKey(p advProject) string {
	if p.afterInit != nil && p.afterInitKey == "" {
		return ""
	}
	return fmt.Sprintf("%q %q %q %q", p.needs, p.files, p.qaCommand, p.afterInitKey)
}

// templateWorld returns a copy of p's published set-up as a world of t's,
// or nil when p has no template (the caller builds it from scratch).
func templateWorld(t *testing.T, p advProject) *world {
	t.Helper()
	return templatedWorld(t, templateKey(p), func(w *world) { setUpProject(w, p) })
}

// templatedWorld returns a copy of the set-up build makes in an empty
// world (newWorld's repository and bare origin), made once per key under
// templateRoot, as a world of t's; nil when there is no template root or
// key is "" (the caller builds the world from scratch). key must name
// everything build's result depends on.
func templatedWorld(t *testing.T, key string, build func(w *world)) *world {
	t.Helper()
	if templateRoot == "" || key == "" {
		return nil
	}
	templatesMu.Lock()
	tp := templates[key]
	if tp == nil {
		tp = &projectTemplate{}
		templates[key] = tp
	}
	templatesMu.Unlock()
	tp.mu.Lock()
	if tp.dir == "" {
		// Made by the first row that needs it, with that row's t: a
		// failure fails that row, and the next row tries again.
		dir, err := os.MkdirTemp(templateRoot, "project-")
		if err != nil {
			tp.mu.Unlock()
			t.Fatalf("make a project template: %v", err)
		}
		func() {
			defer tp.mu.Unlock()
			defer func() {
				// A set-up that stops the agent (world.halt) fails the
				// row: it is set-up, not what a scenario measures.
				if r := recover(); r != nil {
					if s, ok := r.(stop); ok {
						t.Fatalf("the set-up stopped: %s", s.reason)
					}
					panic(r)
				}
			}()
			w := newWorldAt(t, dir)
			build(w)
			if err := namesOnlyInGitConfig(dir); err != nil {
				t.Fatalf("the project template cannot be copied: %v", err)
			}
			tp.dir, tp.head = dir, w.base
		}()
	} else {
		tp.mu.Unlock()
	}
	base := t.TempDir()
	if out, err := exec.Command("cp", "-a", tp.dir+"/.", base).CombinedOutput(); err != nil {
		t.Fatalf("copy the project template: %v: %s", err, out)
	}
	cfg := filepath.Join(base, "work", ".git", "config")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatalf("read the copy's git config: %v", err)
	}
	if !strings.Contains(string(b), tp.dir) {
		t.Fatalf("the template's .git/config does not name its origin at %s:\n%s", tp.dir, b)
	}
	if err := os.WriteFile(cfg, []byte(strings.ReplaceAll(string(b), tp.dir, base)), 0o644); err != nil {
		t.Fatalf("write the copy's git config: %v", err)
	}
	w := worldAt(t, base)
	root, err := filepath.EvalSymlinks(w.root)
	if err != nil {
		t.Fatal(err)
	}
	w.root, w.base = root, tp.head
	return w
}

// namesOnlyInGitConfig returns an error when a file under dir other than
// work/.git/config holds dir's path: a copy would point back at the
// template there.
func namesOnlyInGitConfig(dir string) error {
	return filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == filepath.Join(dir, "work", ".git", "config") {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			// A link out of the template (the fixture repositories'
			// node_modules) is copied as it is; one into it would not be.
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			if strings.Contains(target, dir) {
				return fmt.Errorf("%s links to the template's folder", path)
			}
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), dir) {
			return fmt.Errorf("%s names the template's folder", path)
		}
		return nil
	})
}
