package session_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// TestVerdictPreRound17Results (issue 25, item 3): phase results stored
// before the NOTHING_CHECKED decision existed carry no decision, but their
// gate's checks still say a command checked nothing. The verdict `session
// show`, `session end` and MCP give derives NOTHING_CHECKED from them, as
// settle does now; results with nothing to check, or with a decision of
// their own, keep theirs.
func TestVerdictPreRound17Results(t *testing.T) {
	checked := func(st session.GateStatus, msg string) []session.CheckResult {
		return []session.CheckResult{{Kind: protocolspec.CheckCommand, Arg: "markdownlint-cli2 docs", Status: st, Message: msg}}
	}
	nothing := "markdownlint-cli2 printed 'Linting: 0 file(s)': nothing was checked, which is not a pass (command: markdownlint-cli2 docs)"
	cases := []struct {
		name     string
		r        session.PhaseResult
		notClean string // what ResultNotClean says; "" = clean
	}{
		{"old BLOCKING result, its command checked nothing",
			session.PhaseResult{Level: protocolspec.GateBlocking, Status: session.PhaseSkipped, Checks: checked(session.StatusSkipped, nothing)},
			session.NotCleanNothingChecked},
		{"old REQUIRED result passed by another check beside it",
			session.PhaseResult{Level: protocolspec.GateRequired, Status: session.PhasePassed, Checks: append(checked(session.StatusSkipped, nothing),
				session.CheckResult{Kind: protocolspec.CheckEvidence, Status: session.StatusPass, Message: "evidence recorded"})},
			session.NotCleanNothingChecked},
		// Honest twins.
		{"old BLOCKING result with nothing to check (no matching file changed)",
			session.PhaseResult{Level: protocolspec.GateBlocking, Status: session.PhaseSkipped, Checks: checked(session.StatusSkipped, "no changed file matches *.md")},
			""},
		{"old RECOMMENDED result whose command checked nothing: optional, as settle judges it",
			session.PhaseResult{Level: protocolspec.GateRecommended, Status: session.PhaseSkipped, Checks: checked(session.StatusSkipped, nothing)},
			""},
		{"a checked condition keeps its decision",
			session.PhaseResult{Level: protocolspec.GateBlocking, Status: session.PhaseSkipped, Decision: session.DecisionConditionNotMet, Checks: checked(session.StatusSkipped, nothing)},
			""},
		{"a passing command",
			session.PhaseResult{Level: protocolspec.GateBlocking, Status: session.PhasePassed, Checks: checked(session.StatusPass, "command passed: markdownlint-cli2 docs")},
			""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.r.PhaseID = "QA_VALIDATION"
			if got := session.ResultNotClean(c.r); got != c.notClean {
				t.Errorf("ResultNotClean = %q, want %q", got, c.notClean)
			}
			v := &session.StateView{Session: &session.Session{State: session.StateComplete}, Phases: []session.PhaseResult{c.r}}
			got := session.Verdict(v)
			if clean := strings.Contains(got, ": clean"); clean != (c.notClean == "") {
				t.Errorf("Verdict = %q, want clean=%v", got, c.notClean == "")
			}
			if c.notClean != "" && !strings.Contains(got, c.notClean+" QA_VALIDATION") {
				t.Errorf("Verdict = %q, want it to name QA_VALIDATION after %q", got, c.notClean)
			}
		})
	}
}
