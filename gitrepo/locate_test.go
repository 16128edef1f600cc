package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestFromDotGitAgreesWithGit: the paths read from .git must be the ones
// git reports, or hooks would miss the sessions the CLI started.
func TestFromDotGitAgreesWithGit(t *testing.T) {
	root := indexRepo(t)
	linked := filepath.Join(t.TempDir(), "linked")
	gittest.Git(t, root, "worktree", "add", "-q", "-b", "feature", linked)
	link := filepath.Join(t.TempDir(), "via-symlink")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		dir  string
		read bool // answered from .git without git
	}{
		{"main worktree", root, true},
		{"linked worktree", linked, true},
		{"through a symlink", link, true},
		{"subfolder", filepath.Join(root, "src"), false},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := fromDotGit(tc.dir) != nil; got != tc.read {
				t.Fatalf("read from .git = %v, want %v", got, tc.read)
			}
			r, err := OpenHook(ctx, tc.dir, func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			g, err := Open(ctx, tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			if r.Root() != g.Root() || r.CommonDir() != g.CommonDir() || r.GitDir() != g.GitDir() || r.MainRoot() != g.MainRoot() || r.Name() != g.Name() {
				t.Errorf("OpenHook %s %s %s %s %s\ngitrepo  %s %s %s %s %s",
					r.Root(), r.CommonDir(), r.GitDir(), r.MainRoot(), r.Name(), g.Root(), g.CommonDir(), g.GitDir(), g.MainRoot(), g.Name())
			}
			head, _, err := r.Head(ctx)
			if want := gittest.Git(t, tc.dir, "rev-parse", "HEAD"); err != nil || head != want {
				t.Errorf("Head %q %v, want %q", head, err, want)
			}
		})
	}
	// GIT_DIR naming the git dir .git names (git sets it for hooks in a
	// linked worktree) is the plain layout; any other GIT_DIR asks git.
	for _, tc := range []struct {
		gitDir  string
		viaGit  bool
		comment string
	}{
		{filepath.Join(root, ".git"), false, "GIT_DIR is .git"},
		{".git", false, "GIT_DIR relative"},
		{filepath.Join(t.TempDir(), "elsewhere"), true, "GIT_DIR elsewhere"},
	} {
		r, err := OpenHook(ctx, root, func(k string) string {
			if k == "GIT_DIR" {
				return tc.gitDir
			}
			return ""
		})
		if tc.viaGit {
			if err == nil && r.fromDotGit {
				t.Errorf("%s: the .git entry was trusted over GIT_DIR", tc.comment)
			}
			continue
		}
		if err != nil || !r.fromDotGit {
			t.Errorf("%s: asked git (%v) though GIT_DIR names the same git dir", tc.comment, err)
		}
	}
}
