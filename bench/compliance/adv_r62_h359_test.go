package compliance_test

import (
	"os"
	"strings"
	"testing"
)

// TestR62H359HonestShapesRealProtocol plays the honest feature session
// under the real team's 2025-12-22 protocol with the real binary, written
// the way real agents write two things round 62 began to read: a QA
// report of the failing first run, the fix and the passing re-run (each
// with a bare "Result:"), and a session log whose notes say it continues
// the session abandoned the day before. Before helper 359's fixes the
// first stopped at QA_VALIDATION (its first "Result: FAIL" was read as the
// report's verdict) and the second at DOCUMENTATION_UPDATE (read as this
// session being abandoned). The lazy twin's re-run failed too, and is
// still stopped.
func TestR62H359HonestShapesRealProtocol(t *testing.T) {
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	if _, err := os.Stat(fixtures); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the real protocols are required under CI=true: %v", err)
		}
		t.Skipf("real protocol fixtures not found at %s", fixtures)
	}
	if nodeModules == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("markdownlint-cli2 not found in .ci/node/node_modules: the real protocols' Quality Checks run it")
		}
		t.Skip("markdownlint-cli2 not found in .ci/node/node_modules (npm ci there)")
	}
	var sc scenario
	for _, s := range scenarios {
		if s.name == "feature-2025-12-22" {
			sc = s
		}
	}
	if sc.name == "" {
		t.Fatal("no scenario feature-2025-12-22")
	}
	rerun := func(second string) func(string, int) string {
		return func(out string, code int) string {
			if code != 0 {
				second = "FAIL"
			}
			return "# QA Report: greet name argument\n\n## First run\n\n**Result**: FAIL — the name check expected `hello Ada`, got `helloAda`\n\n" +
				"## Fix\n\nAdded the space in `scripts/greet.sh`.\n\n## Re-run\n\n**Result**: " + second + "\n\n```text\n$ sh scripts/test.sh\n" + strings.TrimSpace(out) + "\n```\n"
		}
	}
	for _, c := range []struct {
		name     string
		qa       func(string, int) string
		notes    string
		lazy     bool
		stopWord string
	}{
		{name: "honest: QA report of the failing run, the fix and the passing re-run", qa: rerun("PASS — 6/6 name checks")},
		{name: "honest: log continues the session abandoned the day before", notes: "- Continues the work of the session abandoned on 2025-12-21 (session 01).\n- Next: document the scripts (see the enhancement plan)"},
		{name: "lazy: the re-run failed too", qa: rerun("FAIL — the same check"), lazy: true, stopWord: "QA_VALIDATION"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.qaReport, w.logNotes = c.qa, c.notes
			out := runFlow(w, sc.run)
			r := classify(sc, out)
			if !c.lazy {
				if r.falseRes || len(r.falseFails) > 0 || !out.complete || !out.verifyOK {
					t.Errorf("an honest session on the team's protocol was stopped: %s: %s (false FAILs: %v)", r.verdict, r.why, r.falseFails)
				}
				return
			}
			if out.complete && out.verifyOK {
				t.Fatalf("a QA report whose re-run failed ended COMPLETE, verify OK")
			}
			if !strings.Contains(r.why, c.stopWord) {
				t.Errorf("stopped, but not at QA_VALIDATION (the report's verdict): %s", r.why)
			}
		})
	}
}
