package session

import (
	"cmp"
	"context"
	"fmt"
	"slices"
)

// VerdictInputs is what NotCleanReasons, Clean and Verdict read of one
// ended session, as Reader.SessionVerdictInputs returns it for a page of
// sessions: only the columns the decision reads, never an evidence body.
//   - Phases: PhaseID, Status, Level and Decision of each phase result, in
//     PhaseResults' order; Checks only when Decision is "" and they hold
//     NothingCheckedMark (ResultDecision looks in them for nothing else).
//   - Violations: ID, Phase, Severity, Code and CreatedAt, in
//     ListViolations' order (newest first), all of them.
//   - Marks: the evidence rows that may be not-applicable marks (step
//     not_applicable or condition): ID, Phase, Step, Requirement, Ref,
//     SHA256 and Origin, in recorded order. isNAMark still decides which
//     are marks.
type VerdictInputs struct {
	Phases     []PhaseResult
	Violations []Violation
	Marks      []Evidence
}

// NothingCheckedMark is the text that ends the message of a check that ran
// and checked nothing: a store reading verdict inputs may skip decoding
// the checks of a result whose stored checks do not contain it (json
// escapes none of its characters).
const NothingCheckedMark = nothingCheckedMark

// SortVerdictInputs puts each session's rows in the order the per-session
// reads return them (phases by ord, violations newest first, marks by
// id), so the stores need no ORDER BY that could turn an index search
// into a scan of the table; phaseOrd holds each phase row's insertion
// order (SQLite rowid, PostgreSQL ord) by session and phase id.
func SortVerdictInputs(in map[string]*VerdictInputs, phaseOrd map[string]map[string]int64) {
	for id, v := range in {
		ord := phaseOrd[id]
		slices.SortStableFunc(v.Phases, func(a, b PhaseResult) int { return cmp.Compare(ord[a.PhaseID], ord[b.PhaseID]) })
		slices.SortStableFunc(v.Violations, func(a, b Violation) int {
			if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
				return c
			}
			return cmp.Compare(b.ID, a.ID)
		})
		slices.SortStableFunc(v.Marks, func(a, b Evidence) int { return cmp.Compare(a.ID, b.ID) })
	}
}

// VerdictViews reads the verdict inputs of the ended sessions of a page in
// one batch (Reader.SessionVerdictInputs) and returns, by session id, the
// view NotCleanReasons, Clean and Verdict decide on: the same view
// VerdictView reads with three reads per session. Running sessions have
// no entry (no verdict yet). Only a session with a not-applicable mark
// reads its protocol (a mark's standing depends on the phase it marks).
func (e *Engine) VerdictViews(ctx context.Context, ss []*Session) (map[string]*StateView, error) {
	out := map[string]*StateView{}
	var ids []string
	for _, s := range ss {
		if !s.Active() {
			ids = append(ids, s.ID)
		}
	}
	if len(ids) == 0 {
		return out, nil
	}
	in, err := e.Store.SessionVerdictInputs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("read the verdicts of %d session(s): %w", len(ids), err)
	}
	for _, s := range ss {
		if s.Active() {
			continue
		}
		vi := in[s.ID]
		if vi == nil {
			vi = &VerdictInputs{}
		}
		v := &StateView{Session: s, Phases: vi.Phases, Violations: vi.Violations}
		if slices.ContainsFunc(vi.Marks, isNAMark) {
			spec, err := e.SpecFor(ctx, s.ProtocolSHA)
			if err != nil {
				return nil, fmt.Errorf("session %s: %w", s.ID, err)
			}
			v.NotApplicable = e.naMarks(ctx, s, spec, vi.Marks)
		}
		out[s.ID] = v
	}
	return out, nil
}
