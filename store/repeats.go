package store

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/session"
)

// repeatGateSQL counts ?5 repeats of an unchanged gate result
// (session.GateRepeater): this call and any the engine held back since it
// last wrote (session/gaterepeat.go), the first of them at ?6. The row goes
// in, or its count goes up, only when the repeated gate event is still the
// session's last event and the session is active: any event recorded since
// (evidence, an advance, another client's gate call, a hook in another
// process) or an end makes it write nothing, and the caller records the
// call in full. The triggers of migration 0015 move the session's idle
// expiry in the same statement.
const repeatGateSQL = `INSERT INTO gate_repeats (session_id, seq, repeats, first_at, last_at, expires_at)
	SELECT ?1, ?2, ?5, ?6, ?3, ?4
	WHERE (SELECT max(seq) FROM events WHERE session_id = ?1) = ?2
	AND EXISTS (SELECT 1 FROM sessions WHERE id = ?1 AND ` + activeRow + `)
	ON CONFLICT (session_id, seq) DO UPDATE SET repeats = repeats + excluded.repeats, last_at = excluded.last_at, expires_at = excluded.expires_at`

// flushRepeatsSQL writes repeats the engine held back, each judged a
// repeat when it was asked (its gate event then the session's last), so
// without the last-event condition: an event recorded since must not lose
// them. The session's last activity and expiry (moved by the triggers to
// the row's new last_at and expires_at) never go back: a later write may
// already have moved them past the held-back repeats. Only while the
// session is active: an ended session's row is not touched.
const flushRepeatsSQL = `INSERT INTO gate_repeats (session_id, seq, repeats, first_at, last_at, expires_at)
	SELECT ?1, ?2, ?5, ?6, max(?3, last_activity), max(?4, expires_at) FROM sessions WHERE id = ?1 AND ` + activeRow + `
	ON CONFLICT (session_id, seq) DO UPDATE SET repeats = repeats + excluded.repeats, last_at = excluded.last_at, expires_at = excluded.expires_at`

// RepeatGate implements session.GateRepeater: one autocommit statement on
// the writer connection, queued behind any transaction holding it.
func (db *DB) RepeatGate(ctx context.Context, r session.RepeatWrite) (bool, error) {
	return db.writeRepeats(ctx, repeatGateSQL, r)
}

// FlushGateRepeats implements session.GateRepeater: repeats held back,
// without the last-event condition (flushRepeatsSQL).
func (db *DB) FlushGateRepeats(ctx context.Context, r session.RepeatWrite) (bool, error) {
	return db.writeRepeats(ctx, flushRepeatsSQL, r)
}

func (db *DB) writeRepeats(ctx context.Context, q string, r session.RepeatWrite) (bool, error) {
	if db.readOnly {
		return false, nil // the full path reports the read-only store
	}
	if r.N < 1 {
		r.N = 1
	}
	if r.FirstAt.IsZero() {
		r.FirstAt = r.At
	}
	w := reader{q: counted{db.writer, db.statements}, stmts: db.writerStmts, n: db.statements}
	if db.single {
		w.stmts = nil // a hook's one-shot process: nothing to prepare for
	}
	res, err := w.exec(ctx, q, r.ID, r.Seq, nanos(r.At), nanos(r.ExpiresAt), r.N, nanos(r.FirstAt))
	if err != nil {
		return false, fmt.Errorf("count %d repeat(s) of gate event %d of session %s: %w", r.N, r.Seq, r.ID, diskFull(err, db.path))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("count %d repeat(s) of gate event %d of session %s: %w", r.N, r.Seq, r.ID, err)
	}
	return n == 1, nil
}

// GateRepeats lists a session's repeated gate results, oldest first.
func (r reader) GateRepeats(ctx context.Context, id string) ([]session.GateRepeat, error) {
	rows, err := r.query(ctx, `SELECT seq, repeats, first_at, last_at FROM gate_repeats WHERE session_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, fmt.Errorf("read the gate repeats of session %s: %w", id, err)
	}
	defer rows.Close()
	var out []session.GateRepeat
	for rows.Next() {
		var g session.GateRepeat
		var first, last int64
		if err := rows.Scan(&g.Seq, &g.Repeats, &first, &last); err != nil {
			return nil, fmt.Errorf("read the gate repeats of session %s: %w", id, err)
		}
		g.FirstAt, g.LastAt = fromNanos(first), fromNanos(last)
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the gate repeats of session %s: %w", id, err)
	}
	return out, nil
}
