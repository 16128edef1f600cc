package reportverdict

import "testing"

// TestR62H359ReportOfRerun: an honest QA report that lists the failing
// run, the fix and the passing re-run states a pass (helper 359: before
// the fix its first "Result: FAIL" was the report's verdict, so the QA
// gate refused the honest report); its lazy twins, a re-run that failed
// too or a failing check followed by another check's pass, still fail.
func TestR62H359ReportOfRerun(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		failed     bool
	}{
		// Honest: the re-run passed.
		{"re-run under its own heading", "# QA\n\n## First run\n\n**Result**: FAIL — TestGreet failed (expected 'Hello, Ann')\n\n## Fix\n\nTrimmed the newline in scripts/greet.sh.\n\n## Re-run\n\n**Result**: PASS — 12/12 tests\n", false},
		{"result after fix label", "# QA\n\n- **Status**: FAIL (TestEmpty)\n- **Status (after fix)**: PASS\n", false},
		{"a change of verdict", "# QA\n\n**Test Result**: FAIL → PASS after the fix in abc1234\n", false},
		{"the re-run passed, in the value", "# QA\n\nResult: FAIL in the first run (missing dependency), fixed by installing it; the re-run passed.\n", false},
		// Lazy twins: still failing.
		{"the re-run failed too", "# QA\n\n## First run\n\n**Result**: FAIL\n\n## Re-run\n\n**Result**: FAIL — same test\n", true},
		{"another check's pass is no re-run", "# QA\n\n## Unit tests\n\n**Result**: FAIL\n\n## Lint\n\n**Result**: PASS\n", true},
		{"a change to fail", "# QA\n\n**Test Result**: PASS → FAIL after the last change\n", true},
		{"the value says the re-run failed", "# QA\n\nResult: FAIL; the re-run failed again.\n", true},
		{"a pass under re-run before the failure", "# QA\n\n## Re-run\n\nResult: PASS\n\n## Smoke\n\nResult: FAIL\n", true},
	} {
		v, ok := Of(tt.text)
		if !ok || v.Failed != tt.failed {
			t.Errorf("%s: Of = %+v, %v; want failed=%v", tt.name, v, ok, tt.failed)
		}
	}
}
