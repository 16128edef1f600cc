package session

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// The session database is a file the agent can write (python's sqlite3
// module needs no sqlite3 binary for the agent hook to see): an UPDATE of
// the session's state and phase, or of its phase results, skipped the
// start protocol, and session_end walked only the end phases after the
// session's position (issue 25.7 route 4). At the end, every phase before
// the position is re-derived from the session's events: a phase passes
// only when a gate of it ran in this session (a gate event other than
// fail or stale: pass, skipped, skip, forced). One that has none is
// flagged (UNGATED_PHASE, on the records ref at once) and its gate runs
// now; a mandatory one that fails blocks the end, and its result replaces
// the row. Rows of phases after the position are re-derived by the end's
// walk as before. A gate event counts only with the engine's seal
// (eventseal/: an inserted one has none); not covered: an agent that
// reads the seal's key and computes seals (docs/security.md).

// CodeUngatedPhase is a phase past the session's position with no gate
// event behind it: the database was written by hand.
const CodeUngatedPhase = "UNGATED_PHASE"

// phaseAudit is what auditPhases found.
type phaseAudit struct {
	gates      []GateResult
	results    []PhaseResult
	tokens     []string
	violations []*Violation
	blocked    *BlockedPhase
}

// auditPhases re-derives the phases before position cur (see above).
func (e *Engine) auditPhases(ctx context.Context, s *Session, ps []position, cur int, now time.Time) (*phaseAudit, error) {
	out := &phaseAudit{}
	evs, err := e.Store.ListEvents(ctx, s.ID, 0, 0)
	if err != nil {
		return nil, fmt.Errorf("load events for the phase audit: %w", err)
	}
	gated, unsealed := map[string]bool{}, map[string]bool{}
	for _, ev := range evs {
		rest, ok := strings.CutPrefix(ev.Token, "gate:")
		if !ok {
			continue
		}
		i := strings.LastIndex(rest, ":")
		if j := strings.Index(rest, ":forced:"); j > 0 { // gate:ID:forced:LEVEL
			i = j
		}
		if i <= 0 {
			continue
		}
		id, what := rest[:i], rest[i+1:]
		if what == "fail" || what == "stale" || what == "ungated" {
			continue
		}
		// A gate event counts only with the engine's seal: one written
		// into the database by hand has none (eventseal/).
		ok, err := e.seal.Sealed(ev.SessionID, ev.Token, ev.CreatedAt, ev.Detail)
		if err != nil {
			return nil, fmt.Errorf("check the seal of gate event %d: %w", ev.Seq, err)
		}
		if ok {
			gated[id] = true
		} else {
			unsealed[id] = true
		}
	}
	rows, err := e.Store.PhaseResults(ctx, s.ID)
	if err != nil {
		return nil, fmt.Errorf("load phase results for the phase audit: %w", err)
	}
	row := map[string]PhaseStatus{}
	for _, r := range rows {
		row[r.PhaseID] = r.Status
	}
	for i := 0; i < cur && i < len(ps); i++ {
		p := ps[i].phase
		if p == nil || gated[p.ID] {
			continue
		}
		status := string(row[p.ID])
		if status == "" {
			status = "none"
		}
		why := "no gate of it ran in this session"
		if unsealed[p.ID] {
			why = "its gate events carry no seal of sessiongate's (inserted into the database, or written before gate events were sealed)"
		}
		out.violations = append(out.violations, &Violation{SessionID: s.ID, RepoID: s.RepoID, Phase: p.ID,
			Requirement: string(p.Level()) + " gate " + p.Title, Severity: SeverityCritical, Code: CodeUngatedPhase,
			Window: WindowSession, CreatedAt: now,
			Message: fmt.Sprintf("phase %s is behind the session's position (%s %s; its result row: %s), but %s: the session's database was written by hand; its gate runs now", p.ID, s.State, orNone(s.Phase), status, why)})
		g, err := e.evaluate(ctx, s, p, false)
		if err != nil {
			return nil, err
		}
		g.Message = fmt.Sprintf("%s had no gate behind it (the database marked it past); checked now: %s", p.ID, g.Message)
		st := settle(s, p, g, false, "", now)
		out.gates = append(out.gates, g)
		out.results = append(out.results, st.result)
		out.tokens = append(out.tokens, append([]string{"gate:" + p.ID + ":ungated"}, st.tokens...)...)
		if st.blocked != nil {
			out.blocked = st.blocked
			return out, nil
		}
	}
	return out, nil
}

func orNone(s string) string {
	if s == "" {
		return "(no phase)"
	}
	return s
}
