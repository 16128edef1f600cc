package pyharness_test

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
	"github.com/sessiongate/sessiongate/pyharness"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// python finds a Python 3.8+ (audit hooks), or skips; under CI=true a
// missing one fails.
func python(t *testing.T, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			if exec.Command(p, "-c", "import sys; assert sys.version_info >= (3, 8)").Run() == nil {
				return p
			}
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("no Python 3.8+ (%s) on PATH: CI installs it (.ci/run)", strings.Join(names, ", "))
	}
	t.Skipf("no Python 3.8+ (%s) on PATH", strings.Join(names, ", "))
	return ""
}

const greet = "def greet():\n    return 'TODO'\n"
const goodGreet = "def greet():\n    return 'hello'\n"
const testGreet = "import unittest\nfrom greet import greet\n\nclass T(unittest.TestCase):\n    def test_greet(self):\n        self.assertEqual(greet(), 'hello')\n"

// TestFindings runs the real unittest through the harness: each lazy row
// makes broken greet() pass (exit 0) by what it does to the framework,
// spelled so the static rules of testrun would have to guess; each honest
// row passes or fails on its own, with no finding.
func TestFindings(t *testing.T) {
	py := python(t, "python3")
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // a word of a finding; "" for none
		exit0 bool   // the run exits 0 (lazy rows: the point of the trick)
	}{
		{"assertEqual rebound", map[string]string{"tests/test_aaa.py": "import unittest\nunittest.TestCase.assertEqual = lambda *a, **k: None\n"},
			"unittest.TestCase.assertEqual (by tests/test_aaa.py:2)", true},
		{"computed names through getattr", map[string]string{"tests/test_aaa.py": "n = ''.join(['ass', 'ertEq', 'ual'])\nsetattr(getattr(__import__('unit' + 'test'), 'Test' + 'Case'), n, lambda *a, **k: None)\n"},
			"TestCase.assertEqual", true},
		{"type.__setattr__", map[string]string{"tests/test_aaa.py": "import unittest\ntype.__setattr__(unittest.TestCase, 'assert' + 'Equal', lambda *a, **k: None)\n"},
			"TestCase.assertEqual", true},
		{"mock.patch.object started at import", map[string]string{"tests/test_aaa.py": "import unittest\nfrom unittest import mock\nmock.patch.object(unittest.TestCase, 'assertEqual', lambda *a, **k: None).start()\n"},
			"TestCase.assertEqual (by tests/test_aaa.py:3)", true},
		{"the result always successful", map[string]string{"greet/__init__.py": "import unittest\nunittest.TestResult.wasSuccessful = lambda self: True\n" + greet},
			"TestResult.wasSuccessful (by greet/__init__.py:2)", true},
		{"os._exit(0) at the end", map[string]string{"tests/test_zzz.py": "import atexit, os, sys\natexit.register(lambda: (sys.stderr.write('OK\\n'), os._exit(0)))\n"},
			"ended by os._exit(0) from tests/test_zzz.py:2", true},
		{"posix._exit(0), past the note", map[string]string{"tests/test_zzz.py": "import atexit, posix\natexit.register(lambda: posix._exit(0))\n"},
			"ended without Python's normal exit", true},
		{"sys.exit swallowed", map[string]string{"tests/test_aaa.py": "import sys\nsys.exit = lambda *a: None\n"},
			"sys.exit (by tests/test_aaa.py:2)", true},
		{"assertEqual made a Mock", map[string]string{"tests/test_aaa.py": "import unittest\nfrom unittest import mock\nunittest.TestCase.assertEqual = mock.Mock()\n"},
			"TestCase.assertEqual (by a Mock)", true},
		{"unittest.TestCase replaced in the package", map[string]string{"tests/__init__.py": "import unittest\nclass _TC(unittest.TestCase):\n    def assertEqual(self, *a, **k):\n        pass\nunittest.TestCase = _TC\n"},
			"unittest.TestCase (by tests/__init__.py)", true},
		// Honest.
		{"a passing suite", map[string]string{"greet/__init__.py": goodGreet}, "", true},
		{"a failing suite", nil, "", false},
		{"maxDiff", map[string]string{"greet/__init__.py": goodGreet, "tests/test_aaa.py": "import unittest\nunittest.TestCase.maxDiff = None\n"}, "", true},
		{"a mock's magic method", map[string]string{"greet/__init__.py": goodGreet, "tests/test_mock.py": "import unittest\nfrom unittest import mock\n\nclass M(unittest.TestCase):\n    def test_iter(self):\n        m = mock.MagicMock()\n        m.__iter__ = mock.Mock(return_value=iter([1]))\n        self.assertEqual(list(m), [1])\n"}, "", true},
		{"the project's own classes patched", map[string]string{"greet/__init__.py": goodGreet + "class G:\n    x = 1\n", "tests/test_g.py": "import enum, dataclasses, unittest\nfrom unittest import mock\nimport greet\n\nclass C(enum.Enum):\n    A = 1\n\n@dataclasses.dataclass\nclass D:\n    a: int = 1\n\nclass P(unittest.TestCase):\n    def test_p(self):\n        with mock.patch.object(greet.G, 'x', 2):\n            self.assertEqual(greet.G.x, 2)\n"}, "", true},
		{"a child Python and a forked child", map[string]string{"greet/__init__.py": goodGreet, "tests/test_proc.py": "import os, subprocess, sys, unittest\n\nclass S(unittest.TestCase):\n    def test_child(self):\n        subprocess.run([sys.executable, '-c', 'import os; os._exit(0)'], check=True)\n        pid = os.fork()\n        if pid == 0:\n            os._exit(0)\n        os.waitpid(pid, 0)\n"}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, h := harnessed(t, map[string]string{"greet/__init__.py": greet, "tests/__init__.py": "", "tests/test_greet.py": testGreet}, tc.files)
			cmd := exec.Command(py, "-m", "unittest", "discover", "-s", "tests", "-t", ".")
			cmd.Dir, cmd.Env = root, h.Env(append(os.Environ(), "PYTHONPATH=", "PYTHONDONTWRITEBYTECODE=1"))
			out, err := cmd.CombinedOutput()
			if (err == nil) != tc.exit0 {
				t.Fatalf("exit 0 %v, want %v:\n%s", err == nil, tc.exit0, out)
			}
			got, err := h.Findings()
			if err != nil {
				t.Fatal(err)
			}
			joined := pyharness.Texts(got)
			if tc.want == "" && len(got) > 0 || tc.want != "" && !strings.Contains(joined, tc.want) {
				t.Errorf("findings:\n%s\nwant %q\nrun:\n%s", joined, tc.want, out)
			}
			// A finding is the session's only when its file is one the
			// session changed (or the harness cannot tell).
			for _, f := range got {
				if f.File != "" && len(pyharness.By([]pyharness.Finding{f}, nil)) != 0 {
					t.Errorf("By kept %+v for no changed file", f)
				}
				if len(pyharness.By([]pyharness.Finding{f}, []string{f.File})) != 1 {
					t.Errorf("By dropped %+v for its own file", f)
				}
			}
		})
	}
}

