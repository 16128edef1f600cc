package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/sessiongate/sessiongate/session"
)

const snapshotsSQL = `SELECT session_id, seq, snapshot_id, payload, created_at
	FROM snapshots WHERE session_id = +? ORDER BY seq`

const latestSnapshotSQL = `SELECT snapshot_id FROM snapshots WHERE session_id = +? ORDER BY seq DESC LIMIT 1`

// LatestSnapshotID returns the id of the session's newest snapshot, "" when
// it has none (session.Reader): a payload lists every piece of evidence, so
// reading them all to name the last grew with the session.
func (r reader) LatestSnapshotID(ctx context.Context, sessionID string) (string, error) {
	var id string
	err := r.queryRow(ctx, latestSnapshotSQL, sessionID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("latest snapshot of session %s: %w", sessionID, err)
	}
	return id, nil
}

// ListSnapshots returns a session's snapshots in Seq order.
func (r reader) ListSnapshots(ctx context.Context, sessionID string) ([]session.Snapshot, error) {
	const what = "snapshots of session "
	rows, err := r.query(ctx, snapshotsSQL, sessionID)
	if err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []session.Snapshot
	for rows.Next() {
		var s session.Snapshot
		var created int64
		if err := rows.Scan(&s.SessionID, &s.Seq, &s.SnapshotID, &s.Payload, &created); err != nil {
			return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
		}
		s.CreatedAt = fromNanos(created)
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	return out, nil
}

// AddSnapshot inserts s with Seq = the session's highest snapshot Seq + 1
// and sets s.Seq. A zero CreatedAt gets the transaction's time.
func (tx *Tx) AddSnapshot(ctx context.Context, s *session.Snapshot) error {
	s.CreatedAt = tx.stamp(s.CreatedAt)
	payload := s.Payload
	if payload == nil {
		payload = []byte{}
	}
	err := tx.queryRow(ctx, `INSERT INTO snapshots (session_id, seq, snapshot_id, payload, created_at)
		SELECT ?, coalesce(max(seq), 0) + 1, ?, ?, ? FROM snapshots WHERE session_id = ?
		RETURNING seq`, s.SessionID, s.SnapshotID, payload, nanos(s.CreatedAt), s.SessionID).Scan(&s.Seq)
	if err != nil {
		return fmt.Errorf("add snapshot %s to session %s: %w", s.SnapshotID, s.SessionID, err)
	}
	return nil
}
