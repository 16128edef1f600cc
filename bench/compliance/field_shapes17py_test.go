package compliance_test

import (
	"os"
	"os/exec"
	"testing"
)

// Field pass, round 17 (t7): a Python project tested in its own virtualenv,
// and a Ruby project under Bundler, with the real tools.

const (
	field17PyProject = "[project]\nname = \"greet\"\nversion = \"0.1.0\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\npythonpath = [\".\"]\n"
	field17PyTest    = "from greet import hello\n\n\ndef test_hello():\n    assert hello('Ada') == 'hello Ada'\n"
)

// field17SystemPython is the interpreter whose pytest the venv sees
// (Debian's python3-pytest; the venv is made with its site packages).
const field17SystemPython = "/usr/bin/python3"

var field17PyCases = []fieldCase{
	{
		// pytest lives in .venv only: the gate's python3 lacks it. init used
		// to pick `python3 -m pytest`, and that gate failed the honest QA
		// ("No module named pytest"); now it picks no command, says why,
		// and the agent's run with the venv's python is the QA.
		name: "python: pytest in the project's venv",
		files: map[string]string{"pyproject.toml": field17PyProject, "greet.py": fieldPyGreet, "tests/test_greet.py": field17PyTest,
			".gitignore": ".venv/\n__pycache__/\n.pytest_cache/\n"},
		wantCmd: "",
		qa:      []string{".venv/bin/python", "-m", "pytest", "-q"},
		setup: func(w *world) {
			if r := w.exec(w.root, "", field17SystemPython, "-m", "venv", "--system-site-packages", ".venv"); r.code != 0 {
				w.t.Fatalf("make the venv: %s", r.text())
			}
		},
		work: func(w *world) { w.write("greet.py", "# Greets people.\n"+fieldPyGreet) },
		msg:  "docs: say what greet does",
	},
	{
		name:    "ruby rspec under bundler",
		files:   map[string]string{"Gemfile": "source 'https://rubygems.org'\n\ngem 'rspec'\n", "lib/greet.rb": field17RubyLib, "spec/greet_spec.rb": field17RSpec},
		wantCmd: "bundle exec rspec",
		needs:   []string{"bundle", "rspec"},
		// The lock file a project commits, resolved from the gems this
		// machine has (no network).
		setup: func(w *world) {
			if r := w.exec(w.root, "", "bundle", "lock", "--local"); r.code != 0 {
				w.t.Fatalf("bundle lock: %s", r.text())
			}
		},
		work: func(w *world) { w.write("lib/greet.rb", "# Greets people.\n"+field17RubyLib) },
		msg:  "docs(lib): say what Greet does",
	},
}

// TestFieldHonestShapes17Py runs each case as one honest session, then
// verify as CI runs it.
func TestFieldHonestShapes17Py(t *testing.T) {
	if err := exec.Command(field17SystemPython, "-c", "import pytest, venv").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s with pytest and venv is needed under CI=true: %v", field17SystemPython, err)
		}
		t.Skipf("%s has no pytest or venv (Debian's python3-pytest, python3-venv): %v", field17SystemPython, err)
	}
	for _, c := range field17PyCases {
		t.Run(fieldName(c.name), func(t *testing.T) {
			t.Parallel()
			w := fieldWorld(t, c)
			fieldSession(t, w, c)
			if !t.Failed() {
				w.fieldCIVerify(t)
			}
		})
	}
}
