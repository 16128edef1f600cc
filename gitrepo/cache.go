package gitrepo

import (
	"context"
	"sync"

	"github.com/sessiongate/sessiongate/session"
)

// CachedOpen is an engine's OpenRepo for a long-running server, which
// checks gates call after call: each worktree is opened (one git rev-parse,
// most of a cheap gate's cost) once and the Repo shared between requests,
// as a Repo is safe for concurrent use. A worktree that fails to open is
// not remembered, so one that appears later is found then.
func CachedOpen(opened ...*Repo) func(ctx context.Context, worktree string) (session.Repo, error) {
	var mu sync.Mutex
	cache := map[string]*Repo{}
	for _, r := range opened { // already open: found by their roots
		cache[r.Root()] = r
	}
	return func(ctx context.Context, worktree string) (session.Repo, error) {
		mu.Lock()
		r, ok := cache[worktree]
		mu.Unlock()
		if ok {
			return r, nil
		}
		opened, err := Open(ctx, worktree)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := cache[worktree]; ok {
			return prev, nil // another request opened it first
		}
		cache[worktree] = opened
		return opened, nil
	}
}
