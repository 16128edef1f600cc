package testrun

import "testing"

func TestRanNoTests(t *testing.T) {
	tests := []struct {
		out  string
		none bool
	}{
		{"ok  \tx/a\t0.003s [no tests to run]\n?   \tx/b\t[no test files]\n", true},
		// Lazy pass 33: a folder named like a non-.PHONY target.
		{"make: 'test' is up to date.\n", true},
		{"make: `test' is up to date.\n", true},
		{"make: Nothing to be done for 'check'.\n", true},
		{"make[1]: Entering directory '/w/sub'\nmake[1]: 'test' is up to date.\nmake[1]: Leaving directory '/w/sub'\n", true},
		{"golangci-lint run\nmake: 'test' is up to date.\n", true}, // make lint test: the tests did not run
		{"python3 -m unittest\n...\nRan 3 tests in 0.001s\n\nOK\nmake: Nothing to be done for 'all'.\n", false},
		{"make: 'app' is up to date.\ngo test ./...\nok  \tx/a\t0.1s\n", false},
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
		// vitest 4.1.12 run --passWithNoTests in a project without tests
		// (real output, round 19 t8): exit 0; it passed a QA gate before.
		{"\n RUN  v4.1.12 /tmp/q/js\n\nNo test files found, exiting with code 0\n\ninclude: **/*.{test,spec}.?(c|m)[jt]s?(x)\nexclude:  **/node_modules/**, **/.git/**\n\n", true},
		{"\x1b[2minclude: \x1b[22m\n\x1b[31mNo test files found, exiting with code 0\x1b[39m\n", true},
		// Its honest twin: vitest ran the tests.
		{"\n RUN  v4.1.12 /tmp/q/js\n\n ✓ src/a.test.js (1 test) 2ms\n\n Test Files  1 passed (1)\n      Tests  1 passed (1)\n", false},
		{"PASS: hello.txt exists (1 test)\n", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := RanNoTests([]byte(tc.out)); got != tc.none {
			t.Errorf("RanNoTests(%q) = %v, want %v", tc.out, got, tc.none)
		}
	}
}
