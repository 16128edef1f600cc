package gitrepo_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestBlobsAt: one cat-file process answers for many paths; bytes come
// back whole (a NUL, no trailing newline), absent paths and folders are
// left out, a bad revision is an error.
func TestBlobsAt(t *testing.T) {
	dir := gittest.New(t, map[string]string{"a_test.go": "package a\n", "bin.dat": "x\x00y", "sub/b.py": "def test_b():\n    pass"})
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := repo.BlobsAt(ctx, "HEAD", []string{"a_test.go", "bin.dat", "sub/b.py", "gone.go", "sub", ""})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a_test.go": "package a\n", "bin.dat": "x\x00y", "sub/b.py": "def test_b():\n    pass"}
	if len(got) != len(want) {
		t.Fatalf("got %d files %q, want %d", len(got), got, len(want))
	}
	for p, w := range want {
		if string(got[p]) != w {
			t.Errorf("%s = %q, want %q", p, got[p], w)
		}
	}
	if _, err := repo.BlobsAt(ctx, "-bad", []string{"a_test.go"}); err == nil {
		t.Error("a revision starting with - was accepted")
	}
}
