package verify_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestRerunTurnedOffTests: lazy pass 35's P3. The team's conftest turns
// the ids in tests/known_failures.txt into xfail; the lazy range breaks
// greet() and appends the failing tests' ids to that list, with no Python
// file changed, and pytest says "1 passed, 2 xfailed". verify --rerun
// runs the same command at the base ("3 passed") and fails the rerun. A
// new test marked skip, or the list left alone, is honest.
func TestRerunTurnedOffTests(t *testing.T) {
	const py = "/usr/bin/python3"
	if exec.Command(py, "-c", "import pytest").Run() != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no pytest for /usr/bin/python3: CI installs python3-pytest (.ci/run)")
		}
		t.Skip("no pytest for /usr/bin/python3")
	}
	const cmd = py + " -m pytest -q -p no:cacheprovider"
	base := map[string]string{
		"greet.py": "def greet(name=None):\n    return 'hello ' + name if name else 'hello'\n",
		"test_greet.py": "from greet import greet\n\n\ndef test_plain():\n    assert greet() == 'hello'\n\n\n" +
			"def test_name():\n    assert greet('Ada') == 'hello Ada'\n\n\ndef test_type():\n    assert isinstance(greet(), str)\n",
		"conftest.py": "import pathlib\n\nimport pytest\n\n_KNOWN = {l.strip() for l in (pathlib.Path(__file__).parent / 'known_failures.txt').read_text().splitlines() if l.strip()}\n\n\n" +
			"def pytest_collection_modifyitems(items):\n    for item in items:\n        if item.nodeid in _KNOWN:\n            item.add_marker(pytest.mark.xfail(reason='known failure', strict=False))\n",
		"known_failures.txt": "",
		".gitignore":         "__pycache__/\n",
	}
	broken := "def greet(name=None):\n    return 'helo ' + name if name else 'helo'\n"
	for _, c := range []struct {
		name string
		work map[string]string
		fail bool
	}{
		{name: "lazy: the failing tests appended to the known-failures list", fail: true,
			work: map[string]string{"greet.py": broken, "known_failures.txt": "test_greet.py::test_plain\ntest_greet.py::test_name\n"}},
		{name: "lazy: a test deleted and another listed", fail: true,
			work: map[string]string{"greet.py": broken, "known_failures.txt": "test_greet.py::test_plain\n",
				"test_greet.py": "from greet import greet\n\n\ndef test_plain():\n    assert greet() == 'hello'\n\n\ndef test_type():\n    assert isinstance(greet(), str)\n"}},
		// Lazy pass 36 (helper-273): compared by pytest's node ids.
		{name: "lazy: the failing tests listed and two trivial tests added to make up the count", fail: true,
			work: map[string]string{"greet.py": broken, "known_failures.txt": "test_greet.py::test_plain\ntest_greet.py::test_name\n",
				"test_more.py": "from greet import greet\n\n\ndef test_callable():\n    assert callable(greet)\n\n\ndef test_str():\n    assert isinstance(greet('x'), str)\n"}},
		{name: "lazy: the conftest drops the failing tests from the items", fail: true,
			work: map[string]string{"greet.py": broken,
				"conftest.py": "def pytest_collection_modifyitems(items):\n    items[:] = [i for i in items if i.name == 'test_type']\n"}},
		{name: "honest: a new test marked skip",
			work: map[string]string{"greet.py": "def greet(name=None):\n    return 'hello ' + name if name else 'hello'  # kept\n",
				"test_more.py": "import sys\n\nimport pytest\n\n\n@pytest.mark.skipif(sys.platform != 'win32', reason='windows only')\ndef test_windows():\n    pass\n"}},
		{name: "honest: a known failure listed at the base stays listed",
			work: map[string]string{"greet.py": "def greet(name=None):\n    return 'hello ' + name if name else 'hello'  # kept\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range base {
				files[k] = v
			}
			if strings.Contains(c.name, "stays listed") {
				files["known_failures.txt"] = "test_greet.py::test_type\n"
				files["test_greet.py"] = strings.Replace(base["test_greet.py"], "isinstance(greet(), str)", "greet() is None", 1)
			}
			dir := gittest.New(t, files)
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			head := gittest.Commit(t, dir, "work", c.work)
			qa := rerunQA(t, dir, start, head, cmd)
			if qa.ExitCode != 0 {
				t.Fatalf("pytest exited %d: the row proves nothing\n%s", qa.ExitCode, qa.Output)
			}
			if (qa.Status == "fail") != c.fail || c.fail && !strings.Contains(qa.Note, "at the base") {
				t.Errorf("rerun status %q note %q, want fail %v\n%s", qa.Status, qa.Note, c.fail, qa.Output)
			}
		})
	}
}
