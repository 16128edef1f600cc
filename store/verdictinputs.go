package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/sessiongate/sessiongate/session"
)

// verdictBatch bounds the ids of one statement (SQLite's bound-variable
// limit is 32,766; `session list --limit` goes to 10,000); a variable so
// a test can cut a page into several.
var verdictBatch = 500

// Each verdict query is an index search per id (phase_results' primary
// key, violations_session, the partial evidence_na_marks of migration
// 0018): no ORDER BY, which could make SQLite walk a whole table in
// order; session.SortVerdictInputs orders the rows. Only what
// session.NotCleanReasons reads: checks_json only where the decision is
// empty (ResultDecision reads the checks then), no evidence body.
func verdictPhasesSQL(n int) string {
	return `SELECT session_id, phase_id, rowid, status, level, decision,
		CASE WHEN decision = '' THEN checks_json END FROM phase_results WHERE session_id IN (` + placeholders(n) + `)`
}

func verdictViolationsSQL(n int) string {
	return `SELECT session_id, id, phase, severity, code, created_at FROM violations WHERE session_id IN (` + placeholders(n) + `)`
}

// verdictMarksSQL names the steps as literals: SQLite uses a partial
// index only for a condition written as its own.
func verdictMarksSQL(n int) string {
	return `SELECT session_id, id, phase, step, requirement, ref, sha256, origin FROM evidence
		WHERE session_id IN (` + placeholders(n) + `) AND ` + naMarkSteps
}

const naMarkSteps = `step IN ('` + session.StepNotApplicable + `', '` + session.StepCondition + `')`

// SessionVerdictInputs reads the verdict inputs of the given sessions
// (session.Reader): three statements for a page, whatever its size.
func (r reader) SessionVerdictInputs(ctx context.Context, ids []string) (map[string]*session.VerdictInputs, error) {
	out := make(map[string]*session.VerdictInputs, len(ids))
	ord := map[string]map[string]int64{}
	var uniq []string // an id twice would read its rows twice
	for _, id := range ids {
		if out[id] == nil {
			out[id] = &session.VerdictInputs{}
			uniq = append(uniq, id)
		}
	}
	for lo := 0; lo < len(uniq); lo += verdictBatch {
		if err := r.verdictBatch(ctx, uniq[lo:min(len(uniq), lo+verdictBatch)], out, ord); err != nil {
			return nil, err
		}
	}
	session.SortVerdictInputs(out, ord)
	return out, nil
}

func (r reader) verdictBatch(ctx context.Context, ids []string, out map[string]*session.VerdictInputs, ord map[string]map[string]int64) error {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	scan := func(what, query string, row func(rows *sql.Rows) error) error {
		rows, err := r.q.QueryContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("verdict inputs: %s: %w", what, err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := row(rows); err != nil {
				return fmt.Errorf("verdict inputs: %s: %w", what, err)
			}
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("verdict inputs: %s: %w", what, err)
		}
		return nil
	}
	err := scan("phase results", verdictPhasesSQL(len(ids)), func(rows *sql.Rows) error {
		var p session.PhaseResult
		var n int64
		var checks sql.NullString
		if err := rows.Scan(&p.SessionID, &p.PhaseID, &n, &p.Status, &p.Level, &p.Decision, &checks); err != nil {
			return err
		}
		if checks.Valid {
			if err := json.Unmarshal([]byte(checks.String), &p.Checks); err != nil {
				return fmt.Errorf("session %s phase %s: decode checks: %w", p.SessionID, p.PhaseID, err)
			}
		}
		if ord[p.SessionID] == nil {
			ord[p.SessionID] = map[string]int64{}
		}
		ord[p.SessionID][p.PhaseID] = n
		v := out[p.SessionID]
		v.Phases = append(v.Phases, p)
		return nil
	})
	if err != nil {
		return err
	}
	err = scan("violations", verdictViolationsSQL(len(ids)), func(rows *sql.Rows) error {
		var vi session.Violation
		var created int64
		if err := rows.Scan(&vi.SessionID, &vi.ID, &vi.Phase, &vi.Severity, &vi.Code, &created); err != nil {
			return err
		}
		vi.CreatedAt = fromNanos(created)
		v := out[vi.SessionID]
		v.Violations = append(v.Violations, vi)
		return nil
	})
	if err != nil {
		return err
	}
	return scan("not-applicable marks", verdictMarksSQL(len(ids)), func(rows *sql.Rows) error {
		var e session.Evidence
		if err := rows.Scan(&e.SessionID, &e.ID, &e.Phase, &e.Step, &e.Requirement, &e.Ref, &e.SHA256, &e.Origin); err != nil {
			return err
		}
		v := out[e.SessionID]
		v.Marks = append(v.Marks, e)
		return nil
	})
}
