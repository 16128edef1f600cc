package reportverdict

import "testing"

// TestOf: the verdict a report states of itself, in the shapes QA reports
// take; output quoted in a fence and words that are no verdict are not one.
func TestOf(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		word       string // "" for no verdict
		failed     bool
		line       int
	}{
		{"bold list label", "# QA Report\n\n- **Session**: 02\n- **Verdict**: PASS\n", "PASS", false, 4},
		{"bold list label, fail", "# QA Report\n\n- **Verdict**: FAIL\n", "FAIL", true, 3},
		{"helper 353's report", "# QA Report: greet\n\n## Verdict\n\nFAIL. Critical: the login flow drops the session cookie.\n", "FAIL", true, 5},
		{"the team's CRITICAL_FAIL", "## Summary\n\n**Verdict:** CRITICAL_FAIL\n", "CRITICAL_FAIL", true, 3},
		{"WARN is a pass", "Verdict: WARN (two style nits)\n", "WARN", false, 1},
		{"pass with warnings", "**Overall Status**: PASS WITH WARNINGS\n", "PASS WITH WARNINGS", false, 1},
		{"table row", "| Field | Value |\n| --- | --- |\n| Verdict | **NOT READY** |\n", "NOT READY", true, 3},
		{"qa status heading with value", "### QA Status: BLOCKED\n", "BLOCKED", true, 1},
		{"emoji", "- Result: ❌ failed\n", "❌ failed", true, 1},
		{"changes requested", "Recommendation: changes requested before merge\n", "changes requested", true, 1},
		{"re-run after the fix: the last whole verdict counts", "## Run 1\n\nVerdict: FAIL\n\n## Run 2\n\nVerdict: PASS\n", "PASS", false, 7},
		{"a later failure counts too", "Verdict: PASS\n\nAfter the last change:\n\nVerdict: FAIL\n", "FAIL", true, 5},
		{"item statuses: any failure", "- check a: Status: PASS\n\n### b\n\nStatus: FAIL\n\n### c\n\nStatus: PASS\n", "FAIL", true, 5},
		{"the whole verdict over item statuses", "Status: FAIL\n\nStatus: PASS\n\n**Final verdict**: PASS\n", "PASS", false, 5},
		// Not verdicts.
		{"fenced output", "```text\nFAIL: TestGreet\nStatus: FAIL\n```\n", "", false, 0},
		{"status that is no verdict", "- **Status**: Complete\n- **Result**: the name is printed\n", "", false, 0},
		{"counts are not a verdict", "Test result: 12 passed, 0 failed\n", "", false, 0},
		{"no label", "All checks passed.\n", "", false, 0},
		{"a heading over prose", "## Result\n\nThe name check runs.\n", "", false, 0},
		{"word inside another", "Status: Failover tested\n", "", false, 0},
	} {
		v, ok := Of(tt.text)
		switch {
		case tt.word == "" && ok:
			t.Errorf("%s: verdict %q at line %d, want none", tt.name, v.Word, v.Line)
		case tt.word != "" && !ok:
			t.Errorf("%s: no verdict, want %q", tt.name, tt.word)
		case ok && (v.Word != tt.word || v.Failed != tt.failed || v.Line != tt.line):
			t.Errorf("%s: %+v, want %q failed=%v line %d", tt.name, v, tt.word, tt.failed, tt.line)
		}
	}
}
