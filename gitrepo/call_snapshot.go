package gitrepo

import (
	"context"
	"sync"
)

// A call snapshot is one tool call's view of HEAD: a validate_gate call
// asks for HEAD from four places (reconciling commits, the work's start,
// the committed and the staged protected files), three stats each. Under
// one snapshot they share the first answer, so every check of the call
// judges the same HEAD and the call stats HEAD's files once (issue 29).
// A later call takes a new snapshot and sees any move.
type callSnapshot struct {
	mu    sync.Mutex
	heads map[*Repo]snapHead
}

type snapHead struct{ commit, branch string }

type snapshotKey struct{}

// WithCallSnapshot returns ctx carrying a new call snapshot. Use it only
// for a call that does not itself move HEAD (a gate check, not a commit):
// HEAD is read once under it.
func WithCallSnapshot(ctx context.Context) context.Context {
	return context.WithValue(ctx, snapshotKey{}, &callSnapshot{})
}

// withoutSnapshot is ctx reading HEAD afresh (a check that nothing moved).
func withoutSnapshot(ctx context.Context) context.Context {
	if snapshotOf(ctx) == nil {
		return ctx
	}
	return context.WithValue(ctx, snapshotKey{}, (*callSnapshot)(nil))
}

func snapshotOf(ctx context.Context) *callSnapshot {
	if ctx == nil {
		return nil
	}
	s, _ := ctx.Value(snapshotKey{}).(*callSnapshot)
	return s
}

func (s *callSnapshot) head(r *Repo) (snapHead, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.heads[r]
	return h, ok
}

func (s *callSnapshot) putHead(r *Repo, h snapHead) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.heads == nil {
		s.heads = map[*Repo]snapHead{}
	}
	if _, ok := s.heads[r]; !ok { // the first answer stands for the call
		s.heads[r] = h
	}
}
