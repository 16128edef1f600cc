package gitrepo_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestR59H345WorkTreeTreeIndexPaths (helper 345): round 59 names the
// index in process (indexPath) instead of `git rev-parse --git-path
// index`: a linked worktree's tree is built from its own index
// (.git/worktrees/NAME/index), not the main worktree's, and one
// GIT_INDEX_FILE names (a pre-commit hook's) is still the one read.
func TestR59H345WorkTreeTreeIndexPaths(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	main := gittest.New(t, map[string]string{"a.go": "package a\n"})
	linked := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, main, "worktree", "add", "-q", "-b", "side", linked)
	gittest.Write(t, linked, "side_test.go", "package a\n")
	gittest.Git(t, linked, "add", "side_test.go") // staged in the linked index only
	gittest.Write(t, main, "main_test.go", "package a\n")
	gittest.Git(t, main, "add", "main_test.go") // staged in the main index only
	alt := filepath.Join(t.TempDir(), "alt-index")
	gittest.Git(t, main, "read-tree", "--index-output="+alt, "HEAD")
	for _, c := range []struct {
		name, dir, envIndex string
		want                []string
	}{
		{"main worktree", main, "", []string{"main_test.go"}},
		{"linked worktree", linked, "", []string{"side_test.go"}},
		{"GIT_INDEX_FILE named", main, alt, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GIT_INDEX_FILE", c.envIndex)
			r, err := gitrepo.Open(ctx, c.dir)
			if err != nil {
				t.Fatal(err)
			}
			tree, err := r.WorkTreeTree(ctx)
			if err != nil {
				t.Fatal(err)
			}
			diff, err := r.TreeDiff(ctx, "HEAD", tree)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(diff, c.want) {
				t.Errorf("TreeDiff(HEAD, work tree) = %v, want %v", diff, c.want)
			}
		})
	}
}
