package shellline

import "testing"

func TestTestsNotRun(t *testing.T) {
	tests := []struct {
		line string
		skip bool
	}{
		{"go test ./...", false},
		{"go test -count=1 -race -cover ./...", false},
		{"go test -cpu 2 -run TestX ./...", false},
		{"go test -c=false ./...", false},
		{"go test ./... -args -c -list x", false}, // the test binary's flags
		{"GOFLAGS=-mod=mod go test ./...", false},
		{"pytest -q tests/", false},
		{"npm test", false},
		{"cargo test -- --nocapture", false},
		{"echo go test -exec=true", false},
		{"go test -exec=true ./...", true},
		{"go test -exec true ./...", true},
		{"go test --exec=true ./...", true},
		{"go test -toolexec=/bin/echo ./...", true},
		{"go test -list . ./...", true},
		{"go test -c ./a", true},
		{"go test -n ./...", true},
		{"GOFLAGS=-exec=true go test ./...", true},
		{"env GOFLAGS='-count=1 -exec=true' go test ./...", true},
		{"cd sub && GOFLAGS=-list=. go test ./...", true},
		{"timeout 300 go test -exec=true ./...", true},
		{"pytest --collect-only", true},
		{"python3 -m pytest --co -q", true},
		{"PYTEST_ADDOPTS=--setup-plan pytest", true},
		{"npx jest --listTests", true},
		{"npm test -- --listTests", true},
		{"cargo test --no-run", true},
		{"cargo test -- --no-run", false}, // the harness's argument, not cargo's
	}
	for _, tc := range tests {
		if got := TestsNotRun(tc.line); (got != "") != tc.skip {
			t.Errorf("TestsNotRun(%q) = %q, want skip=%v", tc.line, got, tc.skip)
		}
	}
}
