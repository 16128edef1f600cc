package store

import (
	"context"
	"fmt"
	"strings"
)

// IntegrityCheck runs SQLite's PRAGMA integrity_check and returns an error
// listing what it found unless the answer is "ok".
func (db *DB) IntegrityCheck(ctx context.Context) error {
	rows, err := db.read.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("integrity check of %s: %w", db.path, err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return fmt.Errorf("integrity check of %s: %w", db.path, err)
		}
		got = append(got, s)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("integrity check of %s: %w", db.path, err)
	}
	if len(got) != 1 || got[0] != "ok" {
		return fmt.Errorf("integrity check of %s: %s", db.path, strings.Join(got, "; "))
	}
	return nil
}
