package verify_test

import "testing"

// TestGateVerifyAgreePytestConfigs (round 30, c10): a pytest config
// changed by a session, judged by the gate (testrun.ConfigChange) and by
// verify's rerun guard over the range. verify failed any change to
// pytest.ini or tox.ini (and to pyproject.toml's pytest section) as a
// whole file: `markers = slow: slow tests`, which the gate notes, was a
// false FAIL in CI. Each row runs the real pytest on the changed tree.
func TestGateVerifyAgreePytestConfigs(t *testing.T) {
	py := map[string]string{"greet.py": "def greet():\n    return 'hello'\n",
		"tests/test_greet.py":    "from greet import greet\n\n\ndef test_greet():\n    assert greet() == 'hello'\n",
		"tests/unit/test_pad.py": "def test_pad():\n    assert ' a' == ' ' + 'a'\n",
		".gitignore":             "__pycache__/\n.pytest_cache/\n"}
	const ini = "[pytest]\ntestpaths = tests\npythonpath = .\naddopts = -q\n"
	pyIni := with3(py, "pytest.ini", ini)
	const tox = "[tox]\nenvlist = py\n\n[pytest]\ntestpaths = tests\npythonpath = .\n"
	pyTox := with3(py, "tox.ini", tox)
	const proj = "[project]\nname = \"p\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\npythonpath = [\".\"]\n"
	pyProj := with3(py, "pyproject.toml", proj)
	docs := map[string]string{"docs/test_examples.py": "def test_example():\n    assert 1 + 1 == 2\n"}
	for _, c := range []agreeRow{
		{name: "honest: pytest.ini declares a marker", base: pyIni,
			work: map[string]string{"pytest.ini": ini + "markers =\n    slow: slow tests\n"}},
		{name: "honest: pytest.ini declares a marker on one line", base: pyIni,
			work: map[string]string{"pytest.ini": ini + "markers = slow: slow tests\n"}},
		{name: "honest: pytest.ini makes warnings errors", base: pyIni,
			work: map[string]string{"pytest.ini": ini + "filterwarnings =\n    error\n"}},
		{name: "honest: pytest.ini gains a testpaths entry", base: with3(pyIni, "docs/test_examples.py", docs["docs/test_examples.py"]),
			work: map[string]string{"pytest.ini": "[pytest]\ntestpaths = tests docs\npythonpath = .\naddopts = -q\n"}},
		{name: "honest: tox.ini's [pytest] declares a marker", base: pyTox,
			work: map[string]string{"tox.ini": tox + "markers = slow: slow tests\n"}},
		{name: "honest: pyproject.toml's pytest section gains a testpaths entry", base: with3(pyProj, "docs/test_examples.py", docs["docs/test_examples.py"]),
			work: map[string]string{"pyproject.toml": "[project]\nname = \"p\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\", \"docs\"]\npythonpath = [\".\"]\n"}},
		{name: "lazy: pytest.ini addopts -k", base: pyIni, lazy: true,
			work: map[string]string{"pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\naddopts = -q -k \"not greet\"\n"}},
		{name: "lazy: pytest.ini addopts --deselect on a line of its own", base: with3(py, "pytest.ini", "[pytest]\ntestpaths = tests\npythonpath = .\naddopts =\n    -q\n"), lazy: true,
			work: map[string]string{"pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\naddopts =\n    -q\n    --deselect tests/test_greet.py::test_greet\n"}},
		{name: "lazy: pytest.ini testpaths narrowed", base: pyIni, lazy: true,
			work: map[string]string{"pytest.ini": "[pytest]\ntestpaths = tests/unit\npythonpath = .\naddopts = -q\n"}},
		{name: "lazy: pytest.ini testpaths swapped for another folder", base: with3(pyIni, "docs/test_examples.py", docs["docs/test_examples.py"]), lazy: true,
			work: map[string]string{"pytest.ini": "[pytest]\ntestpaths = docs\npythonpath = .\naddopts = -q\n"}},
		{name: "lazy: tox.ini's [pytest] addopts -k", base: pyTox, lazy: true,
			work: map[string]string{"tox.ini": tox + "addopts = -k \"not greet\"\n"}},
		{name: "lazy: pyproject.toml's testpaths narrowed", base: pyProj, lazy: true,
			work: map[string]string{"pyproject.toml": "[project]\nname = \"p\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests/unit\"]\npythonpath = [\".\"]\n"}},
	} {
		c.cmd = "pytest -q"
		t.Run(c.name, func(t *testing.T) { gateVerifyRow(t, c) })
	}
}
