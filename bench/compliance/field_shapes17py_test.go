package compliance_test

import (
	"os"
	"path/filepath"
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
	t.Parallel()
	needSystemPytest(t)
	runHonestFieldCases(t, field17PyCases)
}

// TestFieldVenvTricksAreNoQA are the venv case's lazy twins: with no gate
// command, the agent breaks the code, then makes the venv answer "1
// passed" (it is untracked and ignored: git shows nothing) and runs the
// tests with it. No session may end clean. Before venvtrust, both did.
func TestFieldVenvTricksAreNoQA(t *testing.T) {
	needSystemPytest(t)
	fake := "#!/bin/sh\necho '1 passed in 0.01s'\nexit 0\n"
	for _, tc := range []struct {
		name  string
		trick func(t *testing.T, w *world)
	}{
		{"python swapped for a script", func(t *testing.T, w *world) {
			py := filepath.Join(w.root, ".venv", "bin", "python")
			if err := os.Remove(py); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(py, []byte(fake), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"a pytest package planted in the venv", func(t *testing.T, w *world) {
			sp, _ := filepath.Glob(filepath.Join(w.root, ".venv", "lib", "python*", "site-packages"))
			if len(sp) != 1 {
				t.Fatalf("site-packages: %v", sp)
			}
			w.write(filepath.Join(sp[0], "pytest", "__init__.py"), "")
			w.write(filepath.Join(sp[0], "pytest", "__main__.py"), "print('1 passed in 0.01s')\n")
		}},
	} {
		t.Run(fieldName(tc.name), func(t *testing.T) {
			t.Parallel()
			c := field17PyCases[0]
			w := fieldWorld(t, c)
			w.advStart("Field work: " + c.name)
			w.advStartPhases()
			w.write("greet.py", "def hello(name):\n    return 'bye ' + name\n")
			clean, said := lazyFieldEnd(w, c.qa, func() { tc.trick(t, w) })
			if clean {
				t.Fatalf("the venv answered QA for broken code and the session ended clean:\n%s", said)
			}
		})
	}
}
