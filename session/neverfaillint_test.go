package session_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestObservedLintThatCannotFail (round 20 t5): a linter told to exit 0
// whatever it finds (`flake8 --exit-zero`, `pylint --exit-zero`, `ruff
// check --exit-zero`, `golangci-lint run --issues-exit-code=0`) or given
// no rule (`eslint --no-config-lookup`) exits 0 on code full of findings
// (measured, quietlint/neverfail_real_test.go); before, such a run met
// "MUST lint the changed files". Honest twins: the same linters plainly.
func TestObservedLintThatCannotFail(t *testing.T) {
	const proto = "# P\n\n## Session Start\n\n### Phase 1: Lint (REQUIRED)\n\n<!-- gate: must_evidence -->\n\n" +
		"1. The agent MUST lint the changed files.\n\n" +
		"## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n<!-- gate: commit_since_start -->\n\n- The agent MUST commit.\n"
	ctx := context.Background()
	for _, c := range []struct {
		name, cmd, out string
		pass           bool
	}{
		{"flake8 --exit-zero", "flake8 --exit-zero src", "src/a.py:1:1: F401 'os' imported but unused\n", false},
		{"pylint --exit-zero", "python3 -m pylint --exit-zero src", "", false},
		{"ruff --exit-zero", "ruff check --exit-zero .", "Found 1 error.\n", false},
		{"eslint with no config lookup nor rule", "npx eslint --no-config-lookup src", "", false},
		{"golangci-lint issues exit 0", "golangci-lint run --issues-exit-code=0 ./...", "", false},
		{"honest: flake8", "flake8 src", "", true},
		{"honest: pylint with a score threshold", "pylint --fail-under=8 src", "", true},
		{"honest: eslint", "npx eslint src", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, proto)
			if err := os.MkdirAll(filepath.Join(e.root, "src"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(e.root, "src", "a.py"), []byte("import os\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			id := e.start("lint")
			if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "LINT", Requirement: "LINT.lint-changed-files", Source: session.SourceRun,
				Command: c.cmd, ExitCode: 0, Duration: time.Millisecond, Output: []byte(c.out)}); err != nil {
				t.Fatal(err)
			}
			g, err := e.engine.ValidateGate(ctx, id, "LINT")
			if err != nil {
				t.Fatal(err)
			}
			if (g.Status == session.StatusPass) != c.pass {
				t.Fatalf("%s: gate %s, want pass %v: %s", c.cmd, g.Status, c.pass, g.Message)
			}
		})
	}
}
