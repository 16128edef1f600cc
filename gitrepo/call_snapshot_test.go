package gitrepo

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestCallSnapshotHead: under one call snapshot every Head answers the
// call's first reading, so the call's checks judge one HEAD; a new
// snapshot or a plain context sees a commit made since.
func TestCallSnapshotHead(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	root := gittest.New(t, map[string]string{"a.txt": "a\n"})
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	call := WithCallSnapshot(ctx)
	first, branch, err := r.Head(call)
	if err != nil || first == "" || branch == "" {
		t.Fatalf("Head = %q %q %v", first, branch, err)
	}
	gittest.Commit(t, root, "move HEAD", map[string]string{"a.txt": "b\n"})
	moved, _, err := r.Head(ctx)
	if err != nil || moved == first {
		t.Fatalf("a plain context reads %q after a commit (was %q): %v", moved, first, err)
	}
	cases := []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"the same call", call, first},
		{"a new call", WithCallSnapshot(ctx), moved},
		{"a fresh read inside the call", withoutSnapshot(call), moved},
		{"no snapshot", ctx, moved},
	}
	for _, c := range cases {
		if got, _, err := r.Head(c.ctx); err != nil || got != c.want {
			t.Errorf("%s: Head = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}
