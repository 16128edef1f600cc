package store

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/session"
)

// ListEvidence returns a session's evidence in the order it was recorded.
func (r reader) ListEvidence(ctx context.Context, sessionID string) ([]session.Evidence, error) {
	const what = "evidence of session "
	rows, err := r.query(ctx, `SELECT id, session_id, phase, step, kind, sha256, ref, size, body, body IS NULL, created_at
		FROM evidence WHERE session_id = ? ORDER BY id`, sessionID)
	if err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []session.Evidence
	for rows.Next() {
		var e session.Evidence
		var created int64
		var null bool
		if err := rows.Scan(&e.ID, &e.SessionID, &e.Phase, &e.Step, &e.Kind, &e.SHA256, &e.Ref, &e.Size,
			&e.Body, &null, &created); err != nil {
			return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
		}
		if e.Body == nil && !null {
			e.Body = []byte{} // an empty body was stored; nil means none was
		}
		e.CreatedAt = fromNanos(created)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	return out, nil
}

// AddEvidence inserts e and sets its ID. Body is stored only when non-nil
// (the caller decides whether raw bodies are kept); a zero CreatedAt gets
// the transaction's time.
func (tx *Tx) AddEvidence(ctx context.Context, e *session.Evidence) error {
	if len(e.Body) > session.MaxEvidenceBytes {
		return fmt.Errorf("add evidence to session %s: body is %d bytes, limit %d", e.SessionID, len(e.Body), session.MaxEvidenceBytes)
	}
	e.CreatedAt = tx.stamp(e.CreatedAt)
	var body any // NULL unless a body was given
	if e.Body != nil {
		body = e.Body
	}
	err := tx.queryRow(ctx, `INSERT INTO evidence (session_id, phase, step, kind, sha256, ref, size, body, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		e.SessionID, e.Phase, e.Step, e.Kind, e.SHA256, e.Ref, e.Size, body, nanos(e.CreatedAt)).Scan(&e.ID)
	if err != nil {
		return fmt.Errorf("add evidence to session %s: %w", e.SessionID, err)
	}
	return nil
}
