package commitcheckout_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/commitcheckout"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestCommit: the checkout holds the commit's files, not the work tree's
// later ones; the work tree's ignored packages folder is linked in; an
// untracked, unignored file (work not committed) is not; remove leaves
// no worktree behind.
func TestCommit(t *testing.T) {
	gittest.Require(t)
	dir := gittest.New(t, map[string]string{"greet.py": "v1\n", ".gitignore": "node_modules/\n"})
	first := gittest.Git(t, dir, "rev-parse", "HEAD")
	gittest.Commit(t, dir, "v2", map[string]string{"greet.py": "v2\n"})
	gittest.Write(t, dir, "node_modules/pkg/index.js", "x\n")
	gittest.Write(t, dir, "notes.txt", "draft\n")
	co, remove, err := commitcheckout.Commit(context.Background(), dir, first)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(co, "greet.py")); err != nil || string(b) != "v1\n" {
		t.Errorf("greet.py in the checkout = %q, %v; want the first commit's v1", b, err)
	}
	if _, err := os.Stat(filepath.Join(co, "node_modules", "pkg", "index.js")); err != nil {
		t.Errorf("the work tree's node_modules is not linked in: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(co, "notes.txt")); err == nil {
		t.Error("an untracked, unignored file was linked in: work not committed reached the checkout")
	}
	remove()
	if _, err := os.Stat(co); !os.IsNotExist(err) {
		t.Errorf("the checkout is still there after remove: %v", err)
	}
	if out := gittest.Git(t, dir, "worktree", "list", "--porcelain"); strings.Count("\n"+out, "\nworktree ") != 1 {
		t.Errorf("a worktree is left registered:\n%s", out)
	}
}

// TestCommitForeignConfig: a runner's configuration above the temporary
// folder (a pytest.ini in a TMPDIR the agent chose, lazy pass 36 route
// C) would configure the commit's run: Commit refuses, naming it, and
// leaves nothing behind.
func TestCommitForeignConfig(t *testing.T) {
	gittest.Require(t)
	dir := gittest.New(t, map[string]string{"greet.py": "v1\n"})
	sha := gittest.Git(t, dir, "rev-parse", "HEAD")
	for _, name := range []string{"pytest.ini", "conftest.py", "go.work"} {
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			if err := os.WriteFile(filepath.Join(tmp, name), []byte("[pytest]\naddopts = -p no:terminal\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv("TMPDIR", filepath.Join(tmp))
			_, _, err := commitcheckout.Commit(context.Background(), dir, sha)
			if !errors.Is(err, commitcheckout.ErrForeignConfig) || !strings.Contains(err.Error(), filepath.Join(tmp, name)) {
				t.Fatalf("Commit with %s above its folder: err %v, want ErrForeignConfig naming it", name, err)
			}
			if ents, _ := os.ReadDir(tmp); len(ents) != 1 {
				t.Errorf("the refused checkout left %d entries in TMPDIR", len(ents)-1)
			}
		})
	}
}

// BenchmarkCommit is what the QA gate pays once per session, before
// running its command at the start commit, on a 200-file repository;
// BenchmarkWorktreeAdd is git's own worktree add and remove, the peer.
func BenchmarkCommit(b *testing.B) {
	dir, sha := benchRepo(b)
	for b.Loop() {
		_, remove, err := commitcheckout.Commit(context.Background(), dir, sha)
		if err != nil {
			b.Fatal(err)
		}
		remove()
	}
}

func BenchmarkWorktreeAdd(b *testing.B) {
	dir, sha := benchRepo(b)
	for b.Loop() {
		wt := filepath.Join(b.TempDir(), "tree")
		if out, err := exec.Command("git", "-C", dir, "worktree", "add", "--detach", "--quiet", wt, sha).CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		if out, err := exec.Command("git", "-C", dir, "worktree", "remove", "--force", wt).CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
}

func benchRepo(b *testing.B) (string, string) {
	gittest.Require(b)
	files := map[string]string{".gitignore": "node_modules/\n.venv/\n"}
	for i := range 200 {
		files[fmt.Sprintf("pkg%d/mod%d.py", i%20, i)] = fmt.Sprintf("def f%d():\n    return %d\n", i, i)
	}
	dir := gittest.New(b, files)
	gittest.Write(b, dir, "node_modules/pkg/index.js", "x\n")
	return dir, gittest.Git(b, dir, "rev-parse", "HEAD")
}
