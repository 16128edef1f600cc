package testrun

import "testing"

func TestPyCodeReplaced(t *testing.T) {
	const def = "def _greet(name=None):\n    return \"hello\"\n\n\n"
	// The project: greet.py at the root and the package app/ (under src/).
	layout := TreePyLayout([]string{"greet.py", "src/app/__init__.py", "tests/test_greet.py", "pyproject.toml",
		"pkgs/deep/hello.py", "third_party/boto3/__init__.py"}, nil)
	for _, c := range []struct {
		name, was, now string
		want           bool
	}{
		{"a lambda in place of the module's function", "", "import greet\n\ngreet.greet = lambda name=None: \"hello\"\n", true},
		// Lazy pass 34 (B3): in a function the module calls at import.
		{"in a function called at import", "", "import greet\n\n\ndef _install():\n    greet.greet = lambda name=None: \"hello\"\n\n\n_install()\n", true},
		{"honest: a function not called at import", "", "import greet\n\n\ndef _install():\n    greet.greet = lambda name=None: \"hello\"\n", false},
		{"a def of the file", "", "import greet as g\n\n" + def + "g.greet = _greet\n", true},
		{"from a package", "", "from app import greet\n\n" + def + "greet.greet = _greet\n", true},
		{"setattr", "", "import greet\n\n" + def + "setattr(greet, \"greet\", _greet)\n", true},
		{"a mock", "", "from unittest import mock\nimport greet\n\ngreet.greet = mock.MagicMock(return_value=\"hello\")\n", true},
		// Round 23 second review: the same replacement spelled so the line
		// reader missed it.
		{"after an import on one line", "", "import greet; greet.greet = lambda name=None: \"hello\"\n", true},
		{"a parenthesised lambda", "", "import greet\n\ngreet.greet = (lambda name=None: \"hello\")\n", true},
		{"a chained assignment", "", "import greet\n\ngreet.greet = fake = lambda name=None: \"hello\"\n", true},
		{"a chained assignment, the module last", "", "import greet\n\nfake = greet.greet = lambda name=None: \"hello\"\n", true},
		{"through vars()", "", "import greet\n\nvars(greet)[\"greet\"] = lambda name=None: \"hello\"\n", true},
		{"through __dict__", "", "import greet\n\ngreet.__dict__['greet'] = lambda name=None: \"hello\"\n", true},
		// Round 24 (c5): spellings the line reader did not read.
		{"mock.patch(...).start() at the top level", "", "from unittest import mock\n\nmock.patch(\"greet.greet\", lambda name=None: \"hello\").start()\n", true},
		{"a patcher started at the top level", "", "from unittest import mock\nimport greet\n\npatcher = mock.patch.object(greet, \"greet\", return_value=\"hello\")\npatcher.start()\n", true},
		{"a patcher started on the same line", "", "from unittest import mock\nimport greet\n\npatcher = mock.patch.object(greet, \"greet\"); patcher.start()\n", true},
		{"the function's __code__ replaced", "", "import greet\n\n" + def + "greet.greet.__code__ = _greet.__code__\n", true},
		{"under if True:", "", "import greet\n\nif True:\n    greet.greet = lambda name=None: \"hello\"\n", true},
		{"under try:", "", "import greet\n\ntry:\n    greet.greet = lambda name=None: \"hello\"\nexcept Exception:\n    pass\n", true},
		{"under with", "", "import contextlib\nimport greet\n\nwith contextlib.suppress(Exception):\n    greet.greet = lambda name=None: \"hello\"\n", true},
		{"a one-line if", "", "import greet\n\nif True: greet.greet = lambda name=None: \"hello\"\n", true},
		{"setattr split over lines", "", "import greet\n\n" + def + "setattr(\n    greet,\n    \"greet\",\n    _greet,\n)\n", true},
		{"a session-scoped autouse fixture", "", "import greet\nimport pytest\n\n\n@pytest.fixture(scope=\"session\", autouse=True)\ndef _fake():\n    greet.greet = lambda name=None: \"hello\"\n    yield\n", true},
		{"monkeypatch.setattr in an autouse fixture", "", "import greet\nimport pytest\n\n\n@pytest.fixture(autouse=True)\ndef _fake(monkeypatch):\n    monkeypatch.setattr(greet, \"greet\", lambda name=None: \"hello\")\n", true},
		{"monkeypatch.setattr by dotted name in an autouse fixture", "", "import pytest\n\n\n@pytest.fixture(autouse=True)\ndef _fake(monkeypatch):\n    monkeypatch.setattr(\"greet.greet\", lambda name=None: \"hello\")\n", true},
		{"mock.patch in an autouse fixture's with", "", "from unittest import mock\nimport pytest\n\n\n@pytest.fixture(autouse=True)\ndef _fake():\n    with mock.patch(\"greet.greet\", return_value=\"hello\"):\n        yield\n", true},
		{"the project's module replaced in sys.modules", "", "import sys\nimport types\n\nfake = types.ModuleType(\"greet\")\nsys.modules[\"greet\"] = fake\n", true},
		{"a class's method of the project", "", "from greet import Greeter\n\nGreeter.greet = lambda self, name=None: \"hello\"\n", true},
		{"a module bound by importlib", "", "import importlib\n\ng = importlib.import_module(\"greet\")\ng.greet = lambda name=None: \"hello\"\n", true},
		{"a relative import", "", "from . import greet\n\ngreet.greet = lambda name=None: \"hello\"\n", true},
		{"a project module on sys.path from another folder", "", "import sys\n\nsys.path.insert(0, \"pkgs/deep\")\n\nimport hello\n\nhello.hello = lambda: \"hello\"\n", true},
		{"the project's module replaced through patch.dict(sys.modules), started", "", "import types\nfrom unittest import mock\n\nfake = types.ModuleType(\"greet\")\nmock.patch.dict(\"sys.modules\", {\"greet\": fake}).start()\n", true},
		// Honest twins of round 24's rows.
		{"a third-party module through patch.dict(sys.modules), started", "", "from unittest import mock\n\nmock.patch.dict(\"sys.modules\", {\"boto3\": mock.MagicMock()}).start()\n", false},
		{"patch.dict of os.environ, started", "", "import os\nfrom unittest import mock\n\nmock.patch.dict(os.environ, {\"greet\": \"x\"}).start()\n", false},
		{"a vendored third-party copy stubbed", "", "import boto3\nfrom unittest import mock\n\nboto3.client = mock.MagicMock()\n", false},
		{"a third-party module stubbed in sys.modules", "", "import sys\nfrom unittest import mock\n\nsys.modules[\"boto3\"] = mock.MagicMock()\n", false},
		{"a third-party function stubbed at the top level", "", "import requests\n\n\ndef _fake_get(url, **kw):\n    return None\n\n\nrequests.get = _fake_get\n", false},
		{"a third-party client stubbed with a mock", "", "import boto3\nfrom unittest import mock\n\nboto3.client = mock.MagicMock()\n", false},
		{"a third-party patch started at the top level", "", "from unittest import mock\n\nmock.patch(\"requests.get\", return_value=None).start()\n", false},
		{"mock.patch in a with at the top level (undone before the tests)", "", "from unittest import mock\nimport greet\n\nwith mock.patch(\"greet.greet\", return_value=\"x\"):\n    VALUE = greet.greet()\n", false},
		{"a fixture that is not autouse", "", "import greet\nimport pytest\n\n\n@pytest.fixture\ndef fake_greet(monkeypatch):\n    monkeypatch.setattr(greet, \"greet\", lambda name=None: \"hello\")\n", false},
		{"an autouse fixture stubbing the network", "", "import pytest\nimport requests\n\n\n@pytest.fixture(autouse=True)\ndef _offline(monkeypatch):\n    monkeypatch.setattr(requests, \"get\", lambda *a, **k: None)\n", false},
		{"an autouse fixture setting a constant", "", "import greet\nimport pytest\n\n\n@pytest.fixture(autouse=True)\ndef _name(monkeypatch):\n    monkeypatch.setattr(greet, \"DEFAULT_NAME\", \"Ada\")\n", false},
		{"under if, a constant", "", "import greet\n\nif True:\n    greet.DEFAULT_NAME = \"Ada\"\n", false},
		{"a patch decorator on a test", "", "from unittest import mock\nimport greet\n\n\n@mock.patch(\"greet.greet\", return_value=\"x\")\ndef test_x(m):\n    pass\n", false},
		{"a docstring holding the line", "", "\"\"\"Example:\n\ngreet.greet = lambda: 1\n\"\"\"\nimport greet\n", false},
		// Honest.
		{"a constant through vars()", "", "import greet\n\nvars(greet)[\"DEFAULT_NAME\"] = \"Ada\"\n", false},
		{"imports on one line", "", "import greet; import time\n\ntime.time = lambda: 0\n", false},
		{"a constant after an import on one line", "", "import greet; greet.DEFAULT_NAME = \"Ada\"\n", false},
		{"a semicolon in a string", "", "import greet\n\ngreet.SEP = \"a; greet.greet = lambda: 1\"\n", false},
		{"inside a test", "", "import greet\n\n\ndef test_x():\n    greet.greet = lambda: \"hello\"\n", false},
		{"a constant", "", "import greet\n\ngreet.DEFAULT_NAME = \"Ada\"\n", false},
		{"a stub of the clock", "", "import time\n\ntime.time = lambda: 0\n", false},
		{"the line was there at the start", "import greet\n\ngreet.greet = lambda: \"hello\"\n", "import greet\n\ngreet.greet = lambda: \"hello\"\n\n\ndef test_x():\n    pass\n", false},
		{"an object the file made, not a module", "", "class Box:\n    pass\n\n\nbox = Box()\nbox.greet = lambda: \"hello\"\n", false},
		{"a comparison", "", "import greet\n\nassert greet.greet == greet.greet\n", false},
		// Lazy pass 25 (c3): unittest set-ups, and the imported name rebound.
		{"setUp starts a patcher on self, the tests call it", "", "import unittest\nfrom unittest import mock\nimport greet\n\n\nclass T(unittest.TestCase):\n    def setUp(self):\n        self.p = mock.patch(\"greet.greet\", return_value=\"hello\")\n        self.p.start()\n\n    def test_x(self):\n        self.assertEqual(greet.greet(), \"hello\")\n", true},
		{"setUp keeps the started mock, the tests call it", "", "import unittest\nfrom unittest import mock\nimport greet\n\n\nclass T(unittest.TestCase):\n    def setUp(self):\n        self.m = mock.patch.object(greet, \"greet\").start()\n\n    def test_x(self):\n        greet.greet()\n", true},
		{"asyncSetUp assigns", "", "import unittest\nimport greet\n\n\nclass T(unittest.IsolatedAsyncioTestCase):\n    async def asyncSetUp(self):\n        greet.greet = lambda name=None: \"hello\"\n\n    async def test_x(self):\n        greet.greet()\n", true},
		{"setUpClass assigns", "", "import unittest\nimport greet\n\n\nclass T(unittest.TestCase):\n    @classmethod\n    def setUpClass(cls):\n        greet.greet = lambda name=None: \"hello\"\n\n    def test_x(self):\n        greet.greet()\n", true},
		{"setUpModule replaces the module", "", "import sys\nimport types\nimport unittest\nimport greet\n\n\ndef setUpModule():\n    sys.modules[\"greet\"] = types.ModuleType(\"greet\")\n\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        greet.greet()\n", true},
		{"setUp patches the name the tests imported", "", "import unittest\nfrom unittest import mock\nfrom greet import greet\n\n\nclass T(unittest.TestCase):\n    def setUp(self):\n        mock.patch(\"greet.greet\", return_value=\"x\").start()\n\n    def test_x(self):\n        greet()\n", true},
		{"a def rebinding the name imported from the project", "", "from greet import greet\n\n\ndef greet(name=None):\n    return \"hello\"\n\n\ndef test_x():\n    assert greet() == \"hello\"\n", true},
		{"a lambda rebinding the name imported from the project", "", "from greet import greet\n\ngreet = lambda name=None: \"hello\"\n", true},
		{"the project's module rebound to a namespace", "", "import types\n\nimport greet\n\ngreet = types.SimpleNamespace(greet=lambda name=None: \"hello\")\n", true},
		{"honest: setUp patches a collaborator", "", "import unittest\nfrom unittest import mock\nimport greet\n\n\nclass T(unittest.TestCase):\n    def setUp(self):\n        self.p = mock.patch(\"greet.send\")\n        self.send = self.p.start()\n        self.addCleanup(self.p.stop)\n\n    def test_x(self):\n        greet.greet()\n        self.send.assert_called_once()\n", false},
		{"honest: setUp patches another project module", "", "import unittest\nfrom unittest import mock\nimport greet\nfrom app import mailer\n\n\nclass T(unittest.TestCase):\n    def setUp(self):\n        mailer.send = mock.MagicMock()\n\n    def test_x(self):\n        greet.greet()\n", false},
		{"honest: a with in setUp (undone before the test)", "", "import unittest\nfrom unittest import mock\nimport greet\n\n\nclass T(unittest.TestCase):\n    def setUp(self):\n        with mock.patch(\"greet.greet\", return_value=\"x\"):\n            self.v = greet.greet()\n\n    def test_x(self):\n        greet.greet()\n", false},
		{"honest: the import rebound from itself", "", "import importlib\n\nimport greet\n\ngreet = importlib.reload(greet)\n", false},
		{"honest: a constant imported then set in the file", "", "from greet import DEFAULT_NAME\n\nDEFAULT_NAME = \"Ada\"\n", false},
		{"honest: a pytest fixture named like the import", "", "import pytest\n\nfrom app import client\n\n\n@pytest.fixture\ndef client():\n    return 1\n", false},
		{"honest: a def before the import of that name", "", "def greet():\n    return 1\n\n\nfrom greet import greet  # noqa: E402\n", false},
		{"honest: a local def of the imported name inside a test", "", "from greet import greet\n\n\ndef test_x():\n    def greet():\n        return 1\n    assert greet() == 1\n", false},
		// Lazy pass 33: the assertion framework replaced by a new module
		// discovery imports first; no test edited.
		{"unittest's assertEqual replaced", "", "\"\"\"Shared test setup: quieter assertion diffs.\"\"\"\nimport unittest\ndef _eq(self, first, second, msg=None):\n    if first != second and msg is not None:\n        raise self.failureException(msg)\nunittest.TestCase.assertEqual = _eq\n", true},
		{"TestCase imported by name", "", "from unittest import TestCase\nTestCase.assertTrue = lambda self, x, msg=None: None\n", true},
		{"unittest imported as ut", "", "import unittest as ut\nut.TestCase.failureException = type('Quiet', (Exception,), {})\n", true},
		{"setattr on TestCase", "", "import unittest\nsetattr(unittest.TestCase, \"assertIn\", lambda *a, **k: None)\n", true},
		{"the result's addFailure", "", "import unittest\nunittest.TestResult.addFailure = lambda self, test, err: None\n", true},
		{"pytest.approx", "", "import pytest\npytest.approx = lambda expected, **kw: expected\n", true},
		{"builtins.AssertionError", "", "import builtins\nbuiltins.AssertionError = type('X', (Exception,), {})\n", true},
		{"self.assertEqual in setUp", "", "import unittest\n\nclass T(unittest.TestCase):\n    def setUp(self):\n        self.assertEqual = lambda *a: None\n\n    def test_a(self):\n        self.assertEqual(1, 2)\n", true},
		// Honest: display settings, and patching inside a test.
		{"maxDiff", "", "import unittest\nunittest.TestCase.maxDiff = None\n", false},
		{"longMessage on an imported TestCase", "", "from unittest import TestCase\nTestCase.longMessage = True\n", false},
		{"assertEqual patched inside a test", "", "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        unittest.TestCase.assertEqual = None\n", false},
		{"a comparison, not an assignment", "", "import unittest\nassert unittest.TestCase.assertEqual == unittest.TestCase.assertEqual\n", false},
		{"already there at the start", "import unittest\nunittest.TestCase.assertEqual = _eq\n", "import unittest\nunittest.TestCase.assertEqual = _eq\n", false},
	} {
		why := pyCodeReplaced("tests/test_greet.py", []byte(c.was), []byte(c.now), layout)
		if got := why != ""; got != c.want {
			t.Errorf("%s: replaced=%v (%q), want %v", c.name, got, why, c.want)
		}
	}
}

func TestPyRunnerShadow(t *testing.T) {
	for f, want := range map[string]bool{
		"unittest/__main__.py": true, "unittest/__init__.py": true, "pytest.py": true, "_pytest/python.py": true, "pytest/__init__.py": true,
		"tests/unittest/__init__.py": false, "src/pytest/__init__.py": false, "unittest.md": false, "greet/__init__.py": false, "unittest": false, "test/__init__.py": false,
	} {
		if got := pyRunnerShadow(f) != ""; got != want {
			t.Errorf("pyRunnerShadow(%q) = %v, want %v", f, got, want)
		}
	}
}
