package cmdoutput

import "testing"

// TestRunnerFailed: each runner's failing summary is found; passing runs,
// zero counts and text that only mentions a failure are not.
func TestRunnerFailed(t *testing.T) {
	for _, c := range []struct {
		name, out, want string
	}{
		{"go test -v", "=== RUN   TestGreet\n    greet_test.go:9: got \"hi\"\n--- FAIL: TestGreet (0.00s)\nFAIL\nexit status 1\nFAIL\texample.com/greet\t0.003s\n", "--- FAIL: TestGreet (0.00s)"},
		{"go test", "--- FAIL: TestGreet (0.00s)\n    greet_test.go:9: got \"hi\"\nFAIL\nFAIL\texample.com/greet\t0.003s\nFAIL\n", "--- FAIL: TestGreet (0.00s)"},
		{"go test, package build failed", "# example.com/greet\n./greet.go:3:1: syntax error\nFAIL\texample.com/greet [build failed]\n", "FAIL\texample.com/greet [build failed]"},
		{"pytest", "tests/test_greet.py F.                                   [100%]\n=================== 1 failed, 1 passed in 0.03s ===================\n", "=================== 1 failed, 1 passed in 0.03s ==================="},
		{"pytest errors", "========================= 2 errors in 0.12s =========================\n", "========================= 2 errors in 0.12s ========================="},
		{"jest", "Test Suites: 1 failed, 1 total\nTests:       1 failed, 2 passed, 3 total\n", "Tests:       1 failed, 2 passed, 3 total"},
		{"vitest", " Test Files  1 failed (1)\n      Tests  1 failed | 2 passed (3)\n", "Tests  1 failed | 2 passed (3)"},
		{"node --test", "# tests 3\n# pass 2\n# fail 1\n", "# fail 1"},
		{"cargo", "test result: FAILED. 1 passed; 1 failed; 0 ignored\n", "test result: FAILED. 1 passed; 1 failed; 0 ignored"},
		{"mocha", "  2 passing (5ms)\n  1 failing\n", "1 failing"},
		{"rspec", "3 examples, 1 failure\n", "3 examples, 1 failure"},
		{"plain", "tests: 2 passed, 1 failed\n", "tests: 2 passed, 1 failed"},
		{"CRLF", "3 passed, 1 failed\r\n", "3 passed, 1 failed"},
		{"unittest", "F.\n----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nFAILED (failures=1)\n", "FAILED (failures=1)"},
		{"pytest -q", "F\n1 failed in 0.05s\n", "1 failed in 0.05s"},
		{"pytest -q with passes", "2 passed, 1 failed, 1 skipped in 0.12s\n", "2 passed, 1 failed, 1 skipped in 0.12s"},
		{"unittest errors", "Ran 2 tests in 0.001s\n\nFAILED (errors=2, skipped=1)\n", "FAILED (errors=2, skipped=1)"},
		// Honest: passing runs and text about failures.
		{"go test pass", "ok  \texample.com/greet\t0.003s\n", ""},
		{"go test -v pass", "=== RUN   TestGreet\n--- PASS: TestGreet (0.00s)\nPASS\nok  \texample.com/greet\t0.003s\n", ""},
		{"pytest pass", "=================== 3 passed in 0.03s ===================\n", ""},
		{"jest pass", "Tests:       3 passed, 3 total\n", ""},
		{"node --test pass", "# tests 3\n# pass 3\n# fail 0\n", ""},
		{"cargo pass", "test result: ok. 3 passed; 0 failed; 0 ignored\n", ""},
		{"plain, none failed", "3 passed, 0 failed\n", ""},
		{"grep for FAIL", "ci.log:12: FAIL\texample.com/old (fixed since)\n", ""},
		{"a sentence", "The FAIL lines are gone; 0 failing now.\n", ""},
		{"pytest -q pass", "3 passed in 0.05s\n", ""},
		{"unittest pass with skips", "Ran 3 tests in 0.001s\n\nOK (skipped=1)\n", ""},
		{"a test named FAIL", "ok  \texample.com/fail\t0.01s\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := RunnerFailed([]byte(c.out)); got != c.want {
				t.Errorf("RunnerFailed = %q, want %q", got, c.want)
			}
		})
	}
}
