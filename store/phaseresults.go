package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

const phaseResultsSQL = `SELECT session_id, phase_id, status, level, message, decision,
	checks_json, started_at, ended_at, duration_ns FROM phase_results WHERE session_id = +? ORDER BY rowid`

// PhaseResults returns a session's phase results in the order their phases
// were first recorded.
func (r reader) PhaseResults(ctx context.Context, sessionID string) ([]session.PhaseResult, error) {
	const what = "phase results of session "
	rows, err := r.query(ctx, phaseResultsSQL, sessionID)
	if err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []session.PhaseResult
	for rows.Next() {
		var p session.PhaseResult
		var checks sql.NullString
		var started, ended, dur int64
		if err := rows.Scan(&p.SessionID, &p.PhaseID, &p.Status, &p.Level, &p.Message, &p.Decision,
			&checks, &started, &ended, &dur); err != nil {
			return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
		}
		if checks.Valid {
			if err := json.Unmarshal([]byte(checks.String), &p.Checks); err != nil {
				return nil, fmt.Errorf(what+"%s: phase %s: decode checks: %w", sessionID, p.PhaseID, err)
			}
		}
		p.StartedAt, p.EndedAt, p.Duration = fromNanos(started), fromNanos(ended), time.Duration(dur)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	return out, nil
}

// PutPhaseResult inserts or replaces the result of (SessionID, PhaseID). A
// replaced result keeps its place in PhaseResults' order.
func (tx *Tx) PutPhaseResult(ctx context.Context, p session.PhaseResult) error {
	return tx.putPhaseResult(ctx, p, "")
}

// PutPhaseResultUnlessSettled is PutPhaseResult when the stored result of
// (SessionID, PhaseID) is missing, PENDING or FAILED, and nothing otherwise:
// one statement, instead of reading the session's results first.
func (tx *Tx) PutPhaseResultUnlessSettled(ctx context.Context, p session.PhaseResult) error {
	return tx.putPhaseResult(ctx, p, unsettled)
}

// unsettled limits the upsert's update to a result not yet settled.
const unsettled = ` WHERE phase_results.status IN ('` + string(session.PhasePending) + `', '` + string(session.PhaseFailed) + `')`

func (tx *Tx) putPhaseResult(ctx context.Context, p session.PhaseResult, where string) error {
	var checks any // NULL when there are none
	if len(p.Checks) > 0 {
		b, err := json.Marshal(p.Checks)
		if err != nil {
			return fmt.Errorf("put phase result %s/%s: encode checks: %w", p.SessionID, p.PhaseID, err)
		}
		checks = string(b)
	}
	_, err := tx.exec(ctx, `INSERT INTO phase_results (session_id, phase_id, status, level,
		message, decision, checks_json, started_at, ended_at, duration_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (session_id, phase_id) DO UPDATE SET status = excluded.status, level = excluded.level,
		message = excluded.message, decision = excluded.decision, checks_json = excluded.checks_json,
		started_at = excluded.started_at, ended_at = excluded.ended_at, duration_ns = excluded.duration_ns`+where,
		p.SessionID, p.PhaseID, p.Status, p.Level, p.Message, p.Decision, checks,
		nanos(p.StartedAt), nanos(p.EndedAt), int64(p.Duration))
	if err != nil {
		return fmt.Errorf("put phase result %s/%s: %w", p.SessionID, p.PhaseID, err)
	}
	return nil
}
