package reportverdict

import "testing"

// TestR62H358Verdict: failing verdicts spelled so the first reader missed
// them (a third table column, a mark alone, a label on its own line, a
// numbered item, brackets, "REJECT", "Overall"), and honest values it read
// as failures (a hyphenated word, a failure the clause says is over, a
// re-run's arrow, a template's choice, a header row).
func TestR62H358Verdict(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		failed     bool // with ok: want a verdict that fails
		ok         bool
	}{
		// Lazy: a failing verdict the reader must see.
		{"three-column table", "| Field | Value | Notes |\n| --- | --- | --- |\n| Verdict | FAIL | 3 tests fail |\n", true, true},
		{"overall row under a header", "| Check | Status | Notes |\n|---|---|---|\n| Tests | FAIL | 3 |\n| Overall | FAIL | see above |\n", true, true},
		{"a mark alone", "# QA\n\n**Result** — ❌\n", true, true},
		{"a red circle alone", "**Verdict:** 🔴\n", true, true},
		{"a mark before the label", "## ❌ Verdict: FAIL\n", true, true},
		{"label on its own line", "**Verdict**\n\nFAIL — the name is dropped\n", true, true},
		{"label with colon on its own line", "Verdict:\n\nNOT READY\n", true, true},
		{"numbered item", "1. Verdict: FAIL\n", true, true},
		{"bracketed", "Verdict: [FAIL]\n", true, true},
		{"quoted", "Verdict: \"FAIL\"\n", true, true},
		{"warning mark", "Verdict: ⚠️ NOT READY\n", true, true},
		{"reject", "Verdict: REJECT\n", true, true},
		{"do not ship", "Verdict: DO NOT SHIP\n", true, true},
		{"tests failing", "Verdict: Tests failing\n", true, true},
		{"error alone", "Verdict: ERROR\n", true, true},
		{"incomplete alone", "QA Verdict: INCOMPLETE\n", true, true},
		{"overall label", "Overall: FAIL\n", true, true},
		{"struck pass", "Verdict: ~~PASS~~ FAIL\n", true, true},
		{"a template's choice after the verdict", "Verdict: FAIL\n\n---\nChecklist\n\n- Verdict: PASS/FAIL\n", true, true},
		// Honest: no failing verdict.
		{"a hyphenated word", "Verdict: Fail-safe path verified\n", false, false},
		{"red-team", "Result: Red-team checks pass\n", false, false},
		{"a failure that is over", "Verdict: Blocking issues resolved; PASS\n", false, true},
		{"a failing test that now passes", "Test result: Failing test from session 12 now passes\n", false, false},
		{"a re-run's arrow", "Verdict: FAIL → PASS after the fix\n", false, true},
		{"error handling", "Result: Error handling verified for empty names\n", false, false},
		{"a header row", "| Result | Fail count |\n| --- | --- |\n| unit | 0 |\n", false, false},
		{"three-column pass", "| Verdict | PASS | FAIL: none |\n", false, true},
		{"a pass mark alone", "**Result** — ✅\n", false, true},
	} {
		v, ok := Of(tt.text)
		if ok != tt.ok || ok && v.Failed != tt.failed {
			t.Errorf("%s: %+v ok=%v, want ok=%v failed=%v", tt.name, v, ok, tt.ok, tt.failed)
		}
	}
}