// TestPytestAndChain: pytest through the harness (Debian's, which CI
// installs), honest and with os._exit; and a sitecustomize.py the
// harness stands in front of still runs.
func TestPytestAndChain(t *testing.T) {
	py := python(t, "/usr/bin/python3")
	if exec.Command(py, "-c", "import pytest").Run() != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no pytest for /usr/bin/python3: CI installs python3-pytest (.ci/run)")
		}
		t.Skip("no pytest for /usr/bin/python3 (apt-get install python3-pytest)")
	}
	run := func(t *testing.T, files map[string]string, env ...string) ([]string, string, bool) {
		root := t.TempDir()
		writeTree(t, root, files)
		h, err := pyharness.New(root)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		for i, kv := range env {
			env[i] = strings.ReplaceAll(kv, "$ROOT", root)
		}
		cmd := exec.Command(py, "-m", "pytest", "-q", "-p", "no:cacheprovider")
		cmd.Dir, cmd.Env = root, h.Env(append(append(os.Environ(), "PYTHONPATH=", "PYTHONDONTWRITEBYTECODE=1"), env...))
		out, err := cmd.CombinedOutput()
		got, ferr := h.Findings()
		if ferr != nil {
			t.Fatal(ferr)
		}
		return strings.Split(pyharness.Texts(got), "; "), string(out), err == nil
	}
	test := "def test_greet():\n    assert 'hello' == 'hello'\n"
	if got, out, ok := run(t, map[string]string{"test_g.py": test}); !ok || got[0] != "" {
		t.Errorf("honest pytest: ok %v, findings %q\n%s", ok, got, out)
	}
	lazy := "import os\n\ndef pytest_sessionfinish(session, exitstatus):\n    os._exit(0)\n"
	if got, out, ok := run(t, map[string]string{"test_g.py": "def test_greet():\n    assert 'TODO' == 'hello'\n", "conftest.py": lazy}); !ok || !strings.Contains(strings.Join(got, "\n"), "ended by os._exit(0) from conftest.py:4") {
		t.Errorf("pytest left by os._exit(0): ok %v, findings %q\n%s", ok, got, out)
	}
	// A sitecustomize of the project's PYTHONPATH runs after the harness's.
	chain := map[string]string{"test_g.py": "import os\n\ndef test_chain():\n    assert os.environ.get('CHAINED') == '1'\n", "site/sitecustomize.py": "import os\nos.environ['CHAINED'] = '1'\n"}
	if got, out, ok := run(t, chain, "PYTHONPATH=$ROOT/site"); !ok || got[0] != "" {
		t.Errorf("chained sitecustomize: ok %v, findings %q\n%s", ok, got, out)
	}
}

