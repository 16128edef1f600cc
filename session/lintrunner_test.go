package session_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestLintGateThroughRunnerScript (round 22): a lint gate whose command
// is a runner's target (`make lint`, `npm run lint`, `pre-commit run`)
// runs what a file the agent can edit says. The session loosening it
// (`flake8 --exit-zero src` in the Makefile, `--max-warnings 99999` for
// the team's `--max-warnings 0`, `args: [--exit-zero]` on a pre-commit
// hook) made the real runner and linter exit 0 over findings: the gate
// passed. Honest twins: the team's own script, unchanged, that cannot
// fail (noted, passes), a tightening pass (`--max-warnings 0` added) on
// clean code, and an unrelated script edited.
func TestLintGateThroughRunnerScript(t *testing.T) {
	for _, tool := range []string{"make", "npm", "flake8", "pre-commit"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed (.ci/run installs it)", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	const bad = "import os\n" // F401: flake8 fails on it
	const good = "X = 1\n"    // nothing to report
	mk := func(cmd string) string { return "lint:\n\t" + cmd + "\n\ntest:\n\tpytest -q\n" }
	pj := func(lint string) string {
		return "{\n  \"name\": \"x\",\n  \"private\": true,\n  \"scripts\": {\n    \"lint\": \"" + lint + "\",\n    \"build\": \"true\"\n  }\n}\n"
	}
	pc := func(args string) string {
		return "repos:\n- repo: local\n  hooks:\n  - id: flake8\n    name: flake8\n    entry: flake8\n    language: system\n    types: [python]\n" + args
	}
	for _, c := range []struct {
		name, cmd      string
		before, during map[string]string
		want           session.GateStatus
		msg            string
	}{
		{"Makefile target given --exit-zero", "make lint", map[string]string{"src/a.py": bad, "Makefile": mk("flake8 src")},
			map[string]string{"Makefile": mk("flake8 --exit-zero src")}, session.StatusFail, "Makefile"},
		{"package.json script given --exit-zero", "npm run lint", map[string]string{"src/a.py": bad, "package.json": pj("flake8 src")},
			map[string]string{"package.json": pj("flake8 --exit-zero src")}, session.StatusFail, "package.json"},
		{"package.json script's path narrowed", "npm run lint", map[string]string{"src/a.py": bad, "src/b.py": good, "package.json": pj("flake8 src")},
			map[string]string{"package.json": pj("flake8 src/b.py")}, session.StatusFail, "no longer lints src"},
		{"pre-commit hook given --exit-zero", "pre-commit run flake8 --all-files", map[string]string{"src/a.py": bad, ".pre-commit-config.yaml": pc("")},
			map[string]string{".pre-commit-config.yaml": pc("    args: [--exit-zero]\n")}, session.StatusFail, ".pre-commit-config.yaml"},
		{"pre-commit hook's errors ignored", "pre-commit run --all-files", map[string]string{"src/a.py": bad, ".pre-commit-config.yaml": pc("")},
			map[string]string{".pre-commit-config.yaml": pc("    args: [--extend-ignore=F]\n")}, session.StatusFail, "extend-ignore"},
		// Round 23: a file named on the line (make -f, pre-commit -c) is the one judged.
		{"make -f file's target given --exit-zero", "make -f lint.mk lint", map[string]string{"src/a.py": bad, "lint.mk": mk("flake8 src")},
			map[string]string{"lint.mk": mk("flake8 --exit-zero src")}, session.StatusFail, "lint.mk"},
		{"pre-commit -c config's hook given --exit-zero", "pre-commit run -c ci/pc.yaml --all-files", map[string]string{"src/a.py": bad, "ci/pc.yaml": pc("")},
			map[string]string{"ci/pc.yaml": pc("    args: [--exit-zero]\n")}, session.StatusFail, "ci/pc.yaml"},
		{"honest: make -f file tightened on clean code", "make -f lint.mk lint", map[string]string{"src/a.py": good, "lint.mk": mk("flake8 src")},
			map[string]string{"lint.mk": mk("flake8 --max-line-length 79 src")}, session.StatusPass, "command passed"},
		{"honest: pre-commit -c config still fails on findings", "pre-commit run -c ci/pc.yaml --all-files", map[string]string{"src/a.py": bad, "ci/pc.yaml": pc("")},
			nil, session.StatusFail, "exited"},
		{"honest: the team's Makefile cannot fail, unchanged", "make lint", map[string]string{"src/a.py": good, "Makefile": mk("flake8 --exit-zero src")},
			map[string]string{"src/b.py": good}, session.StatusPass, "could not fail"},
		{"honest: a tightening pass on clean code", "npm run lint", map[string]string{"src/a.py": good, "package.json": pj("flake8 src")},
			map[string]string{"package.json": pj("flake8 --max-line-length 79 --extend-select B src")}, session.StatusPass, "command passed"},
		{"honest: another target edited", "make lint", map[string]string{"src/a.py": good, "Makefile": mk("flake8 src")},
			map[string]string{"Makefile": strings.Replace(mk("flake8 src"), "pytest -q", "pytest -q -x", 1)}, session.StatusPass, "command passed"},
		{"honest: a plain run still fails on findings", "make lint", map[string]string{"src/a.py": bad, "Makefile": mk("flake8 src")},
			nil, session.StatusFail, "exited"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HOME", t.TempDir())
			t.Setenv("PRE_COMMIT_HOME", t.TempDir())
			e := newEnv(t, gateProtocol(`<!-- gate: command "`+c.cmd+`" -->`))
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
			gittest.Git(t, e.root, "add", "-A")
			g := e.gate(id, "")
			if g.Status != c.want || !strings.Contains(g.Checks[0].Message, c.msg) {
				t.Fatalf("gate %s %q, want %s containing %q", g.Status, g.Checks[0].Message, c.want, c.msg)
			}
		})
	}
}
