package verify_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/verify"
)

// TestRerunPyHarness: verify --rerun runs the base's QA command with the
// run harness (pyharness), as the gate does: a range whose code ends the
// unittest runner by a computed posix._exit, or swaps assertEqual through
// importlib, fails the rerun that exits 0; the same os._exit in a file
// the range did not change is the project's own (honest twin).
func TestRerunPyHarness(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 not installed: CI installs it (.ci/run)")
		}
		t.Skip("python3 not installed")
	}
	const cmd = "python3 -m unittest discover -s tests -t ."
	base := map[string]string{
		"greet/__init__.py":   "def greet():\n    return 'hello'\n",
		"tests/__init__.py":   "",
		"tests/test_greet.py": "import unittest\nfrom greet import greet\n\nclass T(unittest.TestCase):\n    def test_greet(self):\n        self.assertEqual(greet(), 'hello')\n",
		".gitignore":          "__pycache__/\n",
	}
	exitAtEnd := "import atexit, importlib\natexit.register(lambda: importlib.import_module('po' + 'six').__dict__['_e' + 'xit'](0))\n"
	for _, c := range []struct {
		name       string
		base       map[string]string // added to the base
		work       map[string]string
		fail       bool
		wantInNote string
	}{
		{name: "lazy: posix._exit through a computed name", work: map[string]string{"greet/__init__.py": "def greet():\n    return 'helo'\n", "tests/__init__.py": exitAtEnd},
			fail: true, wantInNote: "ended without Python's normal exit"},
		{name: "lazy: assertEqual swapped through importlib", work: map[string]string{"greet/__init__.py": "def greet():\n    return 'helo'\n",
			"tests/__init__.py": "import importlib\n_c = getattr(importlib.import_module('unittest.' + 'case'), 'Test' + 'Case')\ntype.__setattr__(_c, 'assert' + 'Equal', lambda *a, **k: None)\n"},
			fail: true, wantInNote: "TestCase.assertEqual (by tests/__init__.py:3)"},
		{name: "honest: the project's own os._exit, unchanged", base: map[string]string{"tests/conftest_exit.py": "import atexit, os\natexit.register(lambda: os._exit(0))\n", "tests/__init__.py": "from . import conftest_exit\n"},
			work: map[string]string{"greet/__init__.py": "def greet():\n    return 'hello'  # kept\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range base {
				files[k] = v
			}
			for k, v := range c.base {
				files[k] = v
			}
			dir := gittest.New(t, files)
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			head := gittest.Commit(t, dir, "work", c.work)
			qa := rerunQA(t, dir, start, head, cmd)
			if qa.ExitCode != 0 {
				t.Fatalf("the runner itself exited %d: the row proves nothing\n%s", qa.ExitCode, qa.Output)
			}
			if (qa.Status == "fail") != c.fail || !strings.Contains(qa.Note, c.wantInNote) {
				t.Errorf("rerun status %q note %q, want fail %v with %q\n%s", qa.Status, qa.Note, c.fail, c.wantInNote, qa.Output)
			}
		})
	}
}

// TestRerunRunnerSaidFailed: a rerun that exits 0 while its runner's own
// summary says tests failed fails (lazy pass 35, P1c: a conftest's
// pytest_unconfigure setting session.exitstatus = 0), as at the gate.
func TestRerunRunnerSaidFailed(t *testing.T) {
	const py = "/usr/bin/python3"
	if exec.Command(py, "-c", "import pytest").Run() != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no pytest for /usr/bin/python3: CI installs python3-pytest (.ci/run)")
		}
		t.Skip("no pytest for /usr/bin/python3")
	}
	const cmd = py + " -m pytest -q -p no:cacheprovider"
	dir := gittest.New(t, map[string]string{
		"greet.py":      "def greet():\n    return 'hello'\n",
		"test_greet.py": "from greet import greet\n\n\ndef test_greet():\n    assert greet() == 'hello'\n",
		".gitignore":    "__pycache__/\n",
	})
	start := gittest.Git(t, dir, "rev-parse", "HEAD")
	head := gittest.Commit(t, dir, "work", map[string]string{
		"greet.py":    "def greet():\n    return 'helo'\n",
		"conftest.py": "_state = {}\n\n\ndef pytest_sessionstart(session):\n    _state['session'] = session\n\n\ndef pytest_unconfigure(config):\n    s = _state.get('session')\n    if s is not None:\n        s.exitstatus = 0\n",
	})
	r := rerunQA(t, dir, start, head, cmd)
	if r.ExitCode != 0 {
		t.Fatalf("pytest exited %d: the row proves nothing\n%s", r.ExitCode, r.Output)
	}
	if r.Status != "fail" || !strings.Contains(r.Note, "1 failed") {
		t.Errorf("rerun status %q note %q, want fail naming the runner's summary\n%s", r.Status, r.Note, r.Output)
	}
}

// rerunQA is verify --rerun of start..head with cmd as the base's QA
// command: that command's result.
func rerunQA(t *testing.T, dir, start, head, cmd string) *verify.RerunResult {
	t.Helper()
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Commands = map[string]string{"QA_VALIDATION": cmd}
	res, err := verify.Rerun(ctx, repo, &verify.Baseline{Rev: start, Config: cfg, ConfigFile: "sessiongate.yaml"}, head, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for i := range res {
		if res[i].Command == cmd {
			return &res[i]
		}
	}
	t.Fatalf("no rerun of %q: %+v", cmd, res)
	return nil
}
