package shellline

import "testing"

// TestR56RunsNothingReadAsWhole (round 56, helper 333): runner flags that
// make a test run run no test (compile only, list, collect, run the test
// binary under `true`) were read as whole-suite runs. Under the v3.0-style
// protocol with no QA command, `go test -exec true ./...` and `go test -c
// -o /dev/null .` on a change that broke TestHello met QA: COMPLETE, clean,
// CI verify exit 0 (/work/h333-repro/v3_lazy_qa_lines.sh). Honest twins
// stay whole.
func TestR56RunsNothingReadAsWhole(t *testing.T) {
	for _, c := range []struct {
		line    string
		partial bool
	}{
		{"go test -exec true ./...", true},
		{"go test -exec=/bin/true ./...", true},
		{"go test -c -o /dev/null .", true},
		{"go test -c ./...", true},
		{"go test -overlay=/tmp/o.json ./...", true},
		{"go test -overlay /tmp/o.json ./...", true},
		{"go test -modfile=/tmp/go.mod ./...", true},
		{"go test -test.run=XXX ./...", true},
		{"go test -test.skip=. ./...", true},
		{"go test -test.list=. ./...", true},
		{"pytest --co", true},
		{"pytest --collect-only -q", true},
		{"pytest --setup-only", true},
		{"pytest --setup-plan", true},
		{"cargo test --no-run", true},
		{"jest --listTests", true},
		// honest twins
		{"go test -race -count=1 ./...", false},
		{"go test -json ./...", false},
		{"pytest -x -q", false},
		{"cargo test --release", false},
	} {
		runs := TestRuns(c.line)
		if len(runs) == 0 {
			t.Errorf("%s: no test run", c.line)
			continue
		}
		if got := runs[0].Partial() != ""; got != c.partial {
			t.Errorf("%s: Partial() = %q, want partial %v (run %+v)", c.line, runs[0].Partial(), c.partial, runs[0])
		}
	}
}
