package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The team index's bookkeeping (package teamindex): where each source was
// indexed up to, and which record blob each imported session came from.

// IndexTip returns the records-ref commit a source was indexed up to, ""
// before its first index.
func (r reader) IndexTip(ctx context.Context, source string) (string, error) {
	var tip string
	err := r.q.QueryRow(ctx, `SELECT tip FROM index_sources WHERE source = $1`, source).Scan(&tip)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("index tip of %s: %w", source, err)
	}
	return tip, nil
}

// IndexedBlob returns the record blob a session was imported from, "" when
// it was not imported by the index.
func (r reader) IndexedBlob(ctx context.Context, sessionID string) (source, blob string, err error) {
	err = r.q.QueryRow(ctx, `SELECT source, blob FROM index_records WHERE session_id = $1`, sessionID).Scan(&source, &blob)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("indexed record of session %s: %w", sessionID, err)
	}
	return source, blob, nil
}

// SetIndexTip records the commit a source is indexed up to.
func (tx *Tx) SetIndexTip(ctx context.Context, source, tip string) error {
	_, err := tx.q.Exec(ctx, `INSERT INTO index_sources (source, tip, updated_at) VALUES ($1, $2, $3)
		ON CONFLICT (source) DO UPDATE SET tip = excluded.tip, updated_at = excluded.updated_at`, source, tip, time.Now().UnixNano())
	if err != nil {
		return fmt.Errorf("set index tip of %s: %w", source, err)
	}
	return nil
}

// SetIndexedBlob records the record blob a session was imported from.
func (tx *Tx) SetIndexedBlob(ctx context.Context, sessionID, source, blob string) error {
	_, err := tx.q.Exec(ctx, `INSERT INTO index_records (session_id, source, blob) VALUES ($1, $2, $3)
		ON CONFLICT (session_id) DO UPDATE SET source = excluded.source, blob = excluded.blob`, sessionID, source, blob)
	if err != nil {
		return fmt.Errorf("record the indexed blob of session %s: %w", sessionID, err)
	}
	return nil
}
