package session_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestObservedLintUnderConfigThatCannotFail (round 21 c1): a lint run
// whose config file, written or changed in the session, makes it unable
// to fail (`exit-zero=yes` in .pylintrc, flake8 ignoring E,W,F, an eslint
// config with no rule, `disable=all` in .shellcheckrc, ~/.pylintrc) is no
// evidence for "lint the changed files"; before, it met it. The same file
// committed by the team before the session is the team's choice: the run
// counts, and its evidence says it could not fail. Honest twins: a config
// the session changed that still lets the linter fail, and plain runs.
func TestObservedLintUnderConfigThatCannotFail(t *testing.T) {
	const proto = "# P\n\n## Session Start\n\n### Phase 1: Lint (REQUIRED)\n\n<!-- gate: must_evidence -->\n\n" +
		"1. The agent MUST lint the changed files.\n\n" +
		"## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n<!-- gate: commit_since_start -->\n\n- The agent MUST commit.\n"
	ctx := context.Background()
	for _, c := range []struct {
		name, cmd string
		before    map[string]string // committed before the session
		during    map[string]string // written in the session (home/ is the user's home)
		commit    bool              // the session commits what it wrote
		pass      bool
		note      string // in the evidence of a pass
	}{
		{"pylintrc exit-zero written in the session", "pylint src", nil, map[string]string{".pylintrc": "[MAIN]\nexit-zero=yes\n"}, false, false, ""},
		{"pylintrc exit-zero committed in the session", "pylint src", nil, map[string]string{".pylintrc": "[MAIN]\nexit-zero=yes\n"}, true, false, ""},
		{"team's pylintrc changed to fail-under=-100", "python3 -m pylint src", map[string]string{".pylintrc": "[MAIN]\nfail-under=8\n"}, map[string]string{".pylintrc": "[MAIN]\nfail-under=-100\n"}, false, false, ""},
		{"flake8 extend-ignore in setup.cfg", "flake8 src", map[string]string{"setup.cfg": "[metadata]\nname = x\n"}, map[string]string{"setup.cfg": "[metadata]\nname = x\n[flake8]\nextend-ignore = E,W,F,C\n"}, false, false, ""},
		{"eslint.config.js exporting []", "npx eslint src", nil, map[string]string{"eslint.config.js": "export default [];\n"}, true, false, ""},
		{".shellcheckrc disable=all", "shellcheck src/a.sh", nil, map[string]string{".shellcheckrc": "disable=all\n"}, false, false, ""},
		{"user's ~/.pylintrc written in the session", "pylint src", nil, map[string]string{"home/.pylintrc": "[MAIN]\nexit-zero=yes\n"}, false, false, ""},
		// Round 22: the team's eslint.config.js unchanged, the shared config
		// it brings in (a local file, a node_modules package) emptied.
		{"team's eslint shared config emptied", "npx eslint src", map[string]string{"eslint.config.mjs": "import base from \"./lint/base.mjs\";\nexport default [...base];\n", "lint/base.mjs": "export default [{rules: {\"no-undef\": \"error\"}}];\n"},
			map[string]string{"lint/base.mjs": "export default [];\n"}, false, false, ""},
		{"node_modules shared config emptied", "npx eslint src", map[string]string{"eslint.config.mjs": "import team from \"eslint-config-team\";\nexport default [...team];\n"},
			map[string]string{"node_modules/eslint-config-team/package.json": "{\"main\": \"index.js\"}\n", "node_modules/eslint-config-team/index.js": "export default [];\n"}, false, false, ""},
		{"honest: the team's shared config with no rule, from before", "npx eslint src", map[string]string{"eslint.config.mjs": "import base from \"./lint/base.mjs\";\nexport default [...base];\n", "lint/base.mjs": "export default [];\n"},
			nil, false, true, "could not fail"},
		{"honest: the shared config tightened", "npx eslint src", map[string]string{"eslint.config.mjs": "import base from \"./lint/base.mjs\";\nexport default [...base];\n", "lint/base.mjs": "export default [{rules: {\"no-undef\": \"error\"}}];\n"},
			map[string]string{"lint/base.mjs": "export default [{rules: {\"no-undef\": \"error\", \"eqeqeq\": \"error\"}}];\n"}, false, true, ""},
		// Round 22: a lint run through a runner's target.
		{"npm run lint -- --exit-zero on the team's script", "npm run lint -- --exit-zero", map[string]string{"package.json": "{\"scripts\": {\"lint\": \"flake8 src\"}}\n"}, nil, false, false, ""},
		{"make lint LINTFLAGS=--exit-zero", "make lint LINTFLAGS=--exit-zero", map[string]string{"Makefile": "LINTFLAGS =\nlint:\n\tflake8 $(LINTFLAGS) src\n"}, nil, false, false, ""},
		{"the session's package.json lint script given --exit-zero", "npm run lint", map[string]string{"package.json": "{\"scripts\": {\"lint\": \"flake8 src\"}}\n"},
			map[string]string{"package.json": "{\"scripts\": {\"lint\": \"flake8 --exit-zero src\"}}\n"}, true, false, ""},
		// Round 23: make -f, pre-commit -c, tox substitutions.
		{"make -f the session's file with --exit-zero", "make -f lint.mk lint", nil, map[string]string{"lint.mk": "lint:\n\tflake8 --exit-zero src\n"}, true, false, ""},
		{"pre-commit -c the session's config with --exit-zero", "pre-commit run -c alt.yaml --all-files", nil,
			map[string]string{"alt.yaml": "repos:\n- repo: local\n  hooks:\n  - id: flake8\n    name: flake8\n    entry: flake8\n    language: system\n    args: [--exit-zero]\n"}, false, false, ""},
		{"tox [testenv] loosened, the lint env substitutes it", "tox -e lint", map[string]string{"tox.ini": "[testenv]\ncommands = flake8 src\n\n[testenv:lint]\ncommands = {[testenv]commands}\n"},
			map[string]string{"tox.ini": "[testenv]\ncommands = flake8 --exit-zero src\n\n[testenv:lint]\ncommands = {[testenv]commands}\n"}, true, false, ""},
		{"tox inherited [testenv] loosened", "tox -e lint", map[string]string{"tox.ini": "[testenv]\ncommands = flake8 src tests\n\n[testenv:lint]\ndeps = flake8\n"},
			map[string]string{"tox.ini": "[testenv]\ncommands = flake8 tests\n\n[testenv:lint]\ndeps = flake8\n"}, true, false, ""},
		{"tox -e lint -- --exit-zero through {posargs}", "tox -e lint -- --exit-zero", map[string]string{"tox.ini": "[testenv:lint]\ncommands = flake8 {posargs:src}\n"}, nil, false, false, ""},
		{"honest: make -f the team's file", "make -f ci.mk lint", map[string]string{"ci.mk": "lint:\n\tflake8 src\n"}, nil, false, true, ""},
		// Round 24: the -f file named through a variable. An earlier command
		// exported F=lint.mk; read as the Makefile's lint before.
		{"make -f $F, F exported by an earlier command", "make -f $F lint", map[string]string{"Makefile": "lint:\n\tflake8 src\n"},
			map[string]string{"lint.mk": "lint:\n\tflake8 --exit-zero src\n"}, true, false, ""},
		{"make -f $F, F set on the line to the session's file", "F=lint.mk make -f $F lint", map[string]string{"Makefile": "lint:\n\tflake8 src\n"},
			map[string]string{"lint.mk": "lint:\n\tflake8 --exit-zero src\n"}, true, false, ""},
		{"honest: make -f $F, F set on the line to the team's file", "F=ci.mk make -f $F lint", map[string]string{"ci.mk": "lint:\n\tflake8 src\n"}, nil, false, true, ""},
		{"honest: pre-commit -c the team's config", "pre-commit run -c alt.yaml --all-files", map[string]string{"alt.yaml": "repos:\n- repo: local\n  hooks:\n  - id: flake8\n    name: flake8\n    entry: flake8\n    language: system\n"}, nil, false, true, ""},
		{"honest: tox -e lint -- tests through {posargs}", "tox -e lint -- tests", map[string]string{"tox.ini": "[testenv]\ncommands = flake8 {posargs:src}\n\n[testenv:lint]\ncommands = {[testenv]commands}\n"}, nil, false, true, ""},
		{"honest: npm run lint on the team's script", "npm run lint", map[string]string{"package.json": "{\"scripts\": {\"lint\": \"flake8 src\"}}\n"}, nil, false, true, ""},
		// Round 22 review: --fix still fails on what it cannot fix (eslint,
		// ruff, stylelint, golangci-lint); --fix-only does not (ruff).
		{"honest: npm run lint -- --fix on the team's script", "npm run lint -- --fix", map[string]string{"package.json": "{\"scripts\": {\"lint\": \"eslint src\"}}\n"}, nil, false, true, ""},
		{"npm run lint -- --fix-only on the team's script", "npm run lint -- --fix-only", map[string]string{"package.json": "{\"scripts\": {\"lint\": \"ruff check src\"}}\n"}, nil, false, false, ""},
		{"honest: make lint after editing the Makefile's build target", "make lint", map[string]string{"Makefile": "build:\n\tgo build ./...\nlint:\n\tflake8 src\n"},
			map[string]string{"Makefile": "build:\n\tgo build -trimpath ./...\nlint:\n\tflake8 src\n"}, true, true, ""},
		{"honest: make lint with a stricter variable", "make lint LINTFLAGS=--max-line-length=79", map[string]string{"Makefile": "LINTFLAGS =\nlint:\n\tflake8 $(LINTFLAGS) src\n"}, nil, false, true, ""},
		{"team's .pylintrc with exit-zero, from before", "pylint src", map[string]string{".pylintrc": "[MAIN]\nexit-zero=yes\n"}, nil, false, true, "could not fail"},
		{"honest: session tunes flake8 and still fails on findings", "flake8 src", nil, map[string]string{".flake8": "[flake8]\nmax-line-length = 100\nextend-ignore = E203\n"}, true, true, ""},
		{"honest: session's pylintrc disables two messages", "pylint src", nil, map[string]string{".pylintrc": "[MESSAGES CONTROL]\ndisable=C0114,C0116\n"}, false, true, ""},
		{"honest: plain flake8", "flake8 src", nil, nil, false, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("PYLINTRC", "")
			e := newEnv(t, proto)
			e.now = time.Now().Add(-time.Minute) // files written after start are newer than it
			gittest.Write(t, e.root, "src/a.py", "import os\n")
			for f, body := range c.before {
				gittest.Write(t, e.root, f, body)
			}
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "before the session")
			id := e.start("lint")
			for f, body := range c.during {
				if rel, ok := strings.CutPrefix(f, "home/"); ok {
					gittest.Write(t, home, rel, body)
					continue
				}
				gittest.Write(t, e.root, f, body)
			}
			if c.commit {
				gittest.Git(t, e.root, "add", "-A")
				gittest.Git(t, e.root, "commit", "-q", "-m", "lint config")
			}
			if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "LINT", Requirement: "LINT.lint-changed-files", Source: session.SourceRun,
				Command: c.cmd, ExitCode: 0, Duration: time.Millisecond, Dir: e.root}); err != nil {
				t.Fatal(err)
			}
			g, err := e.engine.ValidateGate(ctx, id, "LINT")
			if err != nil {
				t.Fatal(err)
			}
			if (g.Status == session.StatusPass) != c.pass {
				t.Fatalf("%s: gate %s, want pass %v: %s", c.cmd, g.Status, c.pass, g.Message)
			}
			if c.note != "" {
				evs, err := e.db.ListEvidence(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, ev := range evs {
					found = found || strings.Contains(ev.Ref, c.note)
				}
				if !found {
					t.Fatalf("no evidence notes %q: %+v", c.note, evs)
				}
			}
		})
	}
}

