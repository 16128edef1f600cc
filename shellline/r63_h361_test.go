package shellline

import "testing"

// TestR63H361TestsNotRun: helper 361 played `go test -count=0 ./...`
// (each test run zero times: `ok [no tests to run]`, exit 0 over a failing
// suite) and pytest 7's other spellings of its no-run options
// (--collectonly, --setuponly, --setupplan, --funcargs, --cache-show: exit
// 0, no test body run, checked against /usr/bin/pytest 7.2.1). None was
// read as a run of no test. The honest twins keep -count=N>0, -json and
// --setup-show (which runs the tests).
func TestR63H361TestsNotRun(t *testing.T) {
	for _, c := range []struct {
		line string
		lazy bool
	}{
		{"go test -count=0 ./...", true},
		{"go test -count 0 ./...", true},
		{"go test -json -count=0 ./...", true},
		{"go test -test.count=0 ./...", true},
		{"go test ./... -args -test.count=0", true},
		{"GOFLAGS=-count=0 go test ./...", true},
		{"sh -c 'go test -count=0 -json ./...'", true},
		{"pytest --collectonly", true},
		{"pytest -q --setuponly", true},
		{"python -m pytest --setupplan", true},
		{"pytest --funcargs", true},
		{"pytest --cache-show", true},
		{"PYTEST_ADDOPTS=--collectonly pytest", true},
		// honest
		{"go test -count=1 ./...", false},
		{"go test -count 3 -json ./...", false},
		{"go test -race -count=1 -v ./...", false},
		{"GOFLAGS=-count=1 go test ./...", false},
		{"go test ./... -args -test.count=2", false},
		{"pytest -q --setup-show", false},
		{"pytest -q", false},
	} {
		got := TestsNotRun(c.line)
		if (got != "") != c.lazy {
			t.Errorf("TestsNotRun(%q) = %q, want a reason: %v", c.line, got, c.lazy)
		}
	}
}
