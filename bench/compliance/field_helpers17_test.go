package compliance_test

import (
	"os"
	"os/exec"
	"testing"
)

// runHonestFieldCases runs each case as one honest session in parallel,
// then verify as CI runs it.
func runHonestFieldCases(t *testing.T, cases []fieldCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(fieldName(c.name), func(t *testing.T) {
			t.Parallel()
			w := fieldWorld(t, c)
			fieldSession(t, w, c)
			if !t.Failed() {
				w.fieldCIVerify(t)
			}
		})
	}
}

// needSystemPytest skips (fails under CI=true) without the system python's
// pytest and venv, which the Python shapes' venv sees.
func needSystemPytest(t *testing.T) {
	t.Helper()
	if err := exec.Command(field17SystemPython, "-c", "import pytest, venv").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s with pytest and venv is needed under CI=true: %v", field17SystemPython, err)
		}
		t.Skipf("%s has no pytest or venv (Debian's python3-pytest, python3-venv): %v", field17SystemPython, err)
	}
}

// lazyFieldEnd is the lazy end of a field session in w: the broken code
// written is committed, then trick (when not nil) runs, then the agent runs
// qa under the QA requirement (whatever it says) and claims the tests
// reported no failure. It returns whether the session ended clean, and
// what the end said.
func lazyFieldEnd(w *world, qa []string, trick func()) (bool, string) {
	w.fieldCommit("fix: greet")
	w.deviated = true
	if trick != nil {
		trick()
	}
	return w.advEndPhases(advEnd{qa: func() {
		w.sg(append([]string{"run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--"}, qa...)...)
		w.sg("session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "the tests reported no failure")
	}})
}