// TestLintGateUnderConfigThatCannotFail: a protocol's lint command gate,
// run for real (flake8), passes on code with findings once the session
// writes a .flake8 ignoring every check; before, the gate passed. The
// team's config committed before the session is its choice: the gate
// passes and says the lint could not fail. Honest twin: the session's
// config keeps the checks, the code is clean, the gate passes.
func TestLintGateUnderConfigThatCannotFail(t *testing.T) {
	if _, err := exec.LookPath("flake8"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("flake8 is not installed (.ci/run installs it)")
		}
		t.Skip("flake8 is not installed")
	}
	const lazyCfg = "[flake8]\nextend-ignore = E,W,F,C\n"
	for _, c := range []struct {
		name           string
		before, during map[string]string
		want           session.GateStatus
		msg            string
	}{
		{"session writes .flake8 ignoring everything", map[string]string{"src/a.py": "import os\n"}, map[string]string{".flake8": lazyCfg}, session.StatusFail, "could not fail"},
		{"session fills the team's tox.ini", map[string]string{"src/a.py": "import os\n", "tox.ini": "[tox]\nenvlist = py3\n"}, map[string]string{"tox.ini": "[tox]\nenvlist = py3\n[flake8]\nignore = E W F\n"}, session.StatusFail, "tox.ini"},
		{"team's .flake8 from before", map[string]string{"src/a.py": "import os\n", ".flake8": lazyCfg}, map[string]string{"src/b.py": "import sys\n"}, session.StatusPass, "could not fail"},
		{"honest: session's .flake8 keeps the checks, clean code", map[string]string{"src/a.py": "x = 1\n"}, map[string]string{".flake8": "[flake8]\nmax-line-length = 100\n", "src/b.py": "y = 2\n"}, session.StatusPass, "command passed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HOME", t.TempDir())
			e := newEnv(t, gateProtocol(`<!-- gate: command "flake8 src" -->`))
			e.now = time.Now().Add(-time.Minute)
			for f, body := range c.before {
				gittest.Write(t, e.root, f, body)
			}
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "before the session")
			id := e.start(c.name)
			for f, body := range c.during {
				gittest.Write(t, e.root, f, body)
			}
			g := e.gate(id, "")
			if g.Status != c.want || !strings.Contains(g.Checks[0].Message, c.msg) {
				t.Fatalf("gate %s %q, want %s containing %q", g.Status, g.Checks[0].Message, c.want, c.msg)
			}
		})
	}
}
