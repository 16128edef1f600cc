package gitrepo

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestDefaultHolds: the session's commits the local default branch holds
// (lazy pass 29: `git branch -f main HEAD` after the work, or the work
// committed on main and the feature branch reset onto it), and none for a
// person's fast-forward of main to the remote's.
func TestDefaultHolds(t *testing.T) {
	for _, tc := range []struct {
		name string
		// move runs after the session's two commits on feat/x (start: the
		// commit the session started from; dir: the clone).
		move func(t *testing.T, dir, origin string)
		want int
	}{
		{"main untouched", func(*testing.T, string, string) {}, 0},
		{"git branch -f main HEAD", func(t *testing.T, dir, _ string) { gittest.Git(t, dir, "branch", "-f", "main", "HEAD") }, 2},
		{"git update-ref to the first commit", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "update-ref", "refs/heads/main", "HEAD~1")
		}, 1},
		{"main fast-forwarded to origin's main (a person's commit)", func(t *testing.T, dir, origin string) {
			other := filepath.Join(t.TempDir(), "person")
			gittest.Git(t, filepath.Dir(other), "clone", "-q", origin, other)
			gittest.Commit(t, other, "chore: license", map[string]string{"LICENSE": "MIT\n"})
			gittest.Git(t, other, "push", "-q", "origin", "main")
			gittest.Git(t, dir, "fetch", "-q", "origin", "main:main")
		}, 0},
		{"the work pushed to origin's main and fetched", func(t *testing.T, dir, _ string) {
			gittest.Git(t, dir, "push", "-q", "origin", "HEAD:main")
			gittest.Git(t, dir, "fetch", "-q", "origin", "main:main")
		}, 0}, // the remote's: its branch protection's and records_push's to judge
		{"no local main", func(t *testing.T, dir, _ string) { gittest.Git(t, dir, "branch", "-D", "main") }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := gittest.New(t, map[string]string{"README.md": "# x\n"})
			origin := filepath.Join(t.TempDir(), "origin.git")
			gittest.Git(t, filepath.Dir(origin), "clone", "-q", "--bare", src, origin)
			dir := filepath.Join(t.TempDir(), "clone")
			gittest.Git(t, filepath.Dir(dir), "clone", "-q", origin, dir)
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Git(t, dir, "switch", "-q", "-c", "feat/x")
			gittest.Commit(t, dir, "feat: a", map[string]string{"a.txt": "a\n"})
			gittest.Commit(t, dir, "feat: b", map[string]string{"b.txt": "b\n"})
			tc.move(t, dir, origin)
			r, err := Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.DefaultHolds(context.Background(), "main", start)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.want {
				t.Errorf("DefaultHolds = %d commits %v, want %d", len(got), got, tc.want)
			}
		})
	}
}
