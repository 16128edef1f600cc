package testrun

import "testing"

func TestRanNoTests(t *testing.T) {
	tests := []struct {
		out  string
		none bool
	}{
		{"ok  \tx/a\t0.003s [no tests to run]\n?   \tx/b\t[no test files]\n", true},
		{"testing: warning: no tests to run\nPASS\nok  \tx/a\t0.002s [no tests to run]\n", true},
		{"ok  \tx/a\t0.003s\nok  \tx/c\t0.003s [no tests to run]\n", false},
		// go test -v -run X ./...: X ran in x/a, and x/b warns.
		{"=== RUN   TestX\n--- PASS: TestX (0.00s)\nPASS\nok  \tx/a\t0.006s\ntesting: warning: no tests to run\nPASS\nok  \tx/b\t0.003s [no tests to run]\n", false},
		{"testing: warning: no tests to run\nPASS\n", true}, // a test binary run by itself
		{"ok  \tx/a\t(cached)\n?   \tx/b\t[no test files]\n", false},
		{"?   \tx/b\t[no test files]\n", false},
		{"============================ no tests ran in 0.01s =============================\n", true},
		{"=========== 4 deselected, 0 selected in 0.02s ===========\n", true},
		{"=========== 2 passed in 0.02s ===========\n", false},
		{"No tests found, exiting with code 0\n", true},
		{"PASS: hello.txt exists (1 test)\n", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := RanNoTests([]byte(tc.out)); got != tc.none {
			t.Errorf("RanNoTests(%q) = %v, want %v", tc.out, got, tc.none)
		}
	}
}
