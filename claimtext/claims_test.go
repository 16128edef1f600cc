package claimtext

import "testing"

// TestFailure: output that reports its own failure is found; success
// output that mentions zero failures, or words such as "errors.go", is not
// (a false refusal makes an honest agent pad).
func TestFailure(t *testing.T) {
	cases := []struct {
		body string
		fail bool
	}{
		{"6 validation(s) failed rc=1", true},
		{"exit code 1", true},
		{"Process exited with code 2", true},
		{"exit status 1", true},
		{"returncode: 3", true},
		{"FAILED tests/test_x.py::test_a", true},
		{"--- FAIL: TestX (0.00s)\nFAIL\tpkg\t0.1s", true},
		{"Summary: 4 error(s)", true},
		{"Found 3 errors in 2 files", true},
		{"2 tests failed, 10 passed", true},
		{"fatal: not a git repository", true},
		{"error: pathspec 'x' did not match", true},
		{"npm ERR! code ELIFECYCLE", true},
		{"bash: markdownlint: command not found", true},
		{"Traceback (most recent call last):\n  File x", true},
		{"BUILD FAILED in 3s", true},
		{"Summary: 0 error(s)", false},
		{"12 passed, 0 failed", false},
		{"0 errors, 0 warnings", false},
		{"Tests: 0 FAILED, 40 passed", false},
		{"exit code 0", false},
		{"rc=0", false},
		{"ok  \tgithub.com/x/y\t0.3s", false},
		{"modified: session/errors.go", false},
		{"On branch feat/x\nnothing to commit, working tree clean", false},
		{"handled the error case in parse.go; no failures", false},
		{"sh -c 'sh scripts/test.sh 2>&1 | tail -5' reported no failure", false},
		{"scripts/test.sh passed 1 of 1 with no failures", false},
		{"pytest -n 4 reported no failures", false},
		{"3 tests not failing now, 2 failed", true},
		{"4 reported failures", true},
		{"linted 14 file(s)", false},
		// A failure told as the start of its fix (honest pass 47's Q1).
		{"first run: trailing space without a name (1 failed); fixed in greet.sh; rerun: 1 validation(s) passed", false},
		{"2 tests failed; re-ran after fixing the fixture: 12 passed", false},
		{"1 failed; fixed it; rerun passed, then 1 failed again", true},
		{"1 failed; fixed the typo", true},
		// Round 44's re-check (helper-290): negated or deferred.
		{"1 validation(s) failed rc=1; not fixed, will rerun once someone has time and expect it to pass", true},
		{"1 validation(s) failed rc=1; fixed nothing, reran: still red though it should pass", true},
		{"1 validation(s) failed rc=1 (the fix is for the next session; rerun then should pass)", true},
		{"2 tests failed; I reran the suite and 10 passed", true},
		{"2 tests failed, 10 passed", true},
		// Honest pass 48's L4: what was expected, and what it was fixed to.
		{"first run: 1 failed (the new check expected \"helo Ada\", a typo in the test); fixed the expectation to \"hello Ada\"; rerun: 2 validation(s) passed", false},
		{"1 failed; fixed the check to compare `hello Ada`; reran: 2 passed", false},
		{"1 failed; fixed, expected to pass on a rerun; passed locally once", true},
		{"1 failed; fixed half, the rest to be fixed; 9 passed", true},
		{"1 failed; fixed the fixture, need to rerun, passed before", true},
	}
	for _, c := range cases {
		if got := Failure(c.body); (got != "") != c.fail {
			t.Errorf("Failure(%q) = %q, want failure %v", c.body, got, c.fail)
		}
	}
}

func TestPadding(t *testing.T) {
	cases := []struct {
		body string
		pad  bool
	}{
		{"ok", true}, {"OK.", true}, {" done ", true}, {"N/A", true}, {"n/a - not needed", true}, {"TODO", true},
		{"TBD: later", true}, {"skipped", true}, {"[x]", true}, {"[x] done", true}, {"✅", true}, {"-", true},
		{"Not applicable", true}, {"yes", true},
		{"ok  \tgithub.com/x/y\t0.3s", false},
		{"done: ran go test ./... (all packages ok)", false},
		{"read HANDOFF.md: last session fixed the login retry", false},
		{"skills: create-pr.ps1, get-pr-context.ps1", false},
	}
	for _, c := range cases {
		if got := Padding(c.body); (got != "") != c.pad {
			t.Errorf("Padding(%q) = %q, want padding %v", c.body, got, c.pad)
		}
	}
}
