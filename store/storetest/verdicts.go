package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// verdictProtocol is the protocol the verdict sessions pinned: a BLOCKING
// phase, a RECOMMENDED one without a condition (a not-applicable mark on
// it waits for a person) and a REQUIRED one.
const verdictProtocol = `# Session Protocol

## Session Start

### Phase 1: Context Retrieval (BLOCKING)

<!-- gate: evidence tool_output -->

1. The agent MUST read the handoff notes and record what it read.

### Phase 2: Plan (RECOMMENDED)

<!-- gate: evidence manual -->

1. The agent SHOULD write down what it will change.

## Session End

### Phase 1: QA Validation (REQUIRED)

<!-- gate: evidence tool_output -->

1. The agent MUST run the tests and record their output.
`

// nothingCheckedMessage ends the message of a check that ran and checked
// nothing (session's nothingCheckedMark): with no decision stored, the
// verdict finds it in the checks.
const nothingCheckedMessage = "ruff linted 0 files: nothing was checked, which is not a pass"

// testSessionVerdictInputs: the batched read of a page's verdicts
// (Reader.SessionVerdictInputs through Engine.VerdictViews) says exactly
// what the per-session read says (Engine.VerdictView: PhaseResults,
// ListViolations, ListEvidence), for a session of every not-clean kind
// session.NotCleanReasons names and for the clean ones beside them, and
// reads no evidence body.
func testSessionVerdictInputs(t *testing.T, open Opener) {
	ctx := context.Background()
	db := open(t)
	e := session.NewEngine(db, session.Config{}, nil)
	spec, err := e.LoadSpec(ctx, "SESSION-PROTOCOL.md", []byte(verdictProtocol))
	if err != nil {
		t.Fatal(err)
	}
	planReq := ""
	if p, ok := spec.Phase("PLAN"); ok && len(p.Requirements) > 0 {
		planReq = p.Requirements[0].ID
	}
	if planReq == "" {
		t.Fatalf("the protocol's PLAN phase has no requirement: %+v", spec.Phases)
	}
	passed := func(id string) session.PhaseResult {
		return session.PhaseResult{PhaseID: id, Status: session.PhasePassed, Level: protocolspec.GateBlocking, Message: "passed",
			Checks: []session.CheckResult{{Kind: "evidence", Status: session.StatusPass, Message: "1 tool_output evidence"}}}
	}
	nothing := []session.CheckResult{{Kind: "command", Status: session.StatusSkipped, Message: nothingCheckedMessage}}
	claimed := func(phase, step, req, reason string) session.Evidence {
		return session.Evidence{Phase: phase, Step: step, Requirement: req, Kind: session.EvidenceManual, Ref: reason,
			SHA256: fmt.Sprintf("%064x", len(reason)), Size: len(reason), Body: []byte(reason + " (the body)")}
	}
	observed := func(phase, step string) session.Evidence {
		code := 0
		return session.Evidence{Phase: phase, Step: step, Kind: session.EvidenceToolOutput, Ref: "go test ./...", Origin: session.OriginObserved,
			Command: "go test ./...", ExitCode: &code, SHA256: strings.Repeat("ab", 32), Size: 10}
	}
	type vio struct {
		sev, code string
		at        int // minutes after the session's start
	}
	cases := []struct {
		name       string
		state      session.State
		phases     []session.PhaseResult
		violations []vio
		evidence   []session.Evidence
		want       string // in the verdict line; "" for a clean one
	}{
		{name: "clean", state: session.StateComplete, phases: []session.PhaseResult{passed("CONTEXT_RETRIEVAL"), passed("QA_VALIDATION")},
			evidence: []session.Evidence{observed("QA_VALIDATION", "")}},
		{name: "forced", state: session.StateComplete, phases: []session.PhaseResult{passed("CONTEXT_RETRIEVAL"),
			{PhaseID: "QA_VALIDATION", Status: session.PhaseForced, Level: protocolspec.GateRequired, Decision: "FORCED"}},
			want: session.NotCleanForced + " QA_VALIDATION"},
		{name: "failed gate skipped", state: session.StateComplete, phases: []session.PhaseResult{
			{PhaseID: "PLAN", Status: session.PhaseSkipped, Level: protocolspec.GateRecommended, Decision: "SKIPPED: gate failed (RECOMMENDED)"}},
			want: session.NotCleanSkipped + " PLAN"},
		{name: "nothing checked, decided", state: session.StateComplete, phases: []session.PhaseResult{
			{PhaseID: "QA_VALIDATION", Status: session.PhasePassed, Level: protocolspec.GateRequired, Decision: session.DecisionNothingChecked}},
			want: session.NotCleanNothingChecked + " QA_VALIDATION"},
		// No decision stored: the verdict reads the checks.
		{name: "nothing checked, in the checks", state: session.StateComplete, phases: []session.PhaseResult{
			{PhaseID: "QA_VALIDATION", Status: session.PhaseSkipped, Level: protocolspec.GateRequired, Checks: nothing}},
			want: session.NotCleanNothingChecked + " QA_VALIDATION"},
		// A decision stored: the checks are not read, and do not count.
		{name: "condition not met beside a check of nothing", state: session.StateComplete, phases: []session.PhaseResult{
			{PhaseID: "QA_VALIDATION", Status: session.PhaseSkipped, Level: protocolspec.GateRequired, Decision: "CONDITION_NOT_MET", Checks: nothing}}},
		{name: "violations", state: session.StateComplete, phases: []session.PhaseResult{passed("CONTEXT_RETRIEVAL")},
			// Named newest first (two at once: the later recorded first).
			violations: []vio{{session.SeverityHigh, "FORCED_ADVANCE", 1}, {session.SeverityLow, "SEQUENCE_RULE", 5}, {session.SeverityMedium, "BYPASS", 5}},
			want:       "3 violation(s) (MEDIUM BYPASS, LOW SEQUENCE_RULE, HIGH FORCED_ADVANCE)"},
		{name: "pending N/A on a phase", state: session.StateComplete, phases: []session.PhaseResult{passed("CONTEXT_RETRIEVAL")},
			evidence: []session.Evidence{claimed("PLAN", session.StepCondition, "", "a typo fix needs no written plan")},
			want:     "1 N/A pending acceptance (phase PLAN)"},
		// Among many other rows, as a session with agent hooks has them.
		{name: "pending N/A on a requirement", state: session.StateComplete, phases: []session.PhaseResult{passed("CONTEXT_RETRIEVAL")},
			evidence: append(repeat(observed("CONTEXT_RETRIEVAL", ""), 30), claimed("PLAN", session.StepNotApplicable, planReq, "the change is one line, nothing to plan")),
			want:     "1 N/A pending acceptance (" + planReq + ")"},
		// Rows of the marks' steps that are not marks: observed, or an
		// unknown phase.
		{name: "not marks", state: session.StateComplete, phases: []session.PhaseResult{passed("CONTEXT_RETRIEVAL")},
			evidence: []session.Evidence{observed("PLAN", session.StepNotApplicable), claimed("NO_SUCH_PHASE", session.StepNotApplicable, "", "no such phase here at all")}},
		{name: "every kind at once", state: session.StateComplete, phases: []session.PhaseResult{
			{PhaseID: "CONTEXT_RETRIEVAL", Status: session.PhaseForced, Level: protocolspec.GateBlocking},
			{PhaseID: "PLAN", Status: session.PhaseSkipped, Level: protocolspec.GateRecommended, Decision: "SKIPPED: gate failed (RECOMMENDED)"},
			{PhaseID: "QA_VALIDATION", Status: session.PhaseSkipped, Level: protocolspec.GateRequired, Checks: nothing}},
			violations: []vio{{session.SeverityCritical, "BYPASS", 2}},
			evidence:   []session.Evidence{claimed("PLAN", session.StepCondition, "", "a typo fix needs no written plan")},
			want:       "1 violation(s) (CRITICAL BYPASS); forced past failing gate(s) CONTEXT_RETRIEVAL; failing gate(s) skipped: PLAN; " + session.NotCleanNothingChecked + " QA_VALIDATION; 1 N/A pending acceptance (phase PLAN)"},
		{name: "abandoned", state: session.StateAbandoned, phases: []session.PhaseResult{passed("CONTEXT_RETRIEVAL")}},
		{name: "terminated with a violation", state: session.StateTerminated, violations: []vio{{session.SeverityHigh, "FORCED_ADVANCE", 1}},
			want: "1 violation(s) (HIGH FORCED_ADVANCE)"},
		{name: "running", state: session.StateWorking, phases: []session.PhaseResult{passed("CONTEXT_RETRIEVAL")}},
	}
	ids := make([]string, len(cases))
	update(t, db, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/verdicts", "verdicts")
		if err != nil {
			return err
		}
		for i, c := range cases {
			start := minute(10 * i)
			ids[i] = sid(100 + i)
			s := &session.Session{ID: ids[i], RepoID: repo.ID, Worktree: "/verdicts", Branch: "main", ProtocolSHA: spec.SHA256,
				Objective: c.name, State: c.state, CreatedAt: start, LastActivity: start.Add(time.Minute), ExpiresAt: start.Add(24 * time.Hour)}
			if !s.Active() {
				s.EndedAt = start.Add(9 * time.Minute)
			}
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
			for j, p := range c.phases {
				p.SessionID, p.StartedAt = s.ID, start.Add(time.Duration(j)*time.Second)
				if err := w.PutPhaseResult(ctx, p); err != nil {
					return err
				}
			}
			for _, v := range c.violations {
				if err := w.AddViolation(ctx, &session.Violation{SessionID: s.ID, Phase: "QA_VALIDATION", Severity: v.sev, Code: v.code,
					Message: "m", Window: session.WindowSession, CreatedAt: start.Add(time.Duration(v.at) * time.Minute)}); err != nil {
					return err
				}
			}
			for _, x := range c.evidence {
				x.SessionID, x.CreatedAt = s.ID, start.Add(2*time.Minute)
				if err := w.AddEvidence(ctx, &x); err != nil {
					return err
				}
			}
		}
		return nil
	})
	// The page as a listing reads it (newest first), with an id no
	// session has.
	ss, err := db.ListSessions(ctx, session.SessionFilter{Repo: "/verdicts", Limit: 100})
	if err != nil || len(ss) != len(cases) {
		t.Fatalf("ListSessions: %d sessions, %v; want %d", len(ss), err, len(cases))
	}
	batched, err := e.VerdictViews(ctx, ss)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*session.Session{}
	for _, s := range ss {
		byID[s.ID] = s
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := byID[ids[i]]
			got := batched[s.ID]
			if s.Active() {
				if got != nil {
					t.Errorf("a running session has a verdict: %q", session.Verdict(got))
				}
				return
			}
			want, err := e.VerdictView(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Fatalf("no batched verdict; the per-session read says %q", session.Verdict(want))
			}
			mustEqual(t, "Verdict", session.Verdict(got), session.Verdict(want))
			mustEqual(t, "NotCleanReasons", session.NotCleanReasons(got), session.NotCleanReasons(want))
			mustEqual(t, "Clean", fmt.Sprint(deref(session.Clean(got))), fmt.Sprint(deref(session.Clean(want))))
			mustEqual(t, "PendingNA", session.PendingNA(got.NotApplicable), session.PendingNA(want.NotApplicable))
			// Not vacuous: the verdict is the one this kind calls for.
			line := session.Verdict(got)
			switch {
			case c.want != "" && !strings.Contains(line, c.want):
				t.Errorf("verdict %q, want it to say %q", line, c.want)
			case c.want == "" && c.state == session.StateComplete && !strings.Contains(line, "clean (every gate passed"):
				t.Errorf("verdict %q, want clean", line)
			}
		})
	}
	in, err := db.SessionVerdictInputs(ctx, append(ids, sid(999), ids[0]))
	if err != nil {
		t.Fatal(err)
	}
	for id, v := range in {
		for _, m := range v.Marks {
			if m.Body != nil || m.Step != session.StepNotApplicable && m.Step != session.StepCondition {
				t.Errorf("session %s: a verdict read %s evidence with its body (%q)", id, m.Step, m.Body)
			}
		}
	}
	if v := in[sid(999)]; v != nil && (len(v.Phases)+len(v.Violations)+len(v.Marks)) > 0 {
		t.Errorf("an unknown id read rows: %+v", v)
	}
	if out, err := db.SessionVerdictInputs(ctx, nil); err != nil || len(out) != 0 {
		t.Errorf("SessionVerdictInputs(no ids) = %v, %v; want nothing", out, err)
	}
}

func repeat(x session.Evidence, n int) []session.Evidence {
	out := make([]session.Evidence, n)
	for i := range out {
		out[i] = x
	}
	return out
}

func deref(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}
