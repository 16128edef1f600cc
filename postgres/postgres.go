// Package postgres is sessiongate's session store on PostgreSQL (pgx/v5),
// for a team database shared by many people's machines and the team
// server. It implements session.Store and the same extra methods as the
// SQLite store (agent bindings, the dashboard's aggregates); the two are
// held to one conformance suite, store/storetest.
//
// Choices, and why:
//   - One write transaction at a time per database, like SQLite's BEGIN
//     IMMEDIATE: Update begins a READ COMMITTED transaction and first takes
//     a transaction-scoped advisory lock (pg_advisory_xact_lock), which the
//     server releases at commit, rollback or disconnect. Read-modify-write
//     (AppendEvent's max(seq)+1, ActiveSession then CreateSession, a
//     session's state machine) is then safe across processes. SERIALIZABLE
//     with retries was rejected: a retry re-runs fn, and the engine's fn
//     may have run a gate's command or told an agent something; fn must run
//     exactly once. Writes are short (a tool call's few rows), so one lock
//     costs little; readers never wait for it.
//   - Writers queue in this process first (one Update at a time, like the
//     SQLite store's single writer connection) and run on a pool of their
//     own, so goroutines waiting for the lock never hold the connections
//     that a transaction's function needs for reads outside it.
//   - Times are BIGINT unix nanoseconds, 0 for the zero time, as in SQLite.
//   - The schema is migrations/NNNN_name.sql, applied in order inside one
//     transaction under another advisory lock and tracked in the
//     schema_version table (PostgreSQL has transactional DDL, so a failed
//     migration leaves nothing behind).
//   - Query (objective search) is ILIKE: case-insensitive beyond ASCII,
//     where SQLite's LIKE folds ASCII only.
//   - pgx caches each query's prepared statement per connection, so no
//     statement cache of our own.
//   - Errors never carry the password: Open names the setting and the URL
//     with its password replaced by "xxxxx".
package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sessiongate/sessiongate/session"
)

// Advisory lock keys (arbitrary, fixed): one for writers, one for migrations.
const (
	writeLockKey   int64 = 0x5e55_9a7e_0001
	migrateLockKey int64 = 0x5e55_9a7e_0002
	foldLockKey    int64 = 0x5e55_9a7e_0003 // folding dashboard count deltas
	teamFoldKey    int64 = 0x5e55_9a7e_0004 // folding team_day_deltas
)

// IsURL reports whether a --db / SESSIONGATE_DB value names a PostgreSQL
// server rather than an SQLite file.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Redact returns a connection URL with its password replaced by "xxxxx"
// (also a password=... query parameter), for messages.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable PostgreSQL URL)"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// DB is a session store on one PostgreSQL database. It is safe for
// concurrent use by goroutines and, through the advisory lock, processes.
type DB struct {
	reader // reads outside Update, on the pool

	pool    *pgxpool.Pool // reads outside Update
	writer  *pgxpool.Pool // Update's transactions
	wsem    chan struct{} // one Update of this process at a time
	display string        // the URL without its password
	host    string        // the server, for messages (host:port or socket folder)

	// Now fills zero CreatedAt times; tests may replace it.
	Now func() time.Time
}

var (
	_ session.Store              = (*DB)(nil)
	_ session.Writer             = (*Tx)(nil)
	_ session.AgentReader        = reader{}
	_ session.SessionAgentReader = reader{}
	_ session.AgentWriter        = (*Tx)(nil)
)

// Open connects to the database at a postgres:// URL (libpq's forms and
// parameters, e.g. postgres://user:pw@host/db or
// postgres:///db?host=/run/postgresql), checks that it answers, and
// migrates the schema to the version this binary knows.
func Open(ctx context.Context, rawURL string) (_ *DB, err error) {
	display := Redact(rawURL)
	defer func() {
		if err != nil {
			err = fmt.Errorf("open PostgreSQL store %s: %w", display, &scrubbed{msg: scrub(err, rawURL), err: err})
		}
	}()
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		return nil, err
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	wcfg := cfg.Copy()
	wcfg.MaxConns = 2 // one transaction at a time; a spare for a connection being replaced
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	host := serverHost(&cfg.ConnConfig.Config)
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect: %w", explain(err, host))
	}
	writer, err := pgxpool.NewWithConfig(ctx, wcfg)
	if err != nil {
		pool.Close()
		return nil, err
	}
	db := &DB{reader: reader{q: explainQuerier{q: pool, host: host}}, pool: pool, writer: writer, wsem: make(chan struct{}, 1), display: display, host: host, Now: time.Now}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		var se *ServerError
		if e := explain(err, host); errors.As(e, &se) {
			return nil, fmt.Errorf("migrate the schema: %w", e)
		}
		return nil, err
	}
	return db, nil
}

