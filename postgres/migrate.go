package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads migrations/NNNN_name.sql in version order and checks
// that the versions run 1, 2, 3... without gaps or duplicates.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, name := range names {
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must be NNNN_description.sql", name)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: base, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: want version %d (versions must run 1, 2, 3... without gaps)", m.name, i+1)
		}
	}
	return ms, nil
}

// migrate brings the schema to the newest embedded version: every pending
// migration and the version bump in one transaction, under an advisory
// lock so two processes opening a fresh database apply each exactly once.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := loadMigrations(migrationFS)
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	// Fast path for every open after the first: one read, no lock.
	if v, err := schemaVersion(ctx, db.pool); err == nil {
		if err := checkVersion(v, len(ms)); err != nil || v == len(ms) {
			return err
		}
	} else if !isUndefinedTable(err) {
		return err
	}
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("migrate: begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLockKey); err != nil {
		return fmt.Errorf("migrate: lock: %w", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		one     BOOLEAN PRIMARY KEY DEFAULT true CHECK (one),
		version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: create schema_version: %w", err)
	}
	// Read again under the lock: another process may have migrated.
	v, err := schemaVersion(ctx, tx)
	if err != nil {
		return err
	}
	if err := checkVersion(v, len(ms)); err != nil {
		return err
	}
	for _, m := range ms[v:] {
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO schema_version (version) VALUES ($1)
		ON CONFLICT (one) DO UPDATE SET version = excluded.version`, len(ms)); err != nil {
		return fmt.Errorf("migrate: set schema version: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}

// schemaVersion is the applied version, 0 before the first migration.
func schemaVersion(ctx context.Context, q querier) (int, error) {
	var v int
	err := q.QueryRow(ctx, `SELECT version FROM schema_version`).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

func isUndefinedTable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "42P01"
}

func checkVersion(have, latest int) error {
	if have > latest {
		return fmt.Errorf("database schema version %d is newer than this sessiongate knows (%d): upgrade sessiongate", have, latest)
	}
	return nil
}
