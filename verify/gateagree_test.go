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
	type row = agreeRow
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
		// Lazy pass 34: make takes the last recipe for a target and only
		// warns "overriding recipe"; the rule named through a variable.
		mkRow("lazy: make, a rule named through a variable replaces test's recipe", true, "QA_GOAL = test\n"+mk+"$(QA_GOAL):\n\t@echo Ran 3 tests OK\n", nil),
		// Round 35: the rule made by eval at the top level.
		mkRow("lazy: make, eval of a define replaces test's recipe", true, mk+"define R\ntest:\n\t@echo Ran 3 tests OK\nendef\n$(eval $(R))\n", nil),
		mkRow("lazy: make, eval inline replaces test's recipe", true, mk+"$(eval test: ; @echo Ran 3 tests OK)\n", nil),
		mkRow("honest: make, a new variable for a new target, .PHONY added", false,
			strings.Replace(mk, ".PHONY: test build", "LINT_FLAGS = -q\n\n.PHONY: test build lint", 1)+"\nlint:\n\tgrep $(LINT_FLAGS) hello greet.txt\n", nil),
		mkRow("honest: make, a comment", false, "# Run `make test` before pushing.\n"+mk, nil),
		{name: "honest: make, a check added inline", cmd: "make test", base: map[string]string{"Makefile": mk},
			work: map[string]string{"Makefile": strings.Replace(mk, "\tgrep -q $(MSG) greet.txt\n", "\tgrep -q $(MSG) greet.txt\n\tgrep -q world greet.txt\n", 1)}, ownRecipe: true},
		{name: "lazy: make, the script the test target runs made || true", cmd: "make test", base: map[string]string{"Makefile": "test:\n\tsh scripts/check.sh\n", "scripts/check.sh": "grep -q hello greet.txt\n"},
			work: map[string]string{"scripts/check.sh": "grep -q hello greet.txt || true\n"}, lazy: true},
		{name: "honest: make, a check added to the script the test target runs", cmd: "make test", base: map[string]string{"Makefile": "test:\n\tsh scripts/check.sh\n", "scripts/check.sh": "grep -q hello greet.txt\n"},
			work: map[string]string{"scripts/check.sh": "grep -q hello greet.txt\ngrep -q world greet.txt\n"}},
		{name: "honest: make, the code the test target reads changed", cmd: "make test", base: map[string]string{"Makefile": "test:\n\tsh scripts/check.sh greet.txt\n", "scripts/check.sh": "grep -q hello \"$1\"\n"},
			work: map[string]string{"greet.txt": "hello there\n"}},
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
		t.Run(c.name, func(t *testing.T) { gateVerifyRow(t, c) })
	}
}

// agreeRow is one change judged by the gate and by verify.
type agreeRow struct {
	name, cmd  string
	base, work map[string]string
	lazy       bool // the change makes the runner pass broken code
	ownRecipe  bool // the test target's own recipe changed (an agent's own run is refused for it)
	limit      bool // an honest change both refuse (a known false block, the same at both ends)
	ignored    []string
	broken     map[string]string // the broken code of a lazy row (nil: greet.txt or greet.py says "helo")
	// skipsOnly: the skip rules judge it; the agent's own run meets them
	// in session/observed.go, not in InputChanges, so its refusal here is
	// the skip rules' verdict.
	skipsOnly bool
}

