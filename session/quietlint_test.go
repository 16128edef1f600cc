package session_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestObservedLintThatLintedNothing (round 19 t8): a linter given only
// globs that match no file exits 0 printing nothing, as a clean run of
// real files does (eslint 9.39.5 --no-error-on-unmatched-pattern
// 'nomatch/**', measured); markdownlint-cli2 on such a glob says
// "Linting: 0 file(s)" and exits 0. Before, either run met "MUST lint
// the changed files". Honest twin: eslint on the
// changed folder, silent and exit 0 too, passes.
func TestObservedLintThatLintedNothing(t *testing.T) {
	const proto = "# P\n\n## Session Start\n\n### Phase 1: Lint (REQUIRED)\n\n<!-- gate: must_evidence -->\n\n" +
		"1. The agent MUST lint the changed files.\n\n" +
		"## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n<!-- gate: commit_since_start -->\n\n- The agent MUST commit.\n"
	ctx := context.Background()
	for _, c := range []struct {
		name, cmd, out string
		pass           bool
	}{
		{"eslint on a glob matching nothing", "npx eslint --no-error-on-unmatched-pattern 'nomatch/**'", "", false},
		{"markdownlint-cli2 linted 0 files", "npx markdownlint-cli2 'nomatch/**'",
			"markdownlint-cli2 v0.22.1 (markdownlint v0.40.0)\nFinding: nomatch/**\nLinting: 0 file(s)\nSummary: 0 error(s)\n", false},
		{"honest: eslint on the changed folder", "npx eslint src", "", true},
		{"honest: eslint with one glob matching", "npx eslint --no-error-on-unmatched-pattern 'src/**/*.js' 'lib/**/*.js'", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, proto)
			if err := os.MkdirAll(filepath.Join(e.root, "src"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(e.root, "src", "a.js"), []byte("export default 1;\n"), 0o644); err != nil {
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
