// Package store persists sessiongate's sessions in SQLite (modernc.org/sqlite,
// no cgo) and implements session.Store.
//
// Runtime choices, and why:
//   - WAL journal: readers never block the writer and the writer never blocks
//     readers, so the dashboard can browse while hooks record.
//   - busy_timeout(5000) is the first pragma of every connection, before
//     journal_mode(WAL): switching to WAL, and every later write, needs a lock
//     another process (a hook in a second worktree) may hold, and without a
//     busy timeout that fails at once with "database is locked".
//   - foreign_keys(ON), so deleting a session cascades to its rows;
//     synchronous(NORMAL), which is durable across application crashes in WAL
//     mode and skips an fsync per commit.
//   - One writer connection (SetMaxOpenConns(1)): goroutines of this process
//     queue in database/sql instead of contending on SQLite's lock. A separate
//     query_only pool serves reads outside Update. A gate call's write queues
//     in UpdateGrouped instead, which commits the writes that queued meanwhile
//     in one transaction (group.go).
//   - Every write transaction is BEGIN IMMEDIATE (DSN _txlock=immediate): it
//     takes the write lock up front, so a read-modify-write (AppendEvent's
//     max(seq)+1) never fails half-way with SQLITE_BUSY when it upgrades from
//     reader to writer, which busy_timeout cannot retry.
//
// Times are stored as INTEGER unix nanoseconds, 0 for the zero time, and read
// back in UTC. The schema lives in migrations/NNNN_name.sql, applied in order
// under BEGIN IMMEDIATE and tracked by PRAGMA user_version.
//
// sessions.violation_count, kept by AddViolation, makes the "has violations"
// filter a column test with a partial index instead of a join. Lists are
// keyset-paged on (created_at, id), newest first; From is inclusive and To
// exclusive; Query matches a substring of the objective, case-insensitive for
// ASCII letters (SQLite's LIKE).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sessiongate/sessiongate/session"

	"modernc.org/sqlite" // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

// pragmas every connection runs, busy_timeout first. modernc.org/sqlite runs
// _pragma values busy_timeout first and the rest sorted by name, whatever the
// DSN order; this order reads the same way.
const pragmas = "_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"

// DB is a session store on one SQLite file. It is safe for concurrent use by
// several goroutines and, through SQLite's locks, by several processes.
type DB struct {
	reader // reads outside Update, on the read pool

	path        string
	writer      *sql.DB // one connection; BEGIN IMMEDIATE
	read        *sql.DB
	writerStmts *stmtCache    // prepared on the writer, used inside Update
	readOnly    bool          // opened by a user who may only read: no writer
	single      bool          // read is writer (OpenSingle)
	statements  *atomic.Int64 // SQL statements run (Statements)
	group       writeGroup    // UpdateGrouped's queue
	changes     changeStamp   // ChangeStamp's state

	// Now fills zero CreatedAt times; tests may replace it.
	Now func() time.Time
}

var (
	_ session.Store                = (*DB)(nil)
	_ session.GateFileReader       = (*DB)(nil)
	_ session.SessionTrustedReader = (*DB)(nil)
	_ session.GroupUpdater         = (*DB)(nil)
	_ session.StoreStamper         = (*DB)(nil)
	_ session.Writer               = (*Tx)(nil)
)

// Open opens the store at path, creating its folder (0700) and file (0600)
// on first use, and migrates the schema to the version this binary knows.
func Open(ctx context.Context, path string) (*DB, error) {
	return open(ctx, path, false)
}

// OpenSingle is Open with one connection for reads and writes, for a
// short-lived process that reads a little and writes once (a git hook):
// each SQLite connection parses the schema when it opens, and a hook
// would open two. fn of Update must then read only through its Writer (a
// read through the DB would wait for the connection Update holds).
func OpenSingle(ctx context.Context, path string) (*DB, error) {
	return open(ctx, path, true)
}

