package session

import (
	"context"
	"fmt"
	"strings"
)

// NotCleanReasons lists what keeps a session from being clean, each a
// clause: its violations, the phases PhaseNotClean names (grouped by
// why), and not-applicable marks no person accepted. Verdict prints them;
// Clean decides on them; every listing (`session list`, the dashboard's
// list, /api/sessions, the export, MCP) reads these two, so no surface
// calls clean what another does not (issue 25 item 1).
func NotCleanReasons(v *StateView) []string {
	var not []string
	if n := len(v.Violations); n > 0 {
		var kinds []string
		seen := map[string]bool{}
		for _, vi := range v.Violations {
			k := vi.Severity + " " + vi.Code
			if !seen[k] {
				seen[k] = true
				kinds = append(kinds, k)
			}
		}
		not = append(not, fmt.Sprintf("%d violation(s) (%s)", n, strings.Join(kinds, ", ")))
	}
	not = append(not, notCleanClauses(v.Phases)...)
	if pending := PendingNA(v.NotApplicable); len(pending) > 0 {
		ids := make([]string, len(pending))
		for i, m := range pending {
			ids[i] = m.What()
		}
		not = append(not, fmt.Sprintf("%d N/A pending acceptance (%s)", len(pending), strings.Join(ids, ", ")))
	}
	return not
}

// Clean is the one decision of whether a session ended clean: nil while
// it runs (not decided yet), true only for a COMPLETE session with
// nothing NotCleanReasons names. An abandoned or terminated session is
// never clean.
func Clean(v *StateView) *bool {
	if v.Session.Active() {
		return nil
	}
	c := v.Session.State == StateComplete && len(NotCleanReasons(v)) == 0
	return &c
}

// VerdictView is the part of View that Verdict, Clean and NotCleanReasons
// read (phase results, violations, not-applicable marks) for a session
// already loaded, without its checklist, evidence list or a reconcile of
// its commits: what a listing reads per ended row.
func (e *Engine) VerdictView(ctx context.Context, s *Session) (*StateView, error) {
	rs, err := e.Store.PhaseResults(ctx, s.ID)
	if err != nil {
		return nil, fmt.Errorf("session %s: read phase results: %w", s.ID, err)
	}
	vs, err := e.Store.ListViolations(ctx, ViolationFilter{SessionID: s.ID, Limit: 1000})
	if err != nil {
		return nil, fmt.Errorf("session %s: read violations: %w", s.ID, err)
	}
	v := &StateView{Session: s, Phases: rs, Violations: vs}
	evs, err := e.Store.ListEvidence(ctx, s.ID)
	if err != nil {
		return nil, fmt.Errorf("session %s: read evidence: %w", s.ID, err)
	}
	hasMark := false
	for _, x := range evs {
		if isNAMark(x) {
			hasMark = true
			break
		}
	}
	if hasMark {
		// Only a session with a mark needs its protocol (a mark's
		// standing depends on the phase it marks).
		spec, err := e.SpecFor(ctx, s.ProtocolSHA)
		if err != nil {
			return nil, fmt.Errorf("session %s: %w", s.ID, err)
		}
		v.NotApplicable = e.naMarks(ctx, s, spec, evs)
	}
	return v, nil
}
