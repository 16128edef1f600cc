package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// ciTemplate is newCIWorld's world, built once per test binary and copied
// for each test. Building it runs about 60 real sessiongate and git
// processes (init, install, four sessions, accepts, pushes) and 20 tests
// start from it: built per test it was most of this package's CI time.
// A copy is a world of its own (own folder, database, remote), so a test
// that changes its world changes no other test's.
var ciTemplate struct {
	once  sync.Once
	built bool
	dir   string // the template's folder ("" until built)
	w     ciWorld
}

// removeCITemplate removes the template's folder; TestMain calls it after
// the tests, before tmpleak looks for leftovers.
func removeCITemplate() {
	if ciTemplate.dir != "" {
		os.RemoveAll(ciTemplate.dir)
	}
}

// newCIWorld returns a fresh copy of the CI world (see buildCIWorld).
func newCIWorld(t *testing.T) *ciWorld {
	t.Helper()
	realBinary(t)
	ciTemplate.once.Do(func() {
		// Not t.TempDir: the template outlives the test that builds it.
		dir, err := os.MkdirTemp("", "ciworld-template-")
		if err != nil {
			t.Fatalf("CI world template: %v", err)
		}
		ciTemplate.dir = dir
		ciTemplate.w = *buildCIWorld(t, dir)
		ciTemplate.built = true
	})
	if !ciTemplate.built {
		t.Fatal("the CI world template failed to build in an earlier test (see that test's log)")
	}
	w, err := ciTemplate.w.copyTo(t.TempDir())
	if err != nil {
		t.Fatalf("copy the CI world template: %v", err)
	}
	return w
}

// copyTo copies the world's folder into dst and rewrites the absolute
// paths the world holds: origin's URL in dev's .git/config, and the
// repository root, origin and session worktrees in sessiongate's database.
// The hooks name the binary, which is the same for every test. Any other
// file still naming the old folder afterwards is an error, so a path a
// future change records is found here rather than shared between tests.
func (w *ciWorld) copyTo(dst string) (*ciWorld, error) {
	src := w.dir
	// "src/." copies the folder's content into the existing dst.
	if out, err := exec.Command("cp", "-a", src+"/.", dst).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("cp -a %s %s: %v\n%s", src, dst, err, out)
	}
	re := func(p string) string {
		if p == src || strings.HasPrefix(p, src+string(filepath.Separator)) {
			return dst + p[len(src):]
		}
		return p
	}
	c := *w
	c.dir, c.remote, c.fork, c.dev = dst, re(w.remote), re(w.fork), re(w.dev)
	c.env = make([]string, len(w.env))
	for i, kv := range w.env {
		c.env[i] = strings.ReplaceAll(kv, src, dst)
	}
	cfg := filepath.Join(c.dev, ".git", "config")
	b, err := os.ReadFile(cfg)
	if err != nil {
		return nil, fmt.Errorf("read dev's git config: %w", err)
	}
	if err := os.WriteFile(cfg, bytes.ReplaceAll(b, []byte(src), []byte(dst)), 0o644); err != nil {
		return nil, fmt.Errorf("rewrite dev's git config: %w", err)
	}
	if err := rewriteDBPaths(filepath.Join(c.dev, ".git", "sessiongate", "sessiongate.db"), src, dst); err != nil {
		return nil, err
	}
	if err := noPathLeft(dst, src); err != nil {
		return nil, err
	}
	return &c, nil
}

// rewriteDBPaths moves the database's repository and sessions from src to
// dst, then vacuums so that no free page keeps the old path (noPathLeft
// reads the file's bytes).
func rewriteDBPaths(db, src, dst string) error {
	conn, err := sql.Open("sqlite", "file:"+db+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return fmt.Errorf("open %s: %w", db, err)
	}
	defer conn.Close()
	for _, q := range []string{
		`UPDATE repositories SET root = replace(root, ?1, ?2), origin = replace(origin, ?1, ?2)`,
		`UPDATE sessions SET worktree = replace(worktree, ?1, ?2)`,
		// The start's programs and pinned folders (gateenv:start_programs):
		// the world's HOME and PATH lie in its folder.
		`UPDATE events SET detail = replace(detail, ?1, ?2) WHERE token = 'gateenv:start_programs'`,
	} {
		if _, err := conn.Exec(q, src, dst); err != nil {
			return fmt.Errorf("rewrite paths in %s: %s: %w", db, q, err)
		}
	}
	if _, err := conn.Exec(`VACUUM`); err != nil {
		return fmt.Errorf("vacuum %s: %w", db, err)
	}
	return conn.Close()
}

// noPathLeft fails when a file under dir (git's compressed objects aside)
// still holds old.
func noPathLeft(dir, old string) error {
	var left []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "objects" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(old)) {
			left = append(left, p)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("look for the template's path in the copy: %w", err)
	}
	if len(left) > 0 {
		return fmt.Errorf("the copy still names the template's folder %s in: %s", old, strings.Join(left, ", "))
	}
	return nil
}

// TestCIWorldCopiesAreIndependent: two copies of the template share
// nothing. A session, a commit and a push in one leave the other copy and
// the template as they were; each copy's database names its own folder, so
// the real binary finds its repository and earlier sessions there.
func TestCIWorldCopiesAreIndependent(t *testing.T) {
	t.Parallel()
	a, b := newCIWorld(t), newCIWorld(t)
	if a.dir == b.dir || a.dir == ciTemplate.dir {
		t.Fatalf("copies share a folder: %s, %s (template %s)", a.dir, b.dir, ciTemplate.dir)
	}
	state := func(w *ciWorld) string {
		return strings.Join([]string{
			w.git(t, w.dev, "rev-parse", "HEAD"),
			w.git(t, w.dev, "status", "--porcelain"),
			w.git(t, w.remote, "for-each-ref", "--format=%(refname) %(objectname)"),
			w.git(t, w.dev, "remote", "get-url", "origin"),
		}, "\n")
	}
	before := state(b)
	tmpl := ciTemplate.w
	tmplBefore := state(&tmpl)
	for _, w := range []*ciWorld{a, b} {
		if got := w.git(t, w.dev, "remote", "get-url", "origin"); got != w.remote {
			t.Fatalf("origin of %s is %s, want its own remote %s", w.dir, got, w.remote)
		}
	}
	// The template's sessions are the copy's: `session show` finds the
	// worktree's last one by the copy's own root (and trusted files, the
	// protocol acceptances, are keyed the same way).
	if out := a.sg(t, a.dev, "session", "show", "--json"); !strings.Contains(out, "COMPLETE") {
		t.Fatalf("the copy's database lists no completed session of the template:\n%s", out)
	}
	a.qaCmd = "test ! -f broken.txt"
	a.session(t, "only-in-a.txt")
	a.git(t, a.dev, "push", "-q", "origin", "feature")
	if got := state(b); got != before {
		t.Errorf("a session and push in one copy changed the other:\nbefore %s\nafter  %s", before, got)
	}
	if got := state(&tmpl); got != tmplBefore {
		t.Errorf("a session and push in a copy changed the template:\nbefore %s\nafter  %s", tmplBefore, got)
	}
	if _, err := os.Stat(filepath.Join(b.dev, "only-in-a.txt")); err == nil {
		t.Error("the other copy's work tree holds a file of the first")
	}
}
