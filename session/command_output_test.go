package session_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// markdownlintCLI2 puts the real markdownlint-cli2 from .ci/node on PATH:
// skipped when it is not installed, failed under CI=true.
func markdownlintCLI2(t *testing.T) {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join("..", ".ci", "node", "node_modules", ".bin"))
	if err == nil {
		_, err = os.Stat(filepath.Join(bin, "markdownlint-cli2"))
	}
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("markdownlint-cli2 is missing (%v): run .ci/run (npm ci in .ci/node)", err)
		}
		t.Skipf("markdownlint-cli2 not installed (%v): cd .ci/node && npm ci", err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// TestCommandThatCheckedNothing drives the real markdownlint-cli2: a lint
// whose configuration ignores every changed file exits 0 having linted
// nothing; that is SKIPPED with the reason, not PASS, and a FAIL when the
// session itself changed the configuration to get there.
func TestCommandThatCheckedNothing(t *testing.T) {
	markdownlintCLI2(t)
	const lint = `<!-- gate: command "markdownlint-cli2 {changed:*.md}" -->`
	cases := []struct {
		name       string
		annotation string
		before     map[string]string // committed before the session starts
		during     map[string]string // written during the session
		want       session.GateStatus
		msg        string
	}{
		{"lints a clean file", lint, nil, map[string]string{"docs/a.md": "# A\n\nText.\n"}, session.StatusPass, "command passed"},
		{"lint errors fail", lint, nil, map[string]string{"docs/a.md": "#A\n"}, session.StatusFail, "exited 1"},
		{"ignored by the team's config: skipped", lint,
			map[string]string{".markdownlint-cli2.jsonc": `{"ignores": ["docs/**"]}` + "\n"},
			map[string]string{"docs/a.md": "#A\n"}, session.StatusSkipped, `Linting: 0 files`},
		{"ignored by a config the session wrote: fail", lint, nil,
			map[string]string{"docs/a.md": "#A\n", ".markdownlint-cli2.jsonc": `{"ignores": ["docs/**"]}` + "\n"},
			session.StatusFail, ".markdownlint-cli2.jsonc changed in this session"},
		{"proves matches", `<!-- gate: command "markdownlint-cli2 {changed:*.md}" proves="Linting: [1-9]" -->`, nil,
			map[string]string{"docs/a.md": "# A\n"}, session.StatusPass, "command passed"},
		{"proves does not match", `<!-- gate: command "echo all good" proves="checked [1-9][0-9]* files" -->`, nil,
			nil, session.StatusSkipped, `does not match proves=`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, gateProtocol(c.annotation))
			for f, body := range c.before {
				gittest.Write(t, e.root, f, body)
			}
			if len(c.before) > 0 {
				gittest.Git(t, e.root, "add", "-A")
				gittest.Git(t, e.root, "commit", "-q", "-m", "chore: lint config")
			}
			id := e.start(c.name)
			for f, body := range c.during {
				gittest.Write(t, e.root, f, body)
			}
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want || !strings.Contains(g.Checks[0].Message, c.msg) {
				t.Fatalf("gate %s %q, want %s containing %q (output %q)", g.Status, g.Checks[0].Message, c.want, c.msg, g.Output)
			}
		})
	}
}

// TestCommandGateThatRanNoTests: a test command that exits 0 while its
// runner says it ran no test fails the gate. The filter need not be in the
// protocol's command: GOFLAGS=-run=^$ (or PYTEST_ADDOPTS="-k nothing") in
// the environment of `sessiongate session advance` passed a `go test ./...`
// gate over failing tests. Observed runs were already judged this way.
func TestCommandGateThatRanNoTests(t *testing.T) {
	cases := []struct {
		name       string
		annotation string
		env        map[string]string
		want       session.GateStatus
		msg        string
	}{
		{"go: every package ran nothing", `<!-- gate: command "printf 'ok  \tex\t0.01s [no tests to run]\n'" -->`, nil, session.StatusFail, "ran no test"},
		{"go: warning line", `<!-- gate: command "printf 'testing: warning: no tests to run\nPASS\n'" -->`, nil, session.StatusFail, "ran no test"},
		{"pytest: no tests ran", `<!-- gate: command "printf '==== 3 deselected, no tests ran in 0.01s ====\n'" -->`, nil, session.StatusFail, "ran no test"},
		{"go: tests ran", `<!-- gate: command "printf 'ok  \tex\t0.01s\nok  \tex/b\t0.01s [no tests to run]\n'" -->`, nil, session.StatusPass, "command passed"},
		// GOFLAGS never reaches the command now (gateenv.Clean): the failing test runs.
		{"real go test, GOFLAGS filter", `<!-- gate: command "go test ./..." -->`, map[string]string{"GOFLAGS": "-run=^$"}, session.StatusFail, "exited 1: go test ./... (run without GOFLAGS"},
		{"real go test, failing test", `<!-- gate: command "go test ./..." -->`, nil, session.StatusFail, "exited 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.Contains(c.annotation, "go test") {
				if _, err := exec.LookPath("go"); err != nil {
					t.Skip("go not on PATH")
				}
			}
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			e := newEnv(t, gateProtocol(c.annotation))
			gittest.Write(t, e.root, "go.mod", "module ex\n\ngo 1.22\n")
			gittest.Write(t, e.root, "a_test.go", "package ex\n\nimport \"testing\"\n\nfunc TestBroken(t *testing.T) { t.Fatal(\"broken\") }\n")
			id := e.start(c.name)
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want || !strings.Contains(g.Checks[0].Message, c.msg) {
				t.Fatalf("gate %s %q, want %s containing %q (output %q)", g.Status, g.Checks[0].Message, c.want, c.msg, g.Output)
			}
		})
	}
}
