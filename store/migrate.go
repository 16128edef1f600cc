package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads migrations/NNNN_name.sql in version order and checks
// that the versions run 1, 2, 3... without gaps or duplicates, since each
// one's number becomes PRAGMA user_version.
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

// migrate brings the schema to the newest embedded version. Each migration
// and its user_version bump commit together, under BEGIN IMMEDIATE, so two
// processes opening a fresh file at once apply each migration exactly once.
func (db *DB) migrate(ctx context.Context) error {
	// Fast path for every open after the first: a read, no write lock, and
	// the migrations counted by name, not read (every hook opens the store).
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("list migrations: %w", err)
	}
	v, err := userVersion(ctx, db.read)
	if err != nil {
		return err
	}
	if v == len(names) {
		return nil
	}
	ms, err := loadMigrations(migrationFS)
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	if err := checkVersion(v, len(ms)); err != nil || v == len(ms) {
		return err
	}
	scrub := false
	for _, m := range ms {
		if _, name, _ := strings.Cut(m.name, "_"); m.version > v && migrationSteps[name] != nil {
			scrub = true
			// Freed cell space is zeroed, so scrubbed values leave no bytes
			// behind in the file (the writer pool has one connection).
			if _, err := db.writer.ExecContext(ctx, "PRAGMA secure_delete = ON"); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
		}
		if err := db.applyMigration(ctx, m, len(ms)); err != nil {
			return err
		}
	}
	if scrub {
		// Move the rewritten pages into the file and empty the WAL, which
		// still holds the old page images.
		if _, err := db.writer.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			return fmt.Errorf("checkpoint after scrubbing: %w", err)
		}
		if _, err := db.writer.ExecContext(ctx, "PRAGMA secure_delete = OFF"); err != nil {
			return err
		}
	}
	return nil
}

func (db *DB) applyMigration(ctx context.Context, m migration, latest int) error {
	tx, err := db.writer.BeginTx(ctx, nil) // BEGIN IMMEDIATE
	if err != nil {
		return fmt.Errorf("migration %s: begin: %w", m.name, err)
	}
	defer tx.Rollback()
	// Read again under the write lock: another process may have migrated.
	v, err := userVersion(ctx, tx)
	if err != nil {
		return err
	}
	if err := checkVersion(v, latest); err != nil {
		return err
	}
	if v >= m.version {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if _, name, _ := strings.Cut(m.name, "_"); migrationSteps[name] != nil {
		if err := migrationSteps[name](ctx, tx); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	// PRAGMA takes no bound parameters; version is an int from the file name.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
		return fmt.Errorf("migration %s: set user_version: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %s: commit: %w", m.name, err)
	}
	return nil
}

func userVersion(ctx context.Context, q querier) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

func checkVersion(have, latest int) error {
	if have > latest {
		return fmt.Errorf("database schema version %d is newer than this sessiongate knows (%d): upgrade sessiongate", have, latest)
	}
	return nil
}