func open(ctx context.Context, path string, single bool) (_ *DB, err error) {
	if path == "" {
		return nil, errors.New("open store: empty path")
	}
	if strings.HasPrefix(path, "postgres://") || strings.HasPrefix(path, "postgresql://") {
		// Only the sessiongate command itself opens PostgreSQL; git hooks
		// and agent hooks record locally and never touch the network.
		return nil, fmt.Errorf("open store %s: that is a PostgreSQL URL, and this runs on the local SQLite file only (git hooks and agent hooks never touch the network): leave SESSIONGATE_DB / --db unset or naming a file here", redactURL(path))
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			err = fmt.Errorf("open store %s: %w", abs, diskFull(err, abs))
		}
	}()
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("create folder: %w", err)
	}
	// SQLite would create the file 0644; create it first so it is 0600 (the
	// -wal and -shm files copy its mode). An existing file keeps its mode.
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		if readOnlyFallback(abs, err) {
			return openReadOnly(ctx, abs)
		}
		return nil, fmt.Errorf("open file: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("open file: %w", err)
	}

	base := "file:" + escapeURIPath(abs) + "?" + pragmas
	writer, err := sql.Open("sqlite", base+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	read := writer
	if !single {
		if read, err = sql.Open("sqlite", base+"&_pragma=query_only(1)"); err != nil {
			writer.Close()
			return nil, err
		}
		n := max(4, runtime.NumCPU())
		read.SetMaxOpenConns(n)
		read.SetMaxIdleConns(n)
	}

	n := new(atomic.Int64)
	db := &DB{reader: reader{q: counted{read, n}, stmts: newStmtCache(read), n: n}, path: abs, writer: writer, read: read,
		writerStmts: newStmtCache(writer), Now: time.Now, single: single, statements: n}
	if single {
		// One connection: a statement the hook prepared to read serves its
		// write transaction as well.
		db.writerStmts = db.stmts
	}
	pools := []*sql.DB{writer, read}
	if single {
		pools = pools[:1]
	}
	for _, pool := range pools {
		if err := connect(ctx, pool); err != nil {
			db.Close()
			return nil, err
		}
	}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// connect opens a pool's first connection, which runs the DSN pragmas. On a
// new file, journal_mode(WAL) upgrades a read lock to a write lock, and
// SQLite refuses that at once with SQLITE_BUSY, without the busy handler (it
// could deadlock), when another process is switching the same new file. Once
// the file is in WAL mode the pragma is a no-op, so retrying on busy_timeout's
// budget is enough.
func connect(ctx context.Context, pool *sql.DB) error {
	deadline := time.Now().Add(busyTimeout)
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		err := pool.PingContext(ctx)
		if err == nil {
			return nil
		}
		if !isBusy(err) || time.Now().After(deadline) {
			return fmt.Errorf("connect: %w", err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("connect: %w", ctx.Err())
		case <-time.After(delay):
		}
	}
}

// busyTimeout is the busy_timeout pragma's value.
const busyTimeout = 5 * time.Second

func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// escapeURIPath escapes the characters that end or escape the path part of
// an SQLite file: URI.
func escapeURIPath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}

// redactURL is a URL without its password, for messages.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a PostgreSQL URL)"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// Path is the absolute path of the database file.
func (db *DB) Path() string { return db.path }

// Close closes the prepared statements and both connection pools.
func (db *DB) Close() error {
	if db.readOnly {
		return errors.Join(db.stmts.close(), db.read.Close())
	}
	if db.single { // writerStmts is stmts
		return errors.Join(db.stmts.close(), db.writer.Close())
	}
	return errors.Join(db.stmts.close(), db.writerStmts.close(), db.changes.close(), db.read.Close(), db.writer.Close())
}