// scrub returns err's text with the URL's password removed, in case a
// driver message ever quotes it.
func scrub(err error, rawURL string) string {
	msg := err.Error()
	pw := ""
	if u, perr := url.Parse(rawURL); perr == nil {
		if p, ok := u.User.Password(); ok {
			pw = p
		} else {
			pw = u.Query().Get("password")
		}
	}
	if pw != "" {
		msg = strings.ReplaceAll(msg, pw, "xxxxx")
	}
	return msg
}

// URL is the connection URL without its password.
func (db *DB) URL() string { return db.display }

// Close closes the connection pools.
func (db *DB) Close() error {
	db.pool.Close()
	db.writer.Close()
	return nil
}

// Update runs fn in one transaction holding the write lock. fn's Writer
// reads through the same transaction, so it sees its own writes. An error
// or a panic from fn rolls everything back; fn's error is returned as is,
// unless the server went away, which is said. fn must not call db.Update
// (it would wait for the lock its own transaction holds) and must not keep
// w after it returns.
func (db *DB) Update(ctx context.Context, fn func(w session.Writer) error) (err error) {
	select {
	case db.wsem <- struct{}{}:
		defer func() { <-db.wsem }()
	case <-ctx.Done():
		return fmt.Errorf("begin write transaction on %s: %w", db.display, ctx.Err())
	}
	pgTx, err := db.writer.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return fmt.Errorf("begin write transaction on %s: %w", db.display, explain(err, db.host))
	}
	committed := false
	defer func() {
		if !committed {
			// The caller's context may be done; the rollback still runs.
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			_ = pgTx.Rollback(rctx)
			cancel()
		}
	}()
	if _, err := pgTx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, writeLockKey); err != nil {
		return db.lost(pgTx, fmt.Errorf("begin write transaction on %s: take the write lock: %w", db.display, explain(err, db.host)))
	}
	if err := fn(&Tx{reader: reader{q: explainQuerier{q: pgTx, host: db.host}}, now: db.Now().UTC()}); err != nil {
		return db.lost(pgTx, err)
	}
	if err := pgTx.Commit(ctx); err != nil {
		if pgTx.Conn().IsClosed() {
			return fmt.Errorf("commit write transaction: the connection to %s was lost while committing, so the server may or may not have recorded it: %w", db.display, explain(err, db.host))
		}
		return fmt.Errorf("commit write transaction on %s: %w", db.display, explain(err, db.host))
	}
	committed = true
	return nil
}

// ErrConnectionLost marks an Update whose connection to the server broke
// before commit; the server rolled the transaction back.
var ErrConnectionLost = errors.New("the connection to the PostgreSQL server was lost (it shut down, restarted or the network broke); nothing of this transaction was recorded")

func (db *DB) lost(pgTx pgx.Tx, err error) error {
	if pgTx.Conn().IsClosed() || isConnectionError(err) {
		return fmt.Errorf("%w (%s): %w", ErrConnectionLost, db.display, explain(err, db.host))
	}
	return err
}

// isConnectionError reports whether err means the server went away:
// SQLSTATE class 08 (connection exception) or 57P01-57P03 (shutdown).
func isConnectionError(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	return false
}

// Tx is the session.Writer of one Update. Its reads see its own writes.
type Tx struct {
	reader
	now time.Time // fills zero CreatedAt times, one value per transaction
}

func (tx *Tx) stamp(t time.Time) time.Time {
	if t.IsZero() {
		return tx.now
	}
	return t
}

// querier is what *pgxpool.Pool and pgx.Tx have in common.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// reader implements session.Reader over the pool or a transaction.
type reader struct {
	q querier
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
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, session.ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// affectedOne maps "no row changed" to session.ErrNotFound.
func affectedOne(tag pgconn.CommandTag, err error, what string) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%s: %w", what, session.ErrNotFound)
	}
	return nil
}

// args numbers a query's parameters as they are added: a.add(v) is "$n".
type args []any

func (a *args) add(v any) string {
	*a = append(*a, v)
	return fmt.Sprintf("$%d", len(*a))
}

// DefaultLimit is the page size of lists when the filter's Limit is 0 or
// less (the SQLite store's store.DefaultLimit).
const DefaultLimit = 50

func limitOr(n int) int {
	if n <= 0 {
		return DefaultLimit
	}
	return n
}

// likeEscaper escapes LIKE wildcards for ESCAPE '\'.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
