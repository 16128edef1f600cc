package gitrepo_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// FilesOf answers what `git log --name-only` did for each commit: a root
// commit's files, a commit's changed files (odd names too), a merge none.
func TestFilesOf(t *testing.T) {
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q", "-b", "main")
	write := func(name string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string, files ...string) string {
		for _, f := range files {
			write(f)
		}
		gittest.Git(t, dir, "add", "-A")
		gittest.Git(t, dir, "commit", "-q", "-m", msg)
		return gittest.Git(t, dir, "rev-parse", "HEAD")
	}
	root := commit("root", "a.txt", "d/b.txt")
	odd := commit("odd", "sp ace.txt", "new\nline.txt")
	gittest.Git(t, dir, "checkout", "-q", "-b", "side")
	side := commit("side", "s.txt")
	gittest.Git(t, dir, "checkout", "-q", "main")
	commit("main", "m.txt")
	gittest.Git(t, dir, "merge", "-q", "--no-ff", "-m", "merge", "side")
	merge := gittest.Git(t, dir, "rev-parse", "HEAD")
	repo, err := gitrepo.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	cs := []*gitrepo.Commit{{SHA: root}, {SHA: odd}, {SHA: side}, {SHA: merge}}
	if err := repo.FilesOf(context.Background(), cs); err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]string{{"a.txt", "d/b.txt"}, {"new\nline.txt", "sp ace.txt"}, {"s.txt"}, nil} {
		got := slices.Clone(cs[i].Files)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("commit %d: files %q, want %q", i, got, want)
		}
	}
}
