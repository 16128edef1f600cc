package hooks

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
)

// TestFromDotGitAgreesWithGit: the paths read from .git must be the ones
// git reports, or hooks would miss the sessions the CLI started.
func TestFromDotGitAgreesWithGit(t *testing.T) {
	root := indexRepo(t)
	linked := filepath.Join(t.TempDir(), "linked")
	gitT(t, root, "worktree", "add", "-q", "-b", "feature", linked)
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
			r, err := locateRepo(ctx, tc.dir, func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			g, err := gitrepo.Open(ctx, tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			if r.Root() != g.Root() || r.CommonDir() != g.CommonDir() || r.GitDir() != g.GitDir() || r.MainRoot() != g.MainRoot() || r.Name() != g.Name() {
				t.Errorf("hookRepo %s %s %s %s %s\ngitrepo  %s %s %s %s %s",
					r.Root(), r.CommonDir(), r.GitDir(), r.MainRoot(), r.Name(), g.Root(), g.CommonDir(), g.GitDir(), g.MainRoot(), g.Name())
			}
			head, _, err := r.Head(ctx)
			if want := gitT(t, tc.dir, "rev-parse", "HEAD"); err != nil || head != want {
				t.Errorf("Head %q %v, want %q", head, err, want)
			}
		})
	}
	// GIT_DIR in the environment: ask git, whatever .git says.
	r, err := locateRepo(ctx, root, func(k string) string {
		if k == "GIT_DIR" {
			return filepath.Join(root, ".git")
		}
		return ""
	})
	if err != nil || r.repo == nil {
		t.Errorf("with GIT_DIR set the repository was not opened through git: %v", err)
	}
}