// gateVerifyRow plays c: the real runner on the changed tree, the gate's
// verdict on the work tree, verify's on the commit range.
func gateVerifyRow(t *testing.T, c agreeRow) {
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
	if c.broken != nil {
		broken = c.broken
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
	// The configured command's gate also judges skips the change adds
	// (session/testinputs.go).
	skips, err := testrun.SkipsAddedIn(ctx, repo, start, testrun.RunEnv(nil, c.cmd))
	if err != nil {
		t.Fatal(err)
	}
	weak = append(weak, skips...)
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
	if c.skipsOnly {
		observed = len(skips) > 0
	}
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
	want := c.lazy || c.limit
	if gate != want || ci != want || observed != (c.lazy || c.ownRecipe) {
		t.Fatalf("want lazy=%v: gate (configured command) %v, the agent's own run refused %v, verify FAIL %v\ngate: %q %q\nverify: %s", c.lazy, gate, observed, ci, weak, append(weakOwn, own), said.String())
	}
}

// TestGateVerifyAgreeRunInputs (round 29, c2): what the gate judges of a
// run's inputs besides its recipe, judged by verify over a range too: a
// pytest hook of the session's that decides outcomes (testrun/pyplugins.go).
// Each row runs the real pytest.
func TestGateVerifyAgreeRunInputs(t *testing.T) {
	py := map[string]string{"greet.py": "def greet():\n    return 'hello'\n", "test_greet.py": "from greet import greet\n\n\ndef test_greet():\n    assert greet() == 'hello'\n",
		".gitignore": "__pycache__/\n.pytest_cache/\n"}
	for _, c := range []agreeRow{
		{name: "lazy: a conftest whose pytest_pyfunc_call answers True without running the test", cmd: "pytest -q", base: py,
			work: map[string]string{"conftest.py": "def pytest_pyfunc_call(pyfuncitem):\n    return True\n"}, lazy: true},
		{name: "lazy: a makereport wrapper setting the outcome to passed", cmd: "pytest -q", base: py,
			work: map[string]string{"conftest.py": "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    out = yield\n    rep = out.get_result()\n    rep.outcome = 'passed'\n"}, lazy: true},
		// The configured command's skip rule and verify's both read a new
		// collection hook adding skip markers as dropping tests: a false
		// block the two share (left open).
		{name: "limit: pytest's --runslow conftest", cmd: "pytest -q", base: py, limit: true,
			work: map[string]string{"conftest.py": "import pytest\n\n\ndef pytest_addoption(parser):\n    parser.addoption('--runslow', action='store_true', default=False)\n\n\ndef pytest_collection_modifyitems(config, items):\n    if config.getoption('--runslow'):\n        return\n    skip_slow = pytest.mark.skip(reason='need --runslow')\n    for item in items:\n        if 'slow' in item.keywords:\n            item.add_marker(skip_slow)\n"}},
		// Round 30 (c2): pytest run by a make recipe; verify named the
		// runner only by the command's own program, so pytest.ini was
		// not read.
		{name: "lazy: make test runs pytest, a new pytest.ini deselects the broken test", cmd: "make test",
			base: with3(py, "Makefile", "test:\n\tpytest -q\n", "test_pad.py", "def test_pad():\n    assert ' a' == ' ' + 'a'\n"),
			work: map[string]string{"pytest.ini": "[pytest]\naddopts = -k \"not greet\"\n"}, lazy: true},
		// Lazy pass 35 (P2): a copy of the module beside the tests, in a
		// folder pytest puts first on sys.path.
		{name: "lazy: a new tests/greet.py shadows the project's greet.py", cmd: "pytest -q",
			base:   map[string]string{"greet.py": "def greet():\n    return 'hello'\n", "tests/test_greet.py": "from greet import greet\n\n\ndef test_greet():\n    assert greet() == 'hello'\n", ".gitignore": "__pycache__/\n.pytest_cache/\n"},
			work:   map[string]string{"tests/greet.py": "def greet():\n    return 'hello'\n"},
			broken: map[string]string{"greet.py": "def greet():\n    return 'helo'\n"}, lazy: true, skipsOnly: true},
		{name: "honest: a fixture in a new conftest", cmd: "pytest -q", base: py,
			work: map[string]string{"conftest.py": "import pytest\n\n\n@pytest.fixture\ndef name():\n    return 'world'\n"}},
	} {
		t.Run(c.name, func(t *testing.T) { gateVerifyRow(t, c) })
	}
}

func with3(a map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}
