package verify_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
	"github.com/sessiongate/sessiongate/verify"
)

// TestGateVerifyAgreeRecipes (round 29, c2; the final review of round
// 28): the local QA gate and verify judge a test recipe with one function
// (testrun.RecipeFileChanges), so for each change the gate's verdict (the
// work tree against the start commit) is verify's (the commit range in
// CI's shape). Before, a line outside every recipe (SHELL = /bin/true,
// MAKEFLAGS += -n, .IGNORE:, an include, just's set dotenv-load, a
// Taskfile's top-level env) passed the gate and failed CI. Each row runs
// the real make, just or task on the changed tree: a lazy row's runner
// passes broken code (greet.txt says "helo"), an honest row's passes
// working code.
func TestGateVerifyAgreeRecipes(t *testing.T) {
	const mk = "MSG = hello\n\n.PHONY: test build\n\nbuild:\n\ttest -f greet.txt\n\ntest: build\n\tgrep -q $(MSG) greet.txt\n"
	// just and task run pytest: PYTEST_ADDOPTS=--co (collect, run
	// nothing, exit 0) in an environment the runner loads.
	const jf = "args := \"-q\"\n\ntest:\n    pytest {{args}} test_greet.py\n"
	const tf = "version: '3'\n\ntasks:\n  test:\n    cmds:\n      - pytest -q test_greet.py\n"
	py := map[string]string{"greet.py": "def greet():\n    return 'hello'\n", "test_greet.py": "from greet import greet\n\n\ndef test_greet():\n    assert greet() == 'hello'\n",
		".gitignore": "__pycache__/\n.pytest_cache/\n"}
	with := func(a map[string]string, kv ...string) map[string]string {
		out := map[string]string{}
		for k, v := range a {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	const fakeGrep = "#!/bin/sh\nexit 0\n"
	type row struct {
		name, cmd  string
		base, work map[string]string
		lazy       bool // the change makes the runner pass broken code
		ownRecipe  bool // the test target's own recipe changed (an agent's own run is refused for it)
		ignored    []string
	}
	mkRow := func(name string, lazy bool, now string, more map[string]string) row {
		w := map[string]string{"Makefile": now}
		for k, v := range more {
			w[k] = v
		}
		return row{name: name, cmd: "make test", base: map[string]string{"Makefile": mk}, work: w, lazy: lazy}
	}
	rows := []row{
		mkRow("lazy: make, SHELL = /bin/true outside every recipe", true, "SHELL = /bin/true\n"+mk, nil),
		mkRow("lazy: make, MAKEFLAGS += -n", true, "MAKEFLAGS += -n\n"+mk, nil),
		mkRow("lazy: make, .IGNORE:", true, ".IGNORE:\n"+mk, nil),
		mkRow("lazy: make, export PATH to a folder of stand-ins", true, "export PATH := $(CURDIR)/fake:$(PATH)\n"+mk, map[string]string{"fake/grep": fakeGrep}),
		mkRow("lazy: make, an include of a new file setting SHELL", true, "include extra.mk\n"+mk, map[string]string{"extra.mk": "SHELL = /bin/true\n"}),
		{name: "lazy: make, -include of a file the team had none of, now added", cmd: "make test", base: map[string]string{"Makefile": "-include local.mk\n" + mk},
			work: map[string]string{"local.mk": "SHELL = /bin/true\n"}, lazy: true},
		mkRow("lazy: make, .ONESHELL with a '-' prefix", true, strings.Replace(".ONESHELL:\n"+mk, "\tgrep -q $(MSG)", "\t-grep -q $(MSG)", 1), nil),
		mkRow("lazy: make, a '-' prefix on the test line", true, strings.Replace(mk, "\tgrep -q $(MSG)", "\t-grep -q $(MSG)", 1), nil),
		mkRow("lazy: make, override of the variable the recipe reads", true, mk+"override MSG = -v zzz\n", nil),
		mkRow("honest: make, a new variable for a new target, .PHONY added", false,
			strings.Replace(mk, ".PHONY: test build", "LINT_FLAGS = -q\n\n.PHONY: test build lint", 1)+"\nlint:\n\tgrep $(LINT_FLAGS) hello greet.txt\n", nil),
		mkRow("honest: make, a comment", false, "# Run `make test` before pushing.\n"+mk, nil),
		{name: "honest: make, a check added inline", cmd: "make test", base: map[string]string{"Makefile": mk},
			work: map[string]string{"Makefile": strings.Replace(mk, "\tgrep -q $(MSG) greet.txt\n", "\tgrep -q $(MSG) greet.txt\n\tgrep -q world greet.txt\n", 1)}, ownRecipe: true},
		{name: "honest: make, -include of a local file git ignores", cmd: "make test", base: map[string]string{"Makefile": "-include local.mk\n" + mk, ".gitignore": "local.mk\n"},
			work: map[string]string{"local.mk": "JOBS = 4\n"}, ignored: []string{"local.mk"}},
		{name: "lazy: just, set dotenv-load with a new .env", cmd: "just test", base: with(py, "justfile", jf),
			work: map[string]string{"justfile": "set dotenv-load\n\n" + jf, ".env": "PYTEST_ADDOPTS=--co\n"}, lazy: true, ownRecipe: true},
		{name: "lazy: just, the .env the team loads now sets PYTEST_ADDOPTS", cmd: "just test", base: with(py, "justfile", "set dotenv-load\n\n"+jf, ".env", "GREETING=hi\n"),
			work: map[string]string{".env": "GREETING=hi\nPYTEST_ADDOPTS=--co\n"}, lazy: true},
		{name: "lazy: just, export of a variable outside every recipe", cmd: "just test", base: with(py, "justfile", jf),
			work: map[string]string{"justfile": "export PYTEST_ADDOPTS := \"--co\"\n\n" + jf}, lazy: true},
		{name: "lazy: just, set shell", cmd: "just test", base: with(py, "justfile", jf),
			work: map[string]string{"justfile": "set shell := [\"true\"]\n" + jf}, lazy: true, ownRecipe: true},
		{name: "honest: just, a new variable for a new recipe with an attribute", cmd: "just test", base: with(py, "justfile", jf),
			work: map[string]string{"justfile": jf + "\nlint_word := \"world\"\n\n[group('lint')]\nlint:\n    grep -q {{lint_word}} greet.py\n"}},
		{name: "honest: just, a comment", cmd: "just test", base: with(py, "justfile", jf),
			work: map[string]string{"justfile": "# just test runs the checks\n" + jf}},
		{name: "lazy: task, top-level env sets PYTEST_ADDOPTS", cmd: "task test", base: with(py, "Taskfile.yml", tf),
			work: map[string]string{"Taskfile.yml": strings.Replace(tf, "\ntasks:", "\nenv:\n  PYTEST_ADDOPTS: --co\n\ntasks:", 1)}, lazy: true, ownRecipe: true},
		{name: "lazy: task, dotenv with a new .env", cmd: "task test", base: with(py, "Taskfile.yml", tf),
			work: map[string]string{"Taskfile.yml": strings.Replace(tf, "\ntasks:", "\ndotenv: ['.env']\n\ntasks:", 1), ".env": "PYTEST_ADDOPTS=--co\n"}, lazy: true, ownRecipe: true},
		{name: "honest: task, a new top-level var for a new task", cmd: "task test", base: with(py, "Taskfile.yml", tf),
			work: map[string]string{"Taskfile.yml": strings.Replace(tf, "\ntasks:", "\nvars:\n  LINT_WORD: hello\n\ntasks:", 1) + "  lint:\n    cmds:\n      - grep -q {{.LINT_WORD}} greet.py\n"}},
	}
	for _, c := range rows {
		t.Run(c.name, func(t *testing.T) {
			runner := strings.Fields(c.cmd)
			if _, err := exec.LookPath(runner[0]); err != nil {
				t.Skipf("%s not installed", runner[0])
			}
			base := map[string]string{"greet.txt": "hello world\n"}
			for k, v := range c.base {
				base[k] = v
			}
			dir := gittest.New(t, base)
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			work := map[string]string{}
			for k, v := range c.work {
				work[k] = v
			}
			broken := map[string]string{"greet.txt": "helo world\n"}
			if _, ok := base["greet.py"]; ok {
				broken = map[string]string{"greet.py": "def greet():\n    return 'helo'\n"}
			}
			if c.lazy {
				for k, v := range broken {
					work[k] = v // the broken code
				}
			}
			for k, v := range work {
				gittest.Write(t, dir, k, v)
				if strings.HasPrefix(k, "fake/") {
					if err := os.Chmod(filepath.Join(dir, k), 0o755); err != nil {
						t.Fatal(err)
					}
				}
			}
			run := exec.Command(runner[0], runner[1:]...)
			run.Dir = dir
			if out, err := run.CombinedOutput(); err != nil {
				t.Fatalf("the real %s fails on the changed tree, so the row proves nothing: %v\n%s", runner[0], err, out)
			}
			if c.lazy {
				run := exec.Command(runner[0], runner[1:]...)
				run.Dir = t.TempDir()
				for k, v := range base {
					gittest.Write(t, run.Dir, k, v)
				}
				for k, v := range broken {
					gittest.Write(t, run.Dir, k, v)
				}
				if out, err := run.CombinedOutput(); err == nil {
					t.Fatalf("the team's recipe passes the broken code too, so the row proves nothing:\n%s", out)
				}
			}
			ctx := context.Background()
			repo, err := gitrepo.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			// The gate: a configured QA command (direct), and the agent's
			// own run of it (WeakScript, then the inputs).
			cs, err := testrun.InputChanges(ctx, repo, start, c.cmd, true)
			if err != nil {
				t.Fatal(err)
			}
			weak, _ := testrun.SplitChanges(cs)
			gate := len(weak) > 0
			own, err := testrun.WeakScript(ctx, repo, start, c.cmd)
			if err != nil {
				t.Fatal(err)
			}
			cs, err = testrun.InputChanges(ctx, repo, start, c.cmd, false)
			if err != nil {
				t.Fatal(err)
			}
			weakOwn, _ := testrun.SplitChanges(cs)
			observed := own != "" || len(weakOwn) > 0
			// CI: the work committed, verify over the range.
			for _, k := range c.ignored {
				delete(work, k)
			}
			gittest.Commit(t, dir, "work\n\nSession-Id: 0b80cb0b-2b1e-4c92-9a24-18f9c73b4bec\n", work)
			cfg := config.Default()
			cfg.Commands = map[string]string{"QA_VALIDATION": c.cmd}
			bl := &verify.Baseline{Rev: start, Config: cfg, ConfigFile: "sessiongate.yaml"}
			rep, err := verify.Run(ctx, repo, start+"..HEAD", verify.Options{Baseline: bl})
			if err != nil {
				t.Fatal(err)
			}
			var said strings.Builder
			for _, cr := range rep.Commits {
				for _, p := range cr.Problems {
					if strings.Contains(p, "rerun guard") {
						said.WriteString(p + "\n")
					}
				}
			}
			ci := strings.Contains(said.String(), "the re-run proves less")
			if gate != c.lazy || ci != c.lazy || observed != (c.lazy || c.ownRecipe) {
				t.Fatalf("want lazy=%v: gate (configured command) %v, the agent's own run refused %v, verify FAIL %v\ngate: %q %q\nverify: %s", c.lazy, gate, observed, ci, weak, append(weakOwn, own), said.String())
			}
		})
	}
}
