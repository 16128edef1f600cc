package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/sessiongate/sessiongate/session"
)

// Each verdict query is an index search per id (phase_results' primary
// key, violations_session, the partial evidence_na_marks of migration
// 0018): no ORDER BY, which could make SQLite walk a whole table in
// order; session.SortVerdictInputs orders the rows. Only what
// session.NotCleanReasons reads: checks_json only where the decision is
// empty and the checks hold session.NothingCheckedMark (ResultDecision
// looks for nothing else in them: decoding every result's checks was a
// tenth of a page's CPU), no evidence body. The
// page's ids are bound as one JSON array (idList): each statement's text
// is the same for every page, so it is prepared once (the statement
// cache), not three times a page, and no page meets SQLite's limit of
// bound values (`session list --limit` goes to 10,000).
const (
	idList           = `(SELECT value FROM json_each(?))`
	verdictPhasesSQL = `SELECT session_id, phase_id, rowid, status, level, decision,
		CASE WHEN decision = '' AND instr(checks_json, '` + session.NothingCheckedMark + `') > 0 THEN checks_json END FROM phase_results WHERE session_id IN ` + idList
	verdictViolationsSQL = `SELECT session_id, id, phase, severity, code, created_at FROM violations WHERE session_id IN ` + idList
	// The steps are literals: SQLite uses a partial index only for a
	// condition written as its own.
	verdictMarksSQL = `SELECT session_id, id, phase, step, requirement, ref, sha256, origin FROM evidence
		WHERE session_id IN ` + idList + ` AND step IN ('` + session.StepNotApplicable + `', '` + session.StepCondition + `')`
)

// SessionVerdictInputs reads the verdict inputs of the given sessions
// (session.Reader): three statements for a page, whatever its size. An
// id given twice is one id of the JSON array's IN: its rows come once.
func (r reader) SessionVerdictInputs(ctx context.Context, ids []string) (map[string]*session.VerdictInputs, error) {
	out := make(map[string]*session.VerdictInputs, len(ids))
	ord := map[string]map[string]int64{}
	if len(ids) == 0 {
		return out, nil
	}
	for _, id := range ids {
		out[id] = &session.VerdictInputs{}
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("verdict inputs: %w", err)
	}
	if err := r.verdictRows(ctx, string(list), out, ord); err != nil {
		return nil, err
	}
	session.SortVerdictInputs(out, ord)
	return out, nil
}

func (r reader) verdictRows(ctx context.Context, list string, out map[string]*session.VerdictInputs, ord map[string]map[string]int64) error {
	scan := func(what, query string, row func(rows *sql.Rows) error) error {
		rows, err := r.query(ctx, query, list)
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
	err := scan("phase results", verdictPhasesSQL, func(rows *sql.Rows) error {
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
	err = scan("violations", verdictViolationsSQL, func(rows *sql.Rows) error {
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
	return scan("not-applicable marks", verdictMarksSQL, func(rows *sql.Rows) error {
		var e session.Evidence
		if err := rows.Scan(&e.SessionID, &e.ID, &e.Phase, &e.Step, &e.Requirement, &e.Ref, &e.SHA256, &e.Origin); err != nil {
			return err
		}
		v := out[e.SessionID]
		v.Marks = append(v.Marks, e)
		return nil
	})
}
