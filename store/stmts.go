package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// stmtCache keeps one pool's prepared statements by query text. Parsing
// and planning a statement in SQLite costs more than running the small
// queries of a tool call (it was a quarter of validate_gate's CPU), so the
// fixed queries are prepared once per connection: database/sql prepares a
// pool statement lazily on each connection it runs on, and Tx.StmtContext
// reuses the writer connection's copy inside Update.
//
// Only constant query texts go through the cache, so it stays as small as
// the source; queries built from filters are prepared per call.
type stmtCache struct {
	pool *sql.DB

	mu      sync.Mutex
	m       map[string]*sql.Stmt
	pending map[string]bool // wanted inside Update, prepared after it
	closed  bool
}

func newStmtCache(pool *sql.DB) *stmtCache {
	return &stmtCache{pool: pool, m: map[string]*sql.Stmt{}, pending: map[string]bool{}}
}

func (c *stmtCache) lookup(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[query]
}

// prepare prepares query on the pool and keeps it. It returns nil when the
// statement cannot be prepared; the caller's unprepared call then reports
// the error with its own context.
func (c *stmtCache) prepare(ctx context.Context, query string) *sql.Stmt {
	s, err := c.pool.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[query]; ok || c.closed { // another goroutine won, or Close ran
		s.Close()
		return old
	}
	c.m[query] = s
	return s
}

// want records a query missed inside a transaction. The writer pool has one
// connection, which the transaction holds, so preparing on the pool there
// would wait forever; Update prepares these once the connection is free.
func (c *stmtCache) want(query string) {
	c.mu.Lock()
	c.pending[query] = true
	c.mu.Unlock()
}

// preparePending prepares what transactions missed.
func (c *stmtCache) preparePending(ctx context.Context) {
	c.mu.Lock()
	if len(c.pending) == 0 {
		c.mu.Unlock()
		return
	}
	var qs []string
	for q := range c.pending {
		if _, ok := c.m[q]; !ok {
			qs = append(qs, q)
		}
	}
	clear(c.pending)
	c.mu.Unlock()
	for _, q := range qs {
		c.prepare(ctx, q)
	}
}

func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	var errs []error
	for q, s := range c.m {
		errs = append(errs, s.Close())
		delete(c.m, q)
	}
	return errors.Join(errs...)
}

// stmt returns the prepared statement of a constant query: the pool's, or
// inside Update the writer's bound to the transaction. It returns nil when
// there is none to use (a miss inside a transaction, or a failed prepare);
// the caller then runs the query unprepared.
func (r reader) stmt(ctx context.Context, query string) *sql.Stmt {
	if r.stmts == nil {
		return nil
	}
	s := r.stmts.lookup(query)
	switch {
	case s == nil && r.tx != nil:
		r.stmts.want(query)
		return nil
	case s == nil:
		if s = r.stmts.prepare(ctx, query); s == nil {
			return nil
		}
	}
	if r.tx != nil {
		return r.tx.StmtContext(ctx, s)
	}
	return s
}

// query, queryRow and exec run a constant query through the statement
// cache. Queries built at run time use r.q directly.
func (r reader) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := r.stmt(ctx, query); s != nil {
		r.counted()
		return s.QueryContext(ctx, args...)
	}
	return r.q.QueryContext(ctx, query, args...)
}

func (r reader) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if s := r.stmt(ctx, query); s != nil {
		r.counted()
		return s.QueryRowContext(ctx, args...)
	}
	return r.q.QueryRowContext(ctx, query, args...)
}

func (r reader) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s := r.stmt(ctx, query); s != nil {
		r.counted()
		return s.ExecContext(ctx, args...)
	}
	return r.q.ExecContext(ctx, query, args...)
}

// counted counts a statement run from the cache (r.q counts the others).
func (r reader) counted() {
	if r.n != nil {
		r.n.Add(1)
	}
}
