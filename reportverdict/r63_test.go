package reportverdict

import "testing"

// Round 62's open LOW row: a verdict in single-underscore emphasis, in an
// HTML comment, or in fullwidth letters was no verdict, so a failing
// report read as one without a verdict.
func TestR63VerdictSpellings(t *testing.T) {
	for _, tc := range []struct {
		text   string
		ok     bool
		failed bool
	}{
		{"# QA\n\n**Verdict:** _FAIL_\n", true, true},
		{"# QA\n\n<!-- Verdict: FAIL -->\n\nSee below.\n", true, true},
		{"# QA\n\nVerdict: ＦＡＩＬ\n", true, true},
		// Honest twins.
		{"# QA\n\n**Verdict:** _PASS_\n", true, false},
		{"# QA\n\n<!-- Verdict: PASS -->\n", true, false},
		{"# QA\n\n<!-- fill in the verdict below -->\n\nNotes only.\n", false, false},
		{"# QA\n\nStatus: fail_fast enabled for the suite\n", false, false},
	} {
		v, ok := Of(tc.text)
		if ok != tc.ok || v.Failed != tc.failed {
			t.Errorf("Of(%q) = %+v, %v; want ok %v failed %v", tc.text, v, ok, tc.ok, tc.failed)
		}
	}
}
