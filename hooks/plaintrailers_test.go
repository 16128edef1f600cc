package hooks

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// GIT_CONFIG_NOSYSTEM is a boolean to git: "0" or "false" still reads the
// system configuration, so a comment character there must keep commit-msg
// off its fast path.
func TestPlainTrailersNoSystemIsABoolean(t *testing.T) {
	gittest.Require(t)
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q")
	repo, err := gitrepo.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	sys := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(sys, []byte("[core]\n\tcommentChar = ;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		nosystem string
		plain    bool
	}{
		{"", false}, {"0", false}, {"false", false}, {"No", false}, {"off", false},
		{"1", true}, {"true", true}, {"yes", true}, {"2", true},
		{"maybe", false}, // git refuses it: no fast path
	} {
		env := map[string]string{
			"GIT_CONFIG_NOSYSTEM": tc.nosystem, "GIT_CONFIG_SYSTEM": sys,
			"GIT_CONFIG_GLOBAL": os.DevNull, "HOME": t.TempDir(),
		}
		if got := plainTrailers(repo, func(k string) string { return env[k] }); got != tc.plain {
			t.Errorf("GIT_CONFIG_NOSYSTEM=%q: plain %v, want %v", tc.nosystem, got, tc.plain)
		}
	}
}

// A comment character in a linked worktree's config.worktree, in an
// included file or in $XDG_CONFIG_HOME keeps commit-msg off its fast path.
func TestPlainTrailersConfigPlaces(t *testing.T) {
	gittest.Require(t)
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q")
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "init")
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, dir, "worktree", "add", "-q", wt)
	repo, err := gitrepo.Open(context.Background(), wt)
	if err != nil {
		t.Fatal(err)
	}
	home, xdg := t.TempDir(), t.TempDir()
	env := map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "HOME": home, "XDG_CONFIG_HOME": xdg}
	getenv := func(k string) string { return env[k] }
	if !plainTrailers(repo, getenv) {
		t.Fatal("a plain configuration is not plain")
	}
	cw := filepath.Join(repo.GitDir(), "config.worktree")
	os.WriteFile(cw, []byte("[core]\n\tcommentChar = ;\n"), 0o644)
	if plainTrailers(repo, getenv) {
		t.Errorf("config.worktree of a linked worktree (%s) not read", cw)
	}
	os.Remove(cw)
	os.MkdirAll(filepath.Join(xdg, "git"), 0o755)
	os.WriteFile(filepath.Join(xdg, "git", "config"), []byte("[core]\n\tCommentChar = ;\n"), 0o644)
	if plainTrailers(repo, getenv) {
		t.Error("$XDG_CONFIG_HOME/git/config not read")
	}
	os.Remove(filepath.Join(xdg, "git", "config"))
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[include]\n\tpath = other\n"), 0o644)
	if plainTrailers(repo, getenv) {
		t.Error("an include in ~/.gitconfig not taken as doubt")
	}
}
