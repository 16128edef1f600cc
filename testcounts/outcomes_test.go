package testcounts

import "testing"

func TestOutcomeOf(t *testing.T) {
	tests := []struct {
		name, out string
		want      Outcome
		ok        bool
	}{
		{"pytest", "....\n============== 1 failed, 2 passed, 2 skipped, 1 xfailed in 0.09s ===============\n", Outcome{2, 3}, true},
		{"pytest -q", "..\n1 passed, 2 xfailed in 0.05s\n", Outcome{1, 2}, true},
		{"pytest deselected", "3 passed, 4 deselected in 0.01s\n", Outcome{3, 4}, true},
		// Lazy pass 36, route B: a warning whose text is a summary; pytest
		// prints it indented in its warnings summary.
		{"pytest with a summary in a warning", "..\n=== warnings summary ===\ntest_a.py::test_a\n  /w/test_a.py:3: UserWarning: x\n  5 passed in 0.01s\n\n1 passed, 2 xfailed in 0.05s\n", Outcome{1, 2}, true},
		{"unittest ok", "...\n----------------------------------------------------------------------\nRan 3 tests in 0.001s\n\nOK (skipped=1, expected failures=1)\n", Outcome{1, 2}, true},
		{"unittest plain", "Ran 3 tests in 0.001s\n\nOK\n", Outcome{3, 0}, true},
		{"unittest failed", "Ran 4 tests in 0.001s\n\nFAILED (failures=1, skipped=2)\n", Outcome{1, 2}, true},
		{"node:test TAP", "1..3\n# tests 3\n# suites 0\n# pass 1\n# fail 0\n# cancelled 0\n# skipped 1\n# todo 1\n", Outcome{1, 2}, true},
		{"node:test spec", "ℹ tests 3\nℹ pass 1\nℹ fail 0\nℹ skipped 2\nℹ todo 0\n", Outcome{1, 2}, true},
		{"jest", "Test Suites: 1 passed, 1 total\nTests:       1 skipped, 1 todo, 2 passed, 4 total\n", Outcome{2, 2}, true},
		{"mocha", "  2 passing (5ms)\n  1 pending\n", Outcome{2, 1}, true},
		{"go test -v", "--- PASS: TestA (0.00s)\n--- SKIP: TestB (0.00s)\n", Outcome{1, 1}, true},
		{"two runners summed", "2 passed in 0.01s\nRan 1 test in 0.001s\n\nOK (skipped=1)\n", Outcome{2, 1}, true},
		{"no summary", "all good\n", Outcome{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := OutcomeOf([]byte(tt.out))
			if got != tt.want || ok != tt.ok {
				t.Fatalf("OutcomeOf = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestTurnedOff(t *testing.T) {
	tests := []struct {
		name       string
		base, head Outcome
		want       int
	}{
		{"known-failures list turns two into xfail", Outcome{3, 0}, Outcome{1, 2}, 2},
		{"a new test marked skip", Outcome{3, 0}, Outcome{3, 1}, 0},
		{"skips unchanged", Outcome{3, 1}, Outcome{4, 1}, 0},
		{"a skip removed", Outcome{3, 1}, Outcome{4, 0}, 0},
		{"a test deleted, none skipped", Outcome{3, 0}, Outcome{2, 0}, 0},
		{"a test deleted and one skipped", Outcome{3, 0}, Outcome{1, 1}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TurnedOff(tt.base, tt.head); got != tt.want {
				t.Fatalf("TurnedOff(%+v, %+v) = %d, want %d", tt.base, tt.head, got, tt.want)
			}
		})
	}
}
