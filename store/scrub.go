package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/sessiongate/sessiongate/redact"
)

// migrationSteps are Go steps that run after a migration's SQL in the same
// transaction, keyed by the migration's name without its number (so a
// migration renumbered on rebase keeps its step).
var migrationSteps = map[string]func(ctx context.Context, tx *sql.Tx) error{
	"scrub_secrets.sql": scrubSecrets,
}

// scrubbed are the text columns that may hold what a caller wrote, by
// table, with the key that addresses a row.
var scrubbed = []struct {
	table, key string
	cols       []string
}{
	{"evidence", "id", []string{"ref", "command", "source", "body"}},
	{"events", "session_id || ':' || seq", []string{"detail"}},
	{"violations", "id", []string{"message", "requirement"}},
	{"sessions", "id", []string{"objective", "summary", "next_notes", "terminate_reason"}},
}

// scrubSecrets redacts secret-looking values (redact.Secrets) already
// stored in any text column, row by row.
func scrubSecrets(ctx context.Context, tx *sql.Tx) error {
	for _, t := range scrubbed {
		for _, col := range t.cols {
			if err := scrubColumn(ctx, tx, t.table, t.key, col); err != nil {
				return fmt.Errorf("scrub %s.%s: %w", t.table, col, err)
			}
		}
	}
	return nil
}

func scrubColumn(ctx context.Context, tx *sql.Tx, table, key, col string) error {
	// Names come from the constant table above, never from input.
	rows, err := tx.QueryContext(ctx, fmt.Sprintf(`SELECT %s, CAST(%s AS TEXT) FROM %s WHERE %s IS NOT NULL AND %s <> ''`, key, col, table, col, col))
	if err != nil {
		return err
	}
	type change struct{ key, val string }
	var todo []change
	for rows.Next() {
		var k string
		var v sql.NullString
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return err
		}
		if r := redact.Secrets(v.String); r != v.String {
			todo = append(todo, change{k, r})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, c := range todo {
		val := any(c.val)
		if col == "body" {
			val = []byte(c.val)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`UPDATE %s SET %s = ? WHERE %s = ?`, table, col, key), val, c.key); err != nil {
			return err
		}
	}
	return nil
}
