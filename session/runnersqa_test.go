package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestQAEachRunnerTheWorkTouched: a project with two test runners (Go and
// a JS frontend with its own package.json, pytest and npm) needs a whole
// run of each runner whose files the session changed (issue 25 item 5,
// route 4): a whole `go test ./...` met QA for a change to web/app.js.
// A session that changed one side needs only that side's run. A nested Go
// module (its own go.mod) is a suite of its own: `go test ./...` at the
// root does not build it (route 3).
func TestQAEachRunnerTheWorkTouched(t *testing.T) {
	requireGit(t)
	goWeb := map[string]string{"go.mod": "module example.com/m\n", "a.go": "package m\n", "a_test.go": "package m\n",
		"web/package.json": `{"name": "web", "scripts": {"test": "node --test"}}`, "web/app.js": "export const one = 1\n", "web/app.test.js": "import test from 'node:test'\n"}
	pyNpm := map[string]string{"pyproject.toml": "[project]\nname = \"p\"\n", "p/a.py": "ONE = 1\n", "tests/test_a.py": "def test_a(): pass\n",
		"package.json": `{"name": "ui", "scripts": {"test": "jest"}}`, "ui/app.js": "module.exports = 1\n", "ui/app.test.js": "test('a', () => {})\n"}
	nested := map[string]string{"go.mod": "module example.com/m\n", "a.go": "package m\n", "a_test.go": "package m\n",
		"sub/go.mod": "module example.com/s\n", "sub/s.go": "package s\n", "sub/s_test.go": "package s\n"}
	nestedNoTests := map[string]string{"go.mod": "module example.com/m\n", "a.go": "package m\n", "a_test.go": "package m\n",
		"sub/go.mod": "module example.com/s\n", "sub/s.go": "package s\n"}
	tests := []struct {
		name          string
		start, during map[string]string
		runs          []string
		counts        bool
		missing       string // what the block names
	}{
		{name: "go+web: web changed, only go test run", start: goWeb, during: map[string]string{"web/app.js": "export const one = 2\n"}, runs: []string{"go test ./..."}, missing: "web"},
		{name: "go+web: both changed, only npm test run", start: goWeb, during: map[string]string{"a.go": "package m\n\nconst One = 1\n", "web/app.js": "export const one = 2\n"}, runs: []string{"cd web && npm test"}, missing: "go test"},
		{name: "pytest+npm: ui changed, only pytest run", start: pyNpm, during: map[string]string{"p/a.py": "ONE = 2\n", "ui/app.js": "module.exports = 2\n"}, runs: []string{"pytest"}, missing: "npm"},
		// Nested Go modules (route 3): `go test ./...` at the root does not enter sub/, which has its own go.mod.
		{name: "nested module: sub changed, root go test run", start: nested, during: map[string]string{"sub/s.go": "package s\n\nconst Two = 2\n"}, runs: []string{"go test ./..."}, missing: "cd sub && go test"},
		{name: "nested module without tests: sub changed, root go test run", start: nestedNoTests, during: map[string]string{"sub/s.go": "package s\n\nconst Two = 2\n"}, runs: []string{"go test ./..."}, missing: "sub"},
		{name: "nested module: sub changed, go test ./sub/... at the root", start: nested, during: map[string]string{"sub/s.go": "package s\n\nconst Two = 2\n"}, runs: []string{"go test ./... ./sub/..."}, missing: "cd sub && go test"},
		// Honest.
		{name: "nested module: sub changed, its own go test run", start: nested, during: map[string]string{"sub/s.go": "package s\n\nconst Two = 2\n"}, runs: []string{"cd sub && go test ./..."}, counts: true},
		{name: "nested module without tests: sub changed, root and sub run", start: nestedNoTests, during: map[string]string{"sub/s.go": "package s\n\nconst Two = 2\n"}, runs: []string{"go test ./...", "cd sub && go test ./..."}, counts: true},
		{name: "nested module: both changed, both run", start: nested, during: map[string]string{"a.go": "package m\n\nconst One = 1\n", "sub/s.go": "package s\n\nconst Two = 2\n"}, runs: []string{"go test ./...", "cd sub && go test ./..."}, counts: true},
		{name: "go+web: both changed, both run", start: goWeb, during: map[string]string{"a.go": "package m\n\nconst One = 1\n", "web/app.js": "export const one = 2\n"}, runs: []string{"go test ./...", "cd web && npm test"}, counts: true},
		{name: "go+web: only go changed, go test run", start: goWeb, during: map[string]string{"a.go": "package m\n\nconst One = 1\n"}, runs: []string{"go test ./..."}, counts: true},
		{name: "go+web: only web changed, npm --prefix web test run", start: goWeb, during: map[string]string{"web/app.js": "export const one = 2\n"}, runs: []string{"npm --prefix web test"}, counts: true},
		{name: "pytest+npm: both changed, both run", start: pyNpm, during: map[string]string{"p/a.py": "ONE = 2\n", "ui/app.js": "module.exports = 2\n"}, runs: []string{"npm test", "python3 -m pytest"}, counts: true},
		{name: "pytest+npm: only python changed, pytest run", start: pyNpm, during: map[string]string{"p/a.py": "ONE = 2\n"}, runs: []string{"pytest"}, counts: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, id := toQA(t, tc.start, tc.during)
			for _, r := range tc.runs {
				ev, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
					Command: r, Output: []byte("ok\n")})
				if err != nil {
					t.Fatal(err)
				}
				if *ev.ExitCode != 0 {
					t.Fatalf("%q not taken as a passing run: %s", r, ev.Ref)
				}
			}
			res := e.advance(id)
			if got := res.Blocked == nil; got != tc.counts {
				t.Fatalf("runs %q: QA passed=%v, want %v; blocked: %+v", tc.runs, got, tc.counts, res.Blocked)
			}
			if !tc.counts && !strings.Contains(res.Blocked.Reason, tc.missing) {
				t.Errorf("the block does not name the runner not run (%s): %s", tc.missing, res.Blocked.Reason)
			}
		})
	}
}