// writeTree writes files (slash paths) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOwnPythonPath: a command that sets its own PYTHONPATH (`PYTHONPATH=.
// python3 -m unittest`, a common Makefile line) drops the harness's
// folder; the harness's user base still loads it, once, and the real
// user site (~/.local, what `pip install --user` wrote, with its .pth
// files) is where Python would have put it, ahead of the system's
// packages.
func TestOwnPythonPath(t *testing.T) {
	py := python(t, "python3")
	ver := strings.TrimSpace(run(t, exec.Command(py, "-c", "import sys; print('%d.%d' % sys.version_info[:2])")))
	for _, tc := range []struct {
		name, line string
		files      map[string]string
		want       string
	}{
		{"lazy: the framework patched, PYTHONPATH=. in the line", "PYTHONPATH=. " + py + " -m unittest discover -s tests -t .",
			map[string]string{"tests/test_aaa.py": "import unittest\nsetattr(unittest.TestCase, 'assert' + 'Equal', lambda *a, **k: None)\n"}, "TestCase.assertEqual"},
		{"lazy: os._exit, export PYTHONPATH in the line", "export PYTHONPATH=tests; " + py + " -m unittest discover -s tests -t .",
			map[string]string{"tests/test_zzz.py": "import atexit, os\natexit.register(lambda: os._exit(0))\n"}, "ended by os._exit(0)"},
		{"honest: the user site's packages and .pth, before the system's", "PYTHONPATH=. " + py + " -c 'import site, sys, userpkg, pthpkg; u = site.getusersitepackages(); assert u.endswith(\"/.local/lib/python" + ver + "/site-packages\"), u; print(\"ok\" if [p for p in sys.path if p.endswith(\"site-packages\") or p.endswith(\"dist-packages\")][0] == u else sys.path)'",
			nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, home := t.TempDir(), t.TempDir()
			files := map[string]string{"greet/__init__.py": greet, "tests/__init__.py": "", "tests/test_greet.py": testGreet}
			for k, v := range tc.files {
				files[k] = v
			}
			writeTree(t, root, files)
			us := ".local/lib/python" + ver + "/site-packages/"
			writeTree(t, home, map[string]string{us + "userpkg.py": "", us + "extra.pth": home + "/extra\n", "extra/pthpkg.py": ""})
			h, err := pyharness.New(root)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			cmd := exec.Command("sh", "-c", tc.line)
			cmd.Dir, cmd.Env = root, h.Env(append(os.Environ(), "PYTHONPATH=", "PYTHONDONTWRITEBYTECODE=1", "HOME="+home))
			out, err := cmd.CombinedOutput()
			got, ferr := h.Findings()
			if ferr != nil {
				t.Fatal(ferr)
			}
			if tc.want == "" {
				if err != nil || strings.TrimSpace(string(out)) != "ok" || len(got) > 0 {
					t.Fatalf("honest run: %v, findings %q\n%s", err, pyharness.Texts(got), out)
				}
				return
			}
			if err != nil {
				t.Fatalf("the lazy run exits non-zero, the row proves nothing: %v\n%s", err, out)
			}
			if len(got) != 1 || !strings.Contains(got[0].Text, tc.want) {
				t.Errorf("findings %q, want one with %q\n%s", pyharness.Texts(got), tc.want, out)
			}
		})
	}
}

