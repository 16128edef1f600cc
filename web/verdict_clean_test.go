package web

import (
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestVerdictNeverCleanWithFailedGate: "Completed cleanly" only when no
// violation and no gate failed; a failed gate that did not block (an
// optional phase, skipped) is a warning; unknown gates (the list) say
// "no violations", not "cleanly".
func TestVerdictNeverCleanWithFailedGate(t *testing.T) {
	tests := []struct {
		name   string
		failed int
		text   string
		class  string
	}{
		{"clean", 0, "Completed cleanly", "v-clean"},
		{"one failed gate", 1, "Completed with 1 failed gate (not blocking)", "v-warn"},
		{"two failed gates", 2, "Completed with 2 failed gates (not blocking)", "v-warn"},
		{"gates unknown", -1, "Completed, no violations", "v-clean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := verdictOf(session.StateComplete, SeverityCounts{}, tt.failed)
			if v.Text != tt.text || v.Class != tt.class {
				t.Errorf("verdict = %q %s, want %q %s", v.Text, v.Class, tt.text, tt.class)
			}
		})
	}
	d := SessionDetail{Session: &session.Session{State: session.StateComplete}, Timeline: []TimelineEntry{
		{Result: &session.PhaseResult{Status: session.PhasePassed}},
		{Result: &session.PhaseResult{Status: session.PhaseSkipped, Decision: "CONDITION_NOT_MET"}},
		{Result: &session.PhaseResult{Status: session.PhaseSkipped, Checks: []session.CheckResult{{Status: session.StatusFail}}}},
	}}
	if got := d.Verdict().Text; got != "Completed with 1 failed gate (not blocking)" {
		t.Errorf("detail verdict = %q: a skipped gate whose check failed must count, a condition not met must not", got)
	}
}
