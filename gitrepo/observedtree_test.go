package gitrepo_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestWorkTreeTree: the tree a commit of every tracked file would hold
// now: staged files and unstaged edits in, untracked files out, and the
// real index untouched; TreeDiff names what differs from HEAD.
func TestWorkTreeTree(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	dir := gittest.New(t, map[string]string{"a.go": "package a\n", "b.go": "package a\n"})
	r, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	clean, err := r.WorkTreeTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if head := gittest.Git(t, dir, "rev-parse", "HEAD^{tree}"); clean != head {
		t.Fatalf("clean work tree: %s, want HEAD's tree %s", clean, head)
	}
	gittest.Write(t, dir, "a.go", "package a // edited, not staged\n")
	gittest.Write(t, dir, "new_test.go", "package a\n")
	gittest.Git(t, dir, "add", "new_test.go")
	gittest.Write(t, dir, "scratch.go", "package a\n") // untracked
	staged := gittest.Git(t, dir, "diff", "--cached", "--name-only")
	tree, err := r.WorkTreeTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "diff", "--cached", "--name-only"); got != staged {
		t.Fatalf("the real index changed: staged %q, now %q", staged, got)
	}
	diff, err := r.TreeDiff(ctx, "HEAD", tree)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.go", "new_test.go"}; !slices.Equal(diff, want) {
		t.Fatalf("TreeDiff(HEAD, work tree) = %v, want %v (scratch.go is untracked)", diff, want)
	}
}