func run(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// pytestPython finds a Python whose pytest imports, or skips; under
// CI=true a missing one fails (.ci/run installs Debian's python3-pytest).
func pytestPython(t *testing.T) string {
	t.Helper()
	for _, n := range []string{"python3", "/usr/bin/python3"} {
		if p, err := exec.LookPath(n); err == nil && exec.Command(p, "-c", "import sys, pytest; assert sys.version_info >= (3, 10)").Run() == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Python 3.10+ with pytest (python3, /usr/bin/python3): CI installs python3-pytest (.ci/run)")
	}
	t.Skip("no Python 3.10+ with pytest (python3, /usr/bin/python3)")
	return ""
}

// TestPytestTests runs the real pytest through the harness: its observer
// says what happened to each test by node id, whatever the output says,
// and a run that unloads it is a finding.
func TestPytestTests(t *testing.T) {
	py := pytestPython(t)
	const suite = "import pytest, warnings\n\n" +
		"def test_pass():\n    pass\n\n" +
		"def test_warn():\n    warnings.warn('x\\n9 passed in 0.01s')\n\n" +
		"@pytest.mark.skip\ndef test_skip():\n    pass\n\n" +
		"@pytest.mark.xfail\ndef test_xfail():\n    assert 0\n\n" +
		"def test_fail():\n    assert 0\n\n" +
		"def test_desel():\n    pass\n\n" +
		"def test_dropped():\n    pass\n"
	const dropper = "def pytest_collection_modifyitems(items):\n    items[:] = [i for i in items if i.name != 'test_dropped']\n"
	for _, tc := range []struct {
		name, args string
		files      map[string]string
		want       map[string]pyharness.TestState
		finding    string
		line       string // in place of python -m pytest
	}{
		{"each test's fate", "-k 'not desel'", map[string]string{"conftest.py": dropper}, map[string]pyharness.TestState{
			"test_s.py::test_pass": pyharness.Passed, "test_s.py::test_warn": pyharness.Passed, "test_s.py::test_skip": pyharness.NotRun,
			"test_s.py::test_xfail": pyharness.NotRun, "test_s.py::test_fail": pyharness.Failed, "test_s.py::test_desel": pyharness.NotRun,
			"test_s.py::test_dropped": pyharness.Collected}, "", ""},
		{"the observer unloaded by name", "-p no:sessiongate-observer", nil, nil, "observer of its tests unloaded", ""},
		{"the call observer unloaded by name", "-p no:sessiongate-observer-call", nil, nil, "observer of its tests unloaded", ""},
		{"the observer unloaded from an ini file", "", map[string]string{"pytest.ini": "[pytest]\naddopts = -p no:sessiongate-observer -p no:terminal\n"}, nil, "observer of its tests unloaded", ""},
		{"--version is no run", "--version", nil, nil, "", ""},
		{"a program named pytest that never loads pytest is no pytest run", "", map[string]string{"bin/pytest": "import sys\nprint('1 passed')\n"}, nil, "", py + " bin/pytest -q"},
		// Lazy pass 37's routes, each on a test that fails: the report
		// rewritten by a hookwrapper however spelled, the function
		// swapped by a fixture, the observer's own lines rewritten.
		{"a failed report rewritten to passed (vars().update)", "-k fail", map[string]string{"conftest.py": "import pytest\n\n" +
			"@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    res = yield\n    rep = res.get_result()\n" +
			"    if rep.failed:\n        vars(rep).update(outcome='passed', longrepr=None)\n"},
			notRunBut(nil), "", ""},
		{"the test function swapped by a fixture", "-k 'fail and not xfail'", map[string]string{"conftest.py": "import pytest\n\n" +
			"@pytest.fixture(autouse=True)\ndef _compat(request):\n    request.node.obj = lambda **kw: None\n"},
			notRunBut(nil), "", ""},
		// pytest-asyncio's shape, installed in a .venv inside the project.
		{"a runner's own wrapper of the function (functools.wraps) is the function", "-k 'pass or warn'", map[string]string{
			".venv/lib/python3/site-packages/asyncish.py": "import functools, pytest\n\n" +
				"@pytest.hookimpl(hookwrapper=True)\ndef pytest_pyfunc_call(pyfuncitem):\n    f = pyfuncitem.obj\n\n" +
				"    @functools.wraps(f)\n    def sync(*a, **k):\n        return f(*a, **k)\n    pyfuncitem.obj = sync\n    yield\n",
			"conftest.py": "import pathlib, sys\n\nsys.path.insert(0, str(pathlib.Path(__file__).parent / '.venv/lib/python3/site-packages'))\npytest_plugins = ['asyncish']\n"},
			notRunBut(map[string]pyharness.TestState{"test_s.py::test_pass": pyharness.Passed, "test_s.py::test_warn": pyharness.Passed}), "", ""},
		{"a stand-in given the test function as __wrapped__", "-k 'fail and not xfail'", map[string]string{"conftest.py": "import pytest\n\n" +
			"@pytest.fixture(autouse=True)\ndef _c(request):\n    f = lambda **kw: None\n    f.__wrapped__ = request.node.obj\n    request.node.obj = f\n"},
			notRunBut(nil), "", ""},
		{"a functools.partial given the test function as __wrapped__", "-k 'fail and not xfail'", map[string]string{"conftest.py": "import functools, pytest\n\n" +
			"def _noop(**kw):\n    return None\n\n@pytest.fixture(autouse=True)\ndef _c(request):\n    p = functools.partial(_noop)\n    p.__wrapped__ = request.node.obj\n    request.node.obj = p\n"},
			notRunBut(nil), "", ""},
		{"a stand-in compiled under an installed package's file name", "-k 'fail and not xfail'", map[string]string{"conftest.py": "import pytest\n\n_ns = {}\n" +
			"exec(compile('def stand_in(**kw):\\n    return None\\n', '/usr/lib/python3/dist-packages/_pytest_compat.py', 'exec'), _ns)\n\n" +
			"@pytest.fixture(autouse=True)\ndef _c(request):\n    f = _ns['stand_in']\n    f.__wrapped__ = request.node.obj\n    request.node.obj = f\n"},
			notRunBut(nil), "", ""},
		// Lazy pass 38's false block: an asyncio runner written in the
		// project's conftest sets the function to its own wrapper. The
		// body runs, so the tests keep their verdicts; a stand-in set the
		// same way, or a wrapper swallowing the body's raise, is not run.
		{"a runner's wrapper set in the project's conftest: the body runs", "-k 'pass or warn or fail and not xfail'", map[string]string{"conftest.py": "import functools, threading, pytest\n\n" +
			"@pytest.hookimpl(tryfirst=True)\ndef pytest_pyfunc_call(pyfuncitem):\n    f = pyfuncitem.obj\n\n" +
			"    @functools.wraps(f)\n    def run(*a, **k):\n        return f(*a, **k)\n    pyfuncitem.obj = run\n"},
			notRunBut(map[string]pyharness.TestState{"test_s.py::test_pass": pyharness.Passed, "test_s.py::test_warn": pyharness.Passed, "test_s.py::test_fail": pyharness.Failed}), "", ""},
		{"a runner's wrapper running the body in a thread", "-k 'pass or warn'", map[string]string{"conftest.py": "import functools, threading, pytest\n\n" +
			"@pytest.hookimpl(tryfirst=True)\ndef pytest_pyfunc_call(pyfuncitem):\n    f = pyfuncitem.obj\n\n" +
			"    @functools.wraps(f)\n    def run(*a, **k):\n        t = threading.Thread(target=f, args=a, kwargs=k)\n        t.start()\n        t.join()\n    pyfuncitem.obj = run\n"},
			notRunBut(map[string]pyharness.TestState{"test_s.py::test_pass": pyharness.Passed, "test_s.py::test_warn": pyharness.Passed}), "", ""},
		// Round 39's re-check, HY3: a conftest that runs each test under
		// cProfile, which replaces the observer's profile function for the
		// call; the body's end is still seen (a tracer where none is set).
		{"a conftest running each test under cProfile", "-k 'pass or warn or fail and not xfail'", map[string]string{"conftest.py": "import cProfile, pytest\n\n" +
			"@pytest.hookimpl(tryfirst=True)\ndef pytest_pyfunc_call(pyfuncitem):\n    kw = {a: pyfuncitem.funcargs[a] for a in pyfuncitem._fixtureinfo.argnames}\n" +
			"    cProfile.Profile().runcall(pyfuncitem.obj, **kw)\n    return True\n"},
			notRunBut(map[string]pyharness.TestState{"test_s.py::test_pass": pyharness.Passed, "test_s.py::test_warn": pyharness.Passed, "test_s.py::test_fail": pyharness.Failed}), "", ""},
		// Round 40's re-check, HY7: one worker thread runs every test (a
		// module-level pool); it keeps the profile function of the first
		// test's watch, which must see the later tests' too.
		{"a conftest running each test on one pooled worker thread", "-k 'pass or warn or fail and not xfail'", map[string]string{"conftest.py": "import concurrent.futures, pytest\n\n" +
			"_pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)\n\n" +
			"@pytest.hookimpl(tryfirst=True)\ndef pytest_pyfunc_call(pyfuncitem):\n    kw = {a: pyfuncitem.funcargs[a] for a in pyfuncitem._fixtureinfo.argnames}\n" +
			"    _pool.submit(pyfuncitem.obj, **kw).result()\n    return True\n"},
			notRunBut(map[string]pyharness.TestState{"test_s.py::test_pass": pyharness.Passed, "test_s.py::test_warn": pyharness.Passed, "test_s.py::test_fail": pyharness.Failed}), "", ""},
		{"a conftest under cProfile whose stand-in never runs the body", "-k 'fail and not xfail'", map[string]string{"conftest.py": "import cProfile, pytest\n\n" +
			"@pytest.hookimpl(tryfirst=True)\ndef pytest_pyfunc_call(pyfuncitem):\n    cProfile.Profile().runcall(lambda: None)\n    return True\n"},
			notRunBut(nil), "", ""},
		{"a stand-in set by the conftest's pyfunc_call, which returns None", "-k 'fail and not xfail'", map[string]string{"conftest.py": "def pytest_pyfunc_call(pyfuncitem):\n    pyfuncitem.obj = lambda **kw: None\n"},
			notRunBut(nil), "", ""},
		{"a wrapper set in the conftest that swallows the body's raise", "-k 'fail and not xfail'", map[string]string{"conftest.py": "import functools, pytest\n\n" +
			"@pytest.hookimpl(tryfirst=True)\ndef pytest_pyfunc_call(pyfuncitem):\n    f = pyfuncitem.obj\n\n" +
			"    @functools.wraps(f)\n    def run(*a, **k):\n        try:\n            f(*a, **k)\n        except AssertionError:\n            pass\n    pyfuncitem.obj = run\n"},
			notRunBut(nil), "", ""},
		// Lazy pass 38b: the call's raise erased before the observer's
		// wrappers see it, or pytest's call never made. What pytest's own
		// pytest_pyfunc_call raised is noted there, and a plain test whose
		// call it never made is not run.
		{"call.excinfo cleared by a tryfirst wrapper registered after the observer's", "-k 'fail and not xfail'", map[string]string{"conftest.py": "import pytest\n\n" +
			"class _W:\n    @pytest.hookimpl(hookwrapper=True, tryfirst=True)\n    def pytest_runtest_makereport(self, item, call):\n        if call.when == 'call':\n            vars(call).update(excinfo=None)\n        yield\n\n" +
			"def pytest_configure(config):\n    config.pluginmanager.register(_W(), 'late')\n"},
			notRunBut(nil), "", ""},
		{"a pyfunc_call wrapper forcing a result over the raise", "-k 'fail and not xfail'", map[string]string{"conftest.py": "import pytest\n\n" +
			"@pytest.hookimpl(hookwrapper=True, tryfirst=True)\ndef pytest_pyfunc_call(pyfuncitem):\n    out = yield\n    getattr(out, 'force_' + 'result')(True)\n"},
			notRunBut(nil), "", ""},
		{"Function.runtest replaced (computed name) to swallow the raise", "-k 'fail and not xfail'", map[string]string{"conftest.py": "import sys\n\n" +
			"_m = sys.modules['_pytest.python']\n_n = 'run' + 'test'\n_real = getattr(_m.Function, _n)\n\n" +
			"def _rt(self):\n    try:\n        return _real(self)\n    except AssertionError:\n        return None\n\nsetattr(_m.Function, _n, _rt)\n"},
			notRunBut(nil), "", ""},
		{"Function.runtest replaced to call nothing", "-k 'pass or warn'", map[string]string{"conftest.py": "import sys\n\n" +
			"setattr(sys.modules['_pytest.python'].Function, 'run' + 'test', lambda self: None)\n"},
			notRunBut(nil), "", ""},
		{"a tryfirst pyfunc_call answering True", "-k 'fail and not xfail'", map[string]string{"conftest.py": "import pytest\n\n" +
			"class _A:\n    @pytest.hookimpl(tryfirst=True)\n    def pytest_pyfunc_call(self, pyfuncitem):\n        return True\n\n" +
			"def pytest_configure(config):\n    config.pluginmanager.register(_A(), 'late')\n"},
			notRunBut(nil), "", ""},
		// An installed runner plugin answering for async tests (anyio's
		// shape), and a conftest's rerun protocol: verdicts kept.
		{"an installed async runner answering for its tests", "test_a.py", map[string]string{
			".venv/lib/python3/site-packages/asyncrun.py": "import asyncio, inspect\n\n" +
				"def pytest_pyfunc_call(pyfuncitem):\n    if not inspect.iscoroutinefunction(pyfuncitem.obj):\n        return None\n" +
				"    args = {a: pyfuncitem.funcargs[a] for a in pyfuncitem._fixtureinfo.argnames}\n    asyncio.run(pyfuncitem.obj(**args))\n    return True\n",
			"conftest.py": "import pathlib, sys\n\nsys.path.insert(0, str(pathlib.Path(__file__).parent / '.venv/lib/python3/site-packages'))\npytest_plugins = ['asyncrun']\n",
			"test_a.py":   "import asyncio\n\nasync def test_ok():\n    await asyncio.sleep(0)\n\nasync def test_bad():\n    await asyncio.sleep(0)\n    assert 0\n\ndef test_sync():\n    pass\n"},
			map[string]pyharness.TestState{"test_a.py::test_ok": pyharness.Passed, "test_a.py::test_bad": pyharness.Failed, "test_a.py::test_sync": pyharness.Passed}, "", ""},
		{"a flaky test rerun by the conftest's own protocol", "test_f.py", map[string]string{"conftest.py": "import pytest\nfrom _pytest.runner import runtestprotocol\n\n" +
			"@pytest.hookimpl(tryfirst=True)\ndef pytest_runtest_protocol(item, nextitem):\n    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)\n" +
			"    for attempt in range(3):\n        reports = runtestprotocol(item, nextitem=nextitem, log=False)\n        if all(r.passed for r in reports):\n            break\n" +
			"    for r in reports:\n        item.ihook.pytest_runtest_logreport(report=r)\n    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)\n    return True\n",
			"test_f.py": "tries = []\n\ndef test_flaky():\n    tries.append(1)\n    if len(tries) == 1:\n        raise ConnectionError('first attempt times out')\n"},
			map[string]pyharness.TestState{"test_f.py::test_flaky": pyharness.Passed}, "", ""},
		// Lazy pass 38b, L9: a test collected under another function's
		// name. The run's lines are noted under its own name too.
		{"a test collected under another name", "-k pass", map[string]string{"conftest.py": "import pytest\n\n" +
			"def pytest_pycollect_makeitem(collector, name, obj):\n    if name == 'test_pass':\n" +
			"        f = pytest.Function.from_parent(collector, name='legacy_pass', callobj=obj)\n        f.add_marker(pytest.mark.skip(reason='legacy'))\n        return [f]\n"},
			notRunBut(map[string]pyharness.TestState{"test_s.py::legacy_pass": pyharness.NotRun}), "", ""},
		{"honest: a base class's test run by two subclasses, one skipping it", "test_b.py", map[string]string{"test_b.py": "import pytest\n\n" +
			"class Base:\n    def test_x(self):\n        if self.skip:\n            pytest.skip('not here')\n\n" +
			"class TestA(Base):\n    skip = False\n\nclass TestB(Base):\n    skip = True\n"},
			map[string]pyharness.TestState{"test_b.py::TestA::test_x": pyharness.Passed, "test_b.py::TestB::test_x": pyharness.NotRun, "test_b.py::Base::test_x": pyharness.Passed}, "", ""},
		{"call.excinfo cleared by a hookwrapper before the report is made", "-k 'fail and not xfail'", map[string]string{"conftest.py": "import pytest\n\n" +
			"@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    if call.when == 'call':\n        vars(call).update(excinfo=None)\n    yield\n"},
			notRunBut(nil), "", ""},
		{"honest shapes: a class's tests, a unittest case, a mock.patch decorator, a retry that passes", "test_h.py", map[string]string{"test_h.py": "import unittest\nfrom unittest import mock\n\n" +
			"class TestC:\n    def test_m(self):\n        assert True\n\n" +
			"class TestU(unittest.TestCase):\n    def test_u(self):\n        self.assertEqual(1, 1)\n\n" +
			"@mock.patch('os.getcwd', return_value='/x')\ndef test_patched(m):\n    import os\n    assert os.getcwd() == '/x'\n\n" +
			"tries = []\n\ndef test_retry():\n    for _ in range(3):\n        try:\n            tries.append(1)\n            assert len(tries) > 1\n            return\n        except AssertionError:\n            pass\n    assert False\n"},
			map[string]pyharness.TestState{"test_h.py::TestC::test_m": pyharness.Passed, "test_h.py::TestU::test_u": pyharness.Passed,
				"test_h.py::test_patched": pyharness.Passed, "test_h.py::test_retry": pyharness.Passed}, "", ""},
		{"a unittest case's failure, skip and expected failure under pytest", "test_v.py", map[string]string{"test_v.py": "import unittest\n\n" +
			"class TestV(unittest.TestCase):\n    def test_fail(self):\n        self.fail('no')\n\n" +
			"    @unittest.skip('off')\n    def test_skip(self):\n        pass\n\n" +
			"    @unittest.expectedFailure\n    def test_xf(self):\n        self.assertEqual(1, 2)\n"},
			map[string]pyharness.TestState{"test_v.py::TestV::test_fail": pyharness.Failed, "test_v.py::TestV::test_skip": pyharness.NotRun,
				"test_v.py::TestV::test_xf": pyharness.NotRun}, "", ""},
		{"the observer's lines are nowhere on the plugin", "-k 'fail and not xfail'", map[string]string{"conftest.py": "import pytest\n\n" +
			"@pytest.hookimpl(hookwrapper=True)\ndef pytest_sessionfinish(session):\n    o = session.config.pluginmanager.get_plugin('sessiongate-observer')\n" +
			"    for k, v in list(vars(o).items()):\n        if isinstance(v, list):\n            v[:] = [l.replace('r\\tfailed\\t', 'r\\tpassed\\t') for l in v]\n    yield\n"},
			notRunBut(map[string]pyharness.TestState{"test_s.py::test_fail": pyharness.Failed}), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, h := harnessed(t, map[string]string{"test_s.py": suite}, tc.files)
			line := py + " -m pytest -q -p no:cacheprovider " + tc.args
			if tc.line != "" {
				line = tc.line
			}
			cmd := exec.Command("sh", "-c", line)
			cmd.Dir, cmd.Env = root, h.Env(append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1"))
			out, _ := cmd.CombinedOutput()
			got, err := h.Tests()
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && !maps.Equal(got, tc.want) {
				t.Errorf("tests = %v, want %v\noutput:\n%s", got, tc.want, out)
			}
			found, err := h.Findings()
			if err != nil {
				t.Fatal(err)
			}
			if text := pyharness.Texts(found); (tc.finding == "") != (text == "") || !strings.Contains(text, tc.finding) {
				t.Errorf("findings %q, want one with %q\noutput:\n%s", text, tc.finding, out)
			}
		})
	}
}

// TestTurnedOff compares by node id: a test passed before and now
// collected and not run counts; one gone (renamed, deleted) or added
// does not, however many new tests pass.
func TestTurnedOff(t *testing.T) {
	before := pyharness.PassedHashes(map[string]pyharness.TestState{"a::x": pyharness.Passed, "a::y": pyharness.Passed, "a::z": pyharness.Passed, "a::s": pyharness.NotRun,
		"a::p[1]": pyharness.Passed, "a::p[2]": pyharness.Passed})
	for _, tc := range []struct {
		name string
		now  map[string]pyharness.TestState
		want []string
	}{
		{"all pass", map[string]pyharness.TestState{"a::x": pyharness.Passed, "a::y": pyharness.Passed, "a::z": pyharness.Passed, "a::s": pyharness.NotRun}, nil},
		{"two xfailed, two new passing", map[string]pyharness.TestState{"a::x": pyharness.NotRun, "a::y": pyharness.NotRun, "a::z": pyharness.Passed, "a::n1": pyharness.Passed, "a::n2": pyharness.Passed}, []string{"a::x", "a::y"}},
		{"one dropped from the items", map[string]pyharness.TestState{"a::x": pyharness.Collected, "a::y": pyharness.Passed, "a::z": pyharness.Passed}, []string{"a::x"}},
		{"one renamed, one new skipped", map[string]pyharness.TestState{"a::x2": pyharness.Passed, "a::y": pyharness.Passed, "a::z": pyharness.Passed, "a::w": pyharness.NotRun}, nil},
		{"one failing (the run fails on its own)", map[string]pyharness.TestState{"a::x": pyharness.Failed, "a::y": pyharness.Passed, "a::z": pyharness.Passed}, nil},
		// Lazy pass 37: ids renamed by a conftest's parametrize or
		// item._nodeid, the new ones listed as known failures.
		{"two renamed to parametrized ids and xfailed", map[string]pyharness.TestState{"a::x[v1]": pyharness.NotRun, "a::y[v1]": pyharness.NotRun, "a::z[v1]": pyharness.Passed}, []string{"a::x[v1]", "a::y[v1]"}},
		{"a parametrized test's ids renamed, all xfailed", map[string]pyharness.TestState{"a::x": pyharness.Passed, "a::y": pyharness.Passed, "a::z": pyharness.Passed, "a::p[new]": pyharness.NotRun}, []string{"a::p[new]"}},
		{"a test gains a skipped case, another passes", map[string]pyharness.TestState{"a::x[1]": pyharness.Passed, "a::x[win]": pyharness.NotRun, "a::y": pyharness.Passed, "a::z": pyharness.Passed}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := pyharness.TurnedOff(before, tc.now); !slices.Equal(got, tc.want) {
				t.Errorf("TurnedOff = %v, want %v", got, tc.want)
			}
		})
	}
}

// notRunBut is each test of TestPytestTests' suite not run (deselected
// by -k, or turned off), but those of states.
func notRunBut(states map[string]pyharness.TestState) map[string]pyharness.TestState {
	out := map[string]pyharness.TestState{}
	for _, n := range []string{"pass", "warn", "skip", "xfail", "fail", "desel", "dropped"} {
		out["test_s.py::test_"+n] = pyharness.NotRun
	}
	maps.Copy(out, states)
	return out
}

// harnessed writes base and then extra (which wins) into a new folder and
// makes a harness for it, closed at the test's end.
func harnessed(t *testing.T, base, extra map[string]string) (string, *pyharness.Harness) {
	t.Helper()
	root := t.TempDir()
	files := maps.Clone(base)
	maps.Copy(files, extra)
	writeTree(t, root, files)
	h, err := pyharness.New(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return root, h
}