// Optimize refreshes the query planner's statistics of the tables that
// have none or have grown 25-fold since the last (PRAGMA optimize=0x10002,
// what SQLite recommends for a long-lived connection, run when opened and
// then now and again), each ANALYZE bounded by analysis_limit so it reads
// a sample, not a million rows. Statistics let SQLite (built with STAT4)
// plan with the data's skew; TestQueryPlansAtScale checks the plans with
// and without them. A read-only store has nothing to write them to.
func (db *DB) Optimize(ctx context.Context) error {
	if db.readOnly {
		return nil
	}
	conn, err := db.writer.Conn(ctx)
	if err != nil {
		return fmt.Errorf("optimize %s: %w", db.path, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA analysis_limit = 1000`); err != nil {
		return fmt.Errorf("optimize %s: analysis limit: %w", db.path, err)
	}
	defer db.changes.wrote() // ANALYZE writes (statistics only; counted all the same)
	if _, err := conn.ExecContext(ctx, `PRAGMA optimize = 0x10002`); err != nil {
		return fmt.Errorf("optimize %s: %w", db.path, err)
	}
	return nil
}

// ReadOnly reports whether the store was opened for reading only.
func (db *DB) ReadOnly() bool { return db.readOnly }

// Update runs fn in one BEGIN IMMEDIATE transaction on the writer
// connection. fn's Writer reads through the same transaction, so it sees its
// own writes. An error or a panic from fn rolls everything back; fn's error
// is returned as is. fn must not call db.Update (the one writer connection is
// taken) and must not keep w after it returns.
func (db *DB) Update(ctx context.Context, fn func(w session.Writer) error) (err error) {
	if db.readOnly {
		return fmt.Errorf("%w: %s can be read but nothing can be recorded; fix the permissions of the file and its folder", ErrReadOnly, db.path)
	}
	// Statements this transaction found unprepared are prepared once the
	// writer connection is free again; not in a hook's one-shot process,
	// which would prepare them for nothing.
	if !db.single {
		defer db.writerStmts.preparePending(ctx)
	}
	// Counted once the transaction is over (deferred first, runs last),
	// committed or not: ChangeStamp must move after the commit is visible.
	defer db.changes.wrote()
	sqlTx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin write transaction: %w", err)
	}
	committed := false
	defer func() {
		if !committed {
			_ = sqlTx.Rollback()
		}
	}()
	db.count(1) // BEGIN IMMEDIATE
	if err := fn(&Tx{reader: reader{q: counted{sqlTx, db.statements}, stmts: db.writerStmts, tx: sqlTx, rows: map[string]session.Session{}, n: db.statements}, now: db.Now().UTC()}); err != nil {
		return diskFull(err, db.path)
	}
	db.count(1) // COMMIT
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("commit write transaction: %w", diskFull(err, db.path))
	}
	committed = true
	return nil
}

// Tx is the session.Writer of one Update. Its reads see its own writes.
type Tx struct {
	reader           // reads through the transaction
	now    time.Time // fills zero CreatedAt times, one value per transaction
}

func (tx *Tx) stamp(t time.Time) time.Time {
	if t.IsZero() {
		return tx.now
	}
	return t
}

// querier is what *sql.DB and *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// reader implements session.Reader over a pool or a transaction.
type reader struct {
	q     querier
	stmts *stmtCache // the prepared statements of q's pool
	tx    *sql.Tx    // inside Update: q, to which cached statements are bound
	// inside Update: session rows as the transaction last read or wrote
	// them, so UpdateSession sets only the columns that changed
	rows map[string]session.Session
	n    *atomic.Int64 // counts the statements run through the cache (counted counts the rest)
}

// nanos and fromNanos convert times to the stored form: unix nanoseconds,
// 0 for the zero time.
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// notFound wraps session.ErrNotFound with what was not found, and passes
// other errors through wrapped with the step.
func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, session.ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// placeholders returns "?, ?, ?" for n values.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// The hooks' statements with an ORDER BY write their bound values (LIMIT's
// too) as +? rather than ?. SQLite compiles such a statement a second time
// at its first step after binding, to plan with the values; +? (a no-op on
// the value, with no affinity, like ?) gets the same plan compiled once.
// Hooks are short processes that run each statement once, so they paid
// every such statement twice. TestHookStatementsCompileOnce checks the
// hooks' ones. Only where the plan cannot depend on the values (an index
// searched by a key, or INDEXED BY): +? hides them from the planner, which
// then plans with average selectivities, and the dashboard's statements
// bind bare ? (see sessionWhere; TestQueryPlansAtScale).

// plusPlaceholders returns "+?, +?, +?" for n values (see above).
func plusPlaceholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("+?, ", n), ", ")
}

// likeEscaper escapes LIKE wildcards for ESCAPE '\'.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// Statements is how many SQL statements this DB has run (reads, writes,
// and each write transaction's BEGIN and COMMIT) since it was opened. A
// count is deterministic where a timing is not: tests assert a warm tool
// call's budget with it, so a change that adds a query to every gate call
// fails CI instead of waiting for a profile (docs/benchmarks.md).
func (db *DB) Statements() int64 {
	if db.statements == nil {
		return 0
	}
	return db.statements.Load()
}

func (db *DB) count(k int64) {
	if db.statements != nil {
		db.statements.Add(k)
	}
}

// counted is a querier that counts what runs through it.
type counted struct {
	q querier
	n *atomic.Int64
}

func (c counted) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	c.n.Add(1)
	return c.q.ExecContext(ctx, query, args...)
}

func (c counted) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	c.n.Add(1)
	return c.q.QueryContext(ctx, query, args...)
}

func (c counted) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	c.n.Add(1)
	return c.q.QueryRowContext(ctx, query, args...)
}
