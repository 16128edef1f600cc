package server

import (
	"strconv"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/web"
)

// timeline lays the pinned protocol's phases out in walk order (start
// phases, the work, end phases) with the session's results, requirements
// and evidence; results for phases the protocol does not have come last.
// Each piece of evidence is placed once: under its requirement, else under
// its phase; evidence for a phase not shown is returned apart.
func timeline(s *session.Session, spec *protocolspec.Spec, rs []session.PhaseResult, ev []session.Evidence) ([]web.TimelineEntry, []session.Evidence) {
	byPhase := map[string]*session.PhaseResult{}
	for i := range rs {
		byPhase[rs[i].PhaseID] = &rs[i]
	}
	evBy := map[string][]session.Evidence{}
	for _, e := range ev {
		evBy[e.Phase] = append(evBy[e.Phase], e)
	}
	entry := func(p protocolspec.Phase, known bool) web.TimelineEntry {
		t := web.TimelineEntry{Phase: p, Known: known, Status: session.PhasePending,
			Current: s.Active() && s.Phase == p.ID}
		if r := byPhase[p.ID]; r != nil {
			t.Result, t.Status = r, r.Status
			if t.Status == "" {
				t.Status = session.PhasePending
			}
		}
		t.Unreached = !s.Active() && t.Result == nil
		t.Reqs, t.Evidence = requirementRows(p, t.Result, evBy[p.ID])
		return t
	}
	var out []web.TimelineEntry
	shown := map[string]bool{}
	if spec != nil {
		for _, section := range []string{protocolspec.SectionStart, protocolspec.SectionEnd} {
			if section == protocolspec.SectionEnd {
				// Evidence recorded while working (commits by the post-commit
				// hook, mostly) belongs to no phase: it goes with the work.
				out = append(out, web.TimelineEntry{WorkingGap: true, Current: s.State == session.StateWorking, Evidence: evBy[""]})
				shown[""] = true
			}
			for _, p := range spec.SectionPhases(section) {
				out = append(out, entry(p, true))
				shown[p.ID] = true
			}
		}
	}
	for _, r := range rs {
		if !shown[r.PhaseID] {
			out = append(out, entry(protocolspec.Phase{ID: r.PhaseID, Gate: r.Level}, false))
			shown[r.PhaseID] = true
		}
	}
	waited(s, out)
	var other []session.Evidence
	for _, e := range ev {
		if !shown[e.Phase] {
			other = append(other, e)
		}
	}
	return out, other
}

// requirementRows pairs a phase's requirements with the evidence recorded
// for them and the requirements its last check left open; the rest of the
// phase's evidence is returned apart.
func requirementRows(p protocolspec.Phase, r *session.PhaseResult, ev []session.Evidence) ([]web.ReqRow, []session.Evidence) {
	open := map[string]string{}
	if r != nil {
		for _, c := range r.Checks {
			for _, o := range c.Open {
				open[o.ID] = o.Reason
			}
		}
	}
	rows := make([]web.ReqRow, 0, len(p.Requirements))
	idx := map[string]int{}
	for _, q := range p.Requirements {
		idx[q.ID] = len(rows)
		rows = append(rows, web.ReqRow{Req: q, Open: open[q.ID]})
	}
	var rest []session.Evidence
	for _, e := range ev {
		i, ok := idx[e.Requirement]
		if e.Requirement == "" || !ok {
			rest = append(rest, e)
			continue
		}
		rows[i].Evidence = append(rows[i].Evidence, e)
		if e.Step == session.StepNotApplicable {
			rows[i].NA = true
		}
	}
	return rows, rest
}

// waited sets how long the session stood in each phase whose gate settled:
// from when the phase was entered to when it settled. A start phase is
// entered when the session starts or the previous one settles; an end
// phase after the first when the previous end phase settles. The first
// end phase's entry (the end of the work) is not recorded, so it gets none.
func waited(s *session.Session, ts []web.TimelineEntry) {
	entered := s.CreatedAt
	for i := range ts {
		t := &ts[i]
		if t.WorkingGap {
			entered = time.Time{} // unknown: when the work ended
			continue
		}
		if t.Result == nil || t.Result.EndedAt.IsZero() {
			continue
		}
		if !entered.IsZero() {
			t.Waited = web.Between(entered, t.Result.EndedAt)
		}
		entered = t.Result.EndedAt
	}
}

// fixes are the CLI commands that move a running session on: for each
// open requirement of the current phase, record its evidence (observed,
// through sessiongate run) or mark it not applicable; then check the gate
// and advance. Ids are UUIDs and phase/requirement ids are protocol
// identifiers, so the commands need no quoting beyond the placeholders.
func fixes(s *session.Session, pos web.Position, ts []web.TimelineEntry) []web.Fix {
	if !s.Active() {
		return nil
	}
	id := s.ID
	var out []web.Fix
	if pos.Block == web.BlockPolicy {
		out = append(out, web.Fix{What: "see why the call was refused and what the rule wants", Command: "sessiongate session status " + id})
	}
	for _, t := range ts {
		if !t.Current || t.WorkingGap {
			continue
		}
		n := 0
		for _, r := range t.Reqs {
			if len(r.Evidence) > 0 || (r.Open == "" && t.Result != nil) || !isMust(r.Req.Level) {
				continue
			}
			if n++; n > 5 {
				break
			}
			out = append(out, web.Fix{What: "run the check for " + r.Req.ID + " so sessiongate observes it",
				Command: "sessiongate run --phase " + t.Phase.ID + " --requirement " + r.Req.ID + " -- <command>"})
			if r.Req.Conditional {
				out = append(out, web.Fix{What: "or record that " + r.Req.ID + " does not apply",
					Command: "sessiongate session evidence " + id + " --phase " + t.Phase.ID + " --requirement " + r.Req.ID + ` --not-applicable "<reason>"`})
			}
		}
		for _, c := range t.Phase.Checks {
			if c.Kind == protocolspec.CheckEvidence {
				out = append(out, web.Fix{What: "record " + c.Arg + " evidence for " + t.Phase.ID,
					Command: "sessiongate session evidence " + id + " --phase " + t.Phase.ID + " --type " + c.Arg + ` --value "<evidence>"`})
			}
		}
		out = append(out,
			web.Fix{What: "check the gate again", Command: "sessiongate session gate " + id},
			web.Fix{What: "then advance", Command: "sessiongate session advance " + id})
	}
	if len(out) > 0 && len(out) > 12 {
		out = append(out[:11], web.Fix{What: strconv.Itoa(len(out)-11) + " more: see", Command: "sessiongate session status " + id})
	}
	return out
}

func isMust(level string) bool {
	return level == protocolspec.LevelMust || level == protocolspec.LevelMustNot
}

// markPendingNA flags the requirement rows whose not-applicable mark waits
// for a person's acceptance.
func markPendingNA(ts []web.TimelineEntry, marks []session.NAMark) {
	pending := map[string]bool{}
	for _, m := range session.PendingNA(marks) {
		if m.Requirement != "" {
			pending[m.Requirement] = true
		}
	}
	if len(pending) == 0 {
		return
	}
	for i := range ts {
		for j := range ts[i].Reqs {
			if ts[i].Reqs[j].NA && pending[ts[i].Reqs[j].Req.ID] {
				ts[i].Reqs[j].NAPending = true
			}
		}
	}
}
