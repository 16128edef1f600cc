package store

import (
	"context"
	"fmt"
	"sync"

	"github.com/sessiongate/sessiongate/session"
)

// Group commit for the short writes every gate call makes.
//
// Why: a warm validate_gate's write (touch, events, phase result) is a
// whole transaction on the one writer connection, and its BEGIN IMMEDIATE
// and COMMIT were a seventh of the call's CPU (profile of 2026-11-29).
// Calls from several clients queued one by one behind that connection, so
// over HTTP calls/s did not grow with clients. UpdateGrouped lets the
// writes that queue while a transaction runs share the next one: one BEGIN
// and one COMMIT for all of them, each caller still returning only once
// its write is committed. Nothing waits for company: a call that finds the
// writer free starts at once.

// groupReq is one caller's write waiting for a transaction.
type groupReq struct {
	ctx  context.Context
	fn   func(w session.Writer) error
	done chan groupResult // buffered: the leader never blocks on it
}

// groupResult is what a waiting caller receives: its write's outcome, or
// lead (it takes the writer and runs the writes queued so far).
type groupResult struct {
	err   error
	panic any
	lead  bool
}

// writeGroup queues the callers of UpdateGrouped.
type writeGroup struct {
	mu      sync.Mutex
	pending []*groupReq
	running bool // a leader holds the writer
}

// UpdateGrouped is Update for a write whose fn has no effect outside w,
// run in one transaction with the UpdateGrouped writes of other goroutines
// that queued meanwhile (session.GroupUpdater). fn may run more than once:
// when another caller's fn in the same transaction fails, the transaction
// rolls back, that caller gets its error, and the others run again in a
// transaction of their own. fn's error or panic reaches its own caller
// only.
func (db *DB) UpdateGrouped(ctx context.Context, fn func(w session.Writer) error) error {
	if db.readOnly || db.single {
		return db.Update(ctx, fn) // a hook's one-shot process has no one to group with
	}
	r := &groupReq{ctx: ctx, fn: fn, done: make(chan groupResult, 1)}
	g := &db.group
	g.mu.Lock()
	g.pending = append(g.pending, r)
	if !g.running {
		g.running = true
		g.mu.Unlock()
		return db.lead(r)
	}
	g.mu.Unlock()
	// Waits whatever ctx says: the leader may be running fn already. fn's
	// own statements run under ctx, so a cancel ends them.
	res := <-r.done
	if res.lead {
		return db.lead(r)
	}
	return res.outcome()
}

func (res groupResult) outcome() error {
	if res.panic != nil {
		panic(res.panic)
	}
	return res.err
}

// lead runs the writes queued so far (r's among them) in one transaction,
// then hands the writer to the next waiting caller, if any, and returns
// r's outcome.
func (db *DB) lead(r *groupReq) error {
	g := &db.group
	g.mu.Lock()
	batch := g.pending
	g.pending = nil
	g.mu.Unlock()

	db.runGroup(batch)

	g.mu.Lock()
	if len(g.pending) > 0 {
		next := g.pending[0]
		g.mu.Unlock()
		next.done <- groupResult{lead: true}
	} else {
		g.running = false
		g.mu.Unlock()
	}
	return (<-r.done).outcome()
}

// runGroup commits batch's writes in one transaction and answers each
// caller. When one fails, the transaction rolls back, it gets its error,
// and the others run again, one transaction each.
func (db *DB) runGroup(batch []*groupReq) {
	if len(batch) == 1 {
		r := batch[0]
		r.done <- call(func() error { return db.Update(r.ctx, r.fn) })
		return
	}
	failed := -1
	var failure groupResult
	// The transaction's own BEGIN and COMMIT outlive any one caller's
	// cancel: each fn's statements run under its own ctx.
	err := db.Update(context.WithoutCancel(batch[0].ctx), func(w session.Writer) error {
		for i, r := range batch {
			if res := call(func() error { return r.fn(w) }); res.err != nil || res.panic != nil {
				failed, failure = i, res
				return fmt.Errorf("grouped write %d of %d: %w", i+1, len(batch), errGroupFailed)
			}
		}
		return nil
	})
	switch {
	case err == nil:
		for _, r := range batch {
			r.done <- groupResult{}
		}
	case failed >= 0:
		for i, r := range batch {
			if i == failed {
				r.done <- failure
				continue
			}
			r.done <- call(func() error { return db.Update(r.ctx, r.fn) })
		}
	default: // BEGIN or COMMIT failed: every write is undone
		for _, r := range batch {
			r.done <- groupResult{err: err}
		}
	}
}

// errGroupFailed is the transaction's error when one of its writes failed
// (that write's caller gets its own error instead).
var errGroupFailed = fmt.Errorf("a grouped write failed")

// call runs f, catching a panic as a result for f's caller.
func call(f func() error) (res groupResult) {
	defer func() {
		if v := recover(); v != nil {
			res = groupResult{panic: v}
		}
	}()
	return groupResult{err: f()}
}
