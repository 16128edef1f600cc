package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// gitUntracked is what git status --untracked-files=all lists as untracked.
func gitUntracked(t *testing.T, root string) []string {
	t.Helper()
	var want []string
	out := gittest.Git(t, root, "status", "--porcelain=v2", "-z", "--untracked-files=all")
	for _, rec := range strings.Split(out, "\x00") {
		if i := strings.LastIndex(rec, "\n"); i >= 0 {
			rec = rec[i+1:] // gittest.Git combines stderr (git's warnings) with stdout
		}
		if p, ok := strings.CutPrefix(rec, "? "); ok {
			want = append(want, p)
		}
	}
	sort.Strings(want)
	return want
}

// TestUntrackedIgnoreLikeGit: each case is a .gitignore (and files)
// where git lists a file as untracked; the in-process walk must list it too,
// or an edit of it leaves the turn mark unchanged (a false "idle").
func TestUntrackedIgnoreLikeGit(t *testing.T) {
	gittest.Require(t)
	cases := []struct {
		name      string
		gitignore string
		files     []string
		setup     func(t *testing.T, root string)
	}{
		{name: "bracket negation [!x]", gitignore: "[!x]oo\n", files: []string{"foo", "xoo"}},
		{name: "dir/** with a negation", gitignore: "vs/**\n!vs/keep.txt\n", files: []string{"vs/keep.txt", "vs/other"}},
		{name: "symlinked .gitignore (git does not follow it)", files: []string{"sl/a"}, setup: func(t *testing.T, root string) {
			target := filepath.Join(t.TempDir(), "ignore-all")
			os.WriteFile(target, []byte("*\n"), 0o644)
			if err := os.Symlink(target, filepath.Join(root, "sl", ".gitignore")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "folder with an empty .git (not a repository)", files: []string{"fake/f.txt"}, setup: func(t *testing.T, root string) {
			os.MkdirAll(filepath.Join(root, "fake", ".git"), 0o755)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			gittest.Git(t, root, "init", "-q", "-b", "main")
			gittest.Git(t, root, "commit", "-q", "--allow-empty", "-m", "init")
			if c.gitignore != "" {
				gittest.Write(t, root, ".gitignore", c.gitignore)
			}
			for _, f := range c.files {
				gittest.Write(t, root, f, "x\n")
			}
			if c.setup != nil {
				c.setup(t, root)
			}
			r, err := Open(context.Background(), root)
			if err != nil {
				t.Fatal(err)
			}
			want := gitUntracked(t, root)
			if got := untracked(t, r); !reflect.DeepEqual(got, want) {
				t.Errorf("untracked files:\n got %q\nwant %q (git status)", got, want)
			}
		})
	}
}

// git skips an entry named .git at any depth; the walk only at the root.
func TestDotGitBelowRoot(t *testing.T) {
	root, r := reviewRepo(t)
	gittest.Write(t, root, "src/.git", "not a gitfile\n")
	want := gitUntracked(t, root)
	if got := untracked(t, r); !reflect.DeepEqual(got, want) {
		t.Errorf("untracked files:\n got %q\nwant %q (git status)", got, want)
	}
}
