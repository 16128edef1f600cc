// Package gitmemo lets one gate evaluation share git's answers. A QA
// command gate on a 4-file Go repository ran 31 git processes before and
// after its command, most of them the same question asked by another
// check: which files the session changed (git status and a tree diff,
// five times), a start commit's copy of the same file (three times).
//
// A context made by With carries a memo. Answers about the work tree
// (Tree) hold until Forget, which whoever runs something that may write
// the work tree calls (a gate's command); answers about objects named by
// their id (Object: a file at a commit id) never change and are kept.
// Without With, nothing is kept: every call reads anew.
package gitmemo

import (
	"context"
	"sync"
)

type ctxKey struct{}

type memo struct {
	mu     sync.Mutex
	gen    int // Forget's count: an answer read across a Forget is not kept
	tree   map[string]any
	object map[string]any
}

// With is ctx with a memo; a ctx that has one keeps it, so the checks of
// one evaluation share one memo however they derive their contexts.
func With(ctx context.Context) context.Context {
	if _, ok := ctx.Value(ctxKey{}).(*memo); ok {
		return ctx
	}
	return context.WithValue(ctx, ctxKey{}, &memo{tree: map[string]any{}, object: map[string]any{}})
}

// Forget drops ctx's answers about the work tree: call it after running
// anything that may have changed files, the index or HEAD.
func Forget(ctx context.Context) {
	if m, ok := ctx.Value(ctxKey{}).(*memo); ok {
		m.mu.Lock()
		clear(m.tree)
		m.gen++
		m.mu.Unlock()
	}
}

// Tree is read's answer for key, read once until Forget. key must name
// everything the answer depends on besides the work tree (the
// repository, the revisions). Errors are not kept.
func Tree[T any](ctx context.Context, key string, read func() (T, error)) (T, error) {
	return get(ctx, key, false, read)
}

// Object is read's answer for key, read once per memo: for answers that
// depend only on objects named by their id, which never change.
func Object[T any](ctx context.Context, key string, read func() (T, error)) (T, error) {
	return get(ctx, key, true, read)
}

func get[T any](ctx context.Context, key string, object bool, read func() (T, error)) (T, error) {
	m, ok := ctx.Value(ctxKey{}).(*memo)
	if !ok {
		return read()
	}
	store := m.tree
	if object {
		store = m.object
	}
	m.mu.Lock()
	v, hit := store[key]
	gen := m.gen
	m.mu.Unlock()
	if hit {
		return v.(T), nil
	}
	v2, err := read()
	if err != nil {
		return v2, err
	}
	m.mu.Lock()
	if object || m.gen == gen {
		store[key] = v2
	}
	m.mu.Unlock()
	return v2, nil
}
