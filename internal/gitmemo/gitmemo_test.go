package gitmemo

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestMemo: without With every call reads; with it a Tree answer is read
// once until Forget, an Object answer once per memo, and errors are
// never kept.
func TestMemo(t *testing.T) {
	reads := 0
	read := func() (int, error) { reads++; return reads, nil }
	fail := func() (int, error) { reads++; return 0, errors.New("boom") }
	steps := []struct {
		name      string
		ctxMemo   bool
		do        func(ctx context.Context) (int, error)
		wantVal   int
		wantReads int
	}{
		{"no memo: read", false, func(ctx context.Context) (int, error) { return Tree(ctx, "k", read) }, 1, 1},
		{"no memo: read again", false, func(ctx context.Context) (int, error) { return Tree(ctx, "k", read) }, 2, 2},
		{"memo: first read", true, func(ctx context.Context) (int, error) { return Tree(ctx, "k", read) }, 3, 3},
		{"memo: kept", true, func(ctx context.Context) (int, error) { return Tree(ctx, "k", read) }, 3, 3},
		{"memo: another key reads", true, func(ctx context.Context) (int, error) { return Tree(ctx, "k2", read) }, 4, 4},
		{"memo: object read", true, func(ctx context.Context) (int, error) { return Object(ctx, "k", read) }, 5, 5},
		{"forget", true, func(ctx context.Context) (int, error) { Forget(ctx); return Tree(ctx, "k", read) }, 6, 6},
		{"object kept across forget", true, func(ctx context.Context) (int, error) { return Object(ctx, "k", read) }, 5, 6},
		{"error not kept", true, func(ctx context.Context) (int, error) { v, _ := Tree(ctx, "e", fail); return v, nil }, 0, 7},
		{"error read again", true, func(ctx context.Context) (int, error) { v, _ := Tree(ctx, "e", fail); return v, nil }, 0, 8},
	}
	memoCtx := With(context.Background())
	if With(memoCtx) != memoCtx {
		t.Fatal("With on a ctx that has a memo made another")
	}
	for _, s := range steps {
		ctx := context.Background()
		if s.ctxMemo {
			ctx = memoCtx
		}
		v, err := s.do(ctx)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if v != s.wantVal || reads != s.wantReads {
			t.Fatalf("%s: value %d after %d reads, want %d after %d", s.name, v, reads, s.wantVal, s.wantReads)
		}
	}
}

// TestForgetDuringRead: an answer read while Forget ran may be the old
// state: it is returned but not kept.
func TestForgetDuringRead(t *testing.T) {
	ctx := With(context.Background())
	v, _ := Tree(ctx, "k", func() (string, error) { Forget(ctx); return "old", nil })
	if v != "old" {
		t.Fatalf("got %q", v)
	}
	v, _ = Tree(ctx, "k", func() (string, error) { return "new", nil })
	if v != "new" {
		t.Fatalf("an answer read across a Forget was kept: got %q, want new", v)
	}
}
