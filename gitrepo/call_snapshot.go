package gitrepo

import (
	"context"
	"sync"
	"time"
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
	// index: the first stamp of an index file in the call (the staged
	// files' cache and the skip-worktree reading both key on it: one stat
	// where there were two, round 25).
	index map[snapIndexKey]snapIndex
}

type snapIndexKey struct {
	r    *Repo
	path string
}

// snapIndex is an index file's stamp and when it was read (the racy
// window is measured from then).
type snapIndex struct {
	stamp [stampLen]byte
	at    time.Time
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

// indexStamp is stamp(path) and when it was read, the first reading of the
// call under ctx's snapshot (none: read now). A check that must see the
// file as it is now (that nothing moved while git ran or a file was read)
// stamps it itself.
func (r *Repo) indexStamp(ctx context.Context, path string) ([stampLen]byte, time.Time) {
	s := snapshotOf(ctx)
	if s == nil {
		return stamp(path), time.Now()
	}
	k := snapIndexKey{r, path}
	s.mu.Lock()
	got, ok := s.index[k]
	s.mu.Unlock()
	if ok {
		return got.stamp, got.at
	}
	at := time.Now()
	st := stamp(path)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.index == nil {
		s.index = map[snapIndexKey]snapIndex{}
	}
	if got, ok := s.index[k]; ok { // the first answer stands for the call
		return got.stamp, got.at
	}
	s.index[k] = snapIndex{st, at}
	return st, at
}
