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
// A session that changed one side needs only that side's run.
func TestQAEachRunnerTheWorkTouched(t *testing.T) {
	requireGit(t)
	goWeb := map[string]string{"go.mod": "module example.com/m\n", "a.go": "package m\n", "a_test.go": "package m\n",
		"web/package.json": `{"name": "web", "scripts": {"test": "node --test"}}`, "web/app.js": "export const one = 1\n", "web/app.test.js": "import test from 'node:test'\n"}
	pyNpm := map[string]string{"pyproject.toml": "[project]\nname = \"p\"\n", "p/a.py": "ONE = 1\n", "tests/test_a.py": "def test_a(): pass\n",
		"package.json": `{"name": "ui", "scripts": {"test": "jest"}}`, "ui/app.js": "module.exports = 1\n", "ui/app.test.js": "test('a', () => {})\n"}
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
		// Honest.
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
