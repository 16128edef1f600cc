package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
)

// ChangeStamp implements session.StoreStamper: a stamp that moves whenever
// anything in the database may have changed, except this DB's own gate
// repeats (RepeatGate), whose effect on the session row its caller knows.
// A long-lived engine keeps the session a validate_gate call reads under
// it (issue 29: the session read was a fifth of a warm call), so it must
// follow every writer:
//
//   - another connection (another process: a hook, the CLI, a sqlite3
//     shell, another DB handle of this process): SQLite's own PRAGMA
//     data_version, read on the writer connection, moves when any other
//     connection commits and never for that connection's own writes;
//   - this DB's own writes on the writer connection (Update,
//     UpdateGrouped, Optimize): counted after each transaction ends;
//   - the writer connection replaced (database/sql drops a bad one): a new
//     connection counts data_version from its own start, so an epoch moves
//     with the driver connection's identity.
//
// The reader pool never writes. "" when there is nothing to stamp with: a
// read-only store or a hook's one-shot process (no later call to serve).
// One statement.
func (db *DB) ChangeStamp(ctx context.Context) (string, error) {
	if db.readOnly || db.single {
		return "", nil
	}
	conn, err := db.writer.Conn(ctx)
	if err != nil {
		return "", fmt.Errorf("change stamp: take the writer connection: %w", err)
	}
	defer conn.Close()
	var epoch uint64
	var version int64
	db.count(1)
	if err := conn.Raw(func(dc any) error {
		// The driver's own statement, prepared once per connection:
		// database/sql would prepare it on every call (SQLite's prepare
		// takes the schema's read lock: a third of the stamp's cost).
		var stmt driver.Stmt
		var err error
		epoch, stmt, err = db.changes.forConn(ctx, dc)
		if err != nil {
			return err
		}
		q, ok := stmt.(driver.StmtQueryContext)
		if !ok {
			return fmt.Errorf("the driver's statement cannot be queried with a context")
		}
		// Not cancelled with the call: the driver watches a cancellable
		// context with a goroutine per statement (a tenth of the stamp);
		// this one reads a counter, bounded by the busy timeout, and the
		// wait for the writer connection above still ends with ctx.
		rows, err := q.QueryContext(context.WithoutCancel(ctx), nil)
		if err != nil {
			return err
		}
		defer rows.Close()
		v := make([]driver.Value, 1)
		if err := rows.Next(v); err != nil {
			return err
		}
		version, ok = v[0].(int64)
		if !ok {
			return fmt.Errorf("data_version is %T", v[0])
		}
		return nil
	}); err != nil {
		return "", fmt.Errorf("change stamp: data_version: %w", err)
	}
	// Read after data_version, as the writer connection is still held: a
	// write of ours is counted after its commit; one counted after this
	// read moves the next stamp, one counted before it is in what the
	// caller reads next.
	writes := db.changes.writes.Load()
	b := make([]byte, 0, 48) // strconv, not fmt: a tenth of the stamp's cost went to Sprintf
	b = strconv.AppendUint(b, epoch, 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, version, 10)
	b = append(b, ':')
	b = strconv.AppendUint(b, writes, 10)
	return string(b), nil
}

// OwnWrites is the count of this DB's own write transactions ended, as
// ChangeStamp includes it: an atomic load, no statement. A caller that reads
// it before a stamp and again later knows whether this DB wrote between
// (session/gaterepeat.go holds a repeat back only then).
func (db *DB) OwnWrites() uint64 { return db.changes.writes.Load() }

// changeStamp is ChangeStamp's state.
type changeStamp struct {
	writes atomic.Uint64 // this DB's own write transactions ended

	mu    sync.Mutex
	conn  any         // the writer's driver connection last stamped (kept, so its address is never reused)
	stmt  driver.Stmt // PRAGMA data_version prepared on conn
	epoch uint64      // moves with conn
}

func (c *changeStamp) wrote() { c.writes.Add(1) }

// forConn returns the epoch of the driver connection dc and the stamp's
// statement prepared on it.
func (c *changeStamp) forConn(ctx context.Context, dc any) (uint64, driver.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if dc != c.conn || c.stmt == nil {
		p, ok := dc.(driver.ConnPrepareContext)
		if !ok {
			return 0, nil, fmt.Errorf("the driver's connection cannot prepare with a context")
		}
		stmt, err := p.PrepareContext(ctx, `PRAGMA data_version`)
		if err != nil {
			return 0, nil, err
		}
		// The old connection is gone (database/sql replaced it), and its
		// statement with it.
		c.conn, c.stmt = dc, stmt
		c.epoch++
	}
	return c.epoch, c.stmt, nil
}

// close finalizes the stamp's statement (a connection with one left open
// would outlive its Close).
func (c *changeStamp) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stmt == nil {
		return nil
	}
	err := c.stmt.Close()
	c.conn, c.stmt = nil, nil
	return err
}
