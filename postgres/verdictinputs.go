package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/sessiongate/sessiongate/session"
)

// The verdict queries of a page: an index search per id (phase_results'
// primary key, violations_session, the partial evidence_na_marks of
// migration 0012), no ORDER BY (session.SortVerdictInputs orders the
// rows), and only what session.NotCleanReasons reads: checks_json only
// where the decision is empty and the checks hold
// session.NothingCheckedMark, no evidence body. The three go to the
// server in one batch: one round trip a page.
const (
	verdictPhasesSQL = `SELECT session_id, phase_id, ord, status, level, decision,
		CASE WHEN decision = '' AND strpos(checks_json, '` + session.NothingCheckedMark + `') > 0 THEN checks_json END FROM phase_results WHERE session_id = ANY($1)`
	verdictViolationsSQL = `SELECT session_id, id, phase, severity, code, created_at FROM violations WHERE session_id = ANY($1)`
	verdictMarksSQL      = `SELECT session_id, id, phase, step, requirement, ref, sha256, origin FROM evidence
		WHERE session_id = ANY($1) AND step IN ('` + session.StepNotApplicable + `', '` + session.StepCondition + `')`
)

// SessionVerdictInputs reads the verdict inputs of the given sessions
// (session.Reader): three statements in one round trip, whatever the
// page's size.
func (r reader) SessionVerdictInputs(ctx context.Context, ids []string) (map[string]*session.VerdictInputs, error) {
	out := make(map[string]*session.VerdictInputs, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	for _, id := range ids {
		out[id] = &session.VerdictInputs{}
	}
	ord := map[string]map[string]int64{}
	b := &pgx.Batch{}
	b.Queue(verdictPhasesSQL, ids).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var p session.PhaseResult
			var n int64
			var status, level string
			var checks *string
			if err := rows.Scan(&p.SessionID, &p.PhaseID, &n, &status, &level, &p.Decision, &checks); err != nil {
				return fmt.Errorf("phase results: %w", err)
			}
			p.Status, p.Level = session.PhaseStatus(status), session.GateLevel(level)
			if checks != nil {
				if err := json.Unmarshal([]byte(*checks), &p.Checks); err != nil {
					return fmt.Errorf("session %s phase %s: decode checks: %w", p.SessionID, p.PhaseID, err)
				}
			}
			if ord[p.SessionID] == nil {
				ord[p.SessionID] = map[string]int64{}
			}
			ord[p.SessionID][p.PhaseID] = n
			v := out[p.SessionID]
			v.Phases = append(v.Phases, p)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("phase results: %w", err)
		}
		return nil
	})
	b.Queue(verdictViolationsSQL, ids).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var vi session.Violation
			var created int64
			if err := rows.Scan(&vi.SessionID, &vi.ID, &vi.Phase, &vi.Severity, &vi.Code, &created); err != nil {
				return fmt.Errorf("violations: %w", err)
			}
			vi.CreatedAt = fromNanos(created)
			v := out[vi.SessionID]
			v.Violations = append(v.Violations, vi)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("violations: %w", err)
		}
		return nil
	})
	b.Queue(verdictMarksSQL, ids).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var e session.Evidence
			var origin string
			if err := rows.Scan(&e.SessionID, &e.ID, &e.Phase, &e.Step, &e.Requirement, &e.Ref, &e.SHA256, &origin); err != nil {
				return fmt.Errorf("not-applicable marks: %w", err)
			}
			e.Origin = session.EvidenceOrigin(origin)
			v := out[e.SessionID]
			v.Marks = append(v.Marks, e)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("not-applicable marks: %w", err)
		}
		return nil
	})
	bq, ok := driverQ(r.q).(batcher)
	if !ok {
		return nil, fmt.Errorf("verdict inputs: %T cannot send a batch", driverQ(r.q))
	}
	if err := bq.SendBatch(ctx, b).Close(); err != nil {
		return nil, fmt.Errorf("verdict inputs of %d session(s): %w", len(ids), explain(err, explainHost(r.q)))
	}
	session.SortVerdictInputs(out, ord)
	return out, nil
}

// batcher is what *pgxpool.Pool and pgx.Tx have to send a batch.
type batcher interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}
