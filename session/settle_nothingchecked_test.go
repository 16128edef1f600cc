package session

import (
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// A mandatory gate whose command checked nothing is not clean whether or
// not another check of the same gate passed: evidence the agent records
// itself must not hide a linter that linted 0 files (review of round 17).
func TestSettleNothingCheckedBesidePass(t *testing.T) {
	nothing := CheckResult{Kind: "command", Arg: "npx markdownlint-cli2 '**/*.md'", Status: StatusSkipped,
		Message: "Linting: 0 file(s): " + nothingCheckedMark}
	pass := CheckResult{Kind: "evidence", Status: StatusPass, Message: "evidence recorded"}
	toCheck := CheckResult{Kind: "command", Status: StatusSkipped, Message: "nothing to check: no matching file changed"}
	for _, tc := range []struct {
		name   string
		level  protocolspec.GateLevel
		status GateStatus
		checks []CheckResult
		want   string // PhaseNotClean's answer
	}{
		{"blocking, nothing checked alone", protocolspec.GateBlocking, StatusSkipped, []CheckResult{nothing}, NotCleanNothingChecked},
		{"blocking, nothing checked beside a pass", protocolspec.GateBlocking, StatusPass, []CheckResult{nothing, pass}, NotCleanNothingChecked},
		{"required, nothing checked beside a pass", protocolspec.GateRequired, StatusPass, []CheckResult{pass, nothing}, NotCleanNothingChecked},
		// Honest twins.
		{"blocking, all checks passed", protocolspec.GateBlocking, StatusPass, []CheckResult{pass}, ""},
		{"blocking, nothing to check beside a pass", protocolspec.GateBlocking, StatusPass, []CheckResult{toCheck, pass}, ""},
		{"recommended, nothing checked beside a pass", protocolspec.GateRecommended, StatusPass, []CheckResult{nothing, pass}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &protocolspec.Phase{ID: "LINT", Gate: tc.level}
			g := GateResult{Phase: "LINT", Level: tc.level, Status: tc.status, Checks: tc.checks}
			out := settle(&Session{ID: "s1"}, p, g, false, "", time.Now())
			if out.blocked != nil || out.violation != nil {
				t.Fatalf("settle blocked or recorded a violation: %+v", out)
			}
			got := PhaseNotClean(string(tc.level), string(out.result.Status), out.result.Decision)
			if got != tc.want {
				t.Fatalf("PhaseNotClean = %q, want %q (status %s, decision %q)", got, tc.want, out.result.Status, out.result.Decision)
			}
		})
	}
}
