package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// ErrReadOnly is returned by Update on a database this process may only read.
var ErrReadOnly = errors.New("the database is read-only for this user")

// readOnlyFallback reports whether an open-for-writing error means the
// file exists and can only be read, so read commands can still work.
func readOnlyFallback(abs string, err error) bool {
	if !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.EROFS) {
		return false
	}
	f, rerr := os.Open(abs)
	if rerr != nil {
		return false
	}
	f.Close()
	return true
}

// openReadOnly opens an existing database for reading only (list, show,
// status, the dashboard): no migrations, no journal-mode switch. When SQLite
// cannot set up its WAL index beside a read-only file it is opened immutable,
// which reads the main file as is (a transaction still in the -wal file is
// not seen).
func openReadOnly(ctx context.Context, abs string) (*DB, error) {
	base := "file:" + escapeURIPath(abs) + "?mode=ro&_pragma=busy_timeout(5000)&_pragma=query_only(1)"
	var read *sql.DB
	var err error
	for _, dsn := range []string{base, base + "&immutable=1"} {
		read, err = sql.Open("sqlite", dsn)
		if err != nil {
			return nil, err
		}
		if err = connect(ctx, read); err == nil {
			break
		}
		read.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("open read-only: %w", err)
	}
	v, err := userVersion(ctx, read)
	if err == nil {
		var ms []migration
		if ms, err = loadMigrations(migrationFS); err == nil {
			if err = checkVersion(v, len(ms)); err == nil && v < len(ms) {
				err = fmt.Errorf("schema version %d needs migrating to %d, and the file is read-only for this user: run sessiongate once as its owner", v, len(ms))
			}
		}
	}
	if err != nil {
		read.Close()
		return nil, err
	}
	return &DB{reader: reader{q: read, stmts: newStmtCache(read)}, path: abs, read: read, readOnly: true, Now: time.Now}, nil
}
