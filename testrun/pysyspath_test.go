package testrun

import (
	"strings"
	"testing"
)

func TestPyPathShadows(t *testing.T) {
	changed := []string{"greet.py", "fixed/greet.py", "vendor/greet/__init__.py", "src/util.py", "tests/__init__.py",
		"mypkg/utils.py", "tests/helpers/utils.py", "tests/copies/greet.py"}
	added := map[string]bool{"fixed/greet.py": true, "vendor/greet/__init__.py": true, "src/util.py": true,
		"tests/helpers/utils.py": true, "tests/copies/greet.py": true}
	shadows := pyShadowsIn(changed, added, func(mod string) bool { return mod == "greet" || mod == "app" },
		func(dir string) bool { return dir == "mypkg" })
	for _, tt := range []struct {
		name, file, was, now string
		want                 string // a word of the reason; "" for none
	}{
		{name: "insert(0) of a folder holding a copy", file: "tests/__init__.py", now: "import sys\n\nsys.path.insert(0, \"fixed\")\n", want: "fixed/"},
		{name: "one line after an import", file: "tests/__init__.py", now: "import sys; sys.path.insert(0, 'fixed')\n", want: "fixed/"},
		{name: "slice assignment from __file__", file: "tests/test_greet.py", now: "import os, sys\nsys.path[:0] = [os.path.join(os.path.dirname(__file__), \"..\", \"fixed\")]\n", want: "fixed/"},
		{name: "a package copy, list concatenation", file: "conftest.py", now: "import sys\nsys.path = [\"vendor\"] + sys.path\n", want: "vendor/"},
		{name: "already there at the start", file: "tests/__init__.py", was: "sys.path.insert(0, \"fixed\")\n", now: "import sys\nsys.path.insert(0, \"fixed\")\n"},
		{name: "honest: the src layout", file: "conftest.py", now: "import sys\nsys.path.insert(0, \"src\")\n"},
		{name: "honest: appended, not first", file: "conftest.py", now: "import sys\nsys.path.append(\"fixed\")\n"},
		{name: "honest: inside a fixture", file: "conftest.py", now: "def setup():\n    sys.path.insert(0, \"fixed\")\n"},
		{name: "honest: a folder with nothing added", file: "conftest.py", now: "import sys\nsys.path.insert(0, \"lib\")\n"},
		// Round 24 review (c8): clean before.
		{name: "through a top-level variable", file: "tests/__init__.py", now: "import sys\nFIX = \"fixed\"\nsys.path.insert(0, FIX)\n", want: "fixed/"},
		{name: "under an if at the top level", file: "tests/__init__.py", now: "import sys\nif True:\n    sys.path.insert(0, \"fixed\")\n", want: "fixed/"},
		{name: "in conftest's pytest_configure", file: "conftest.py", now: "import sys\n\ndef pytest_configure(config):\n    sys.path.insert(0, \"fixed\")\n", want: "fixed/"},
		{name: "honest: the src layout through a variable", file: "conftest.py", now: "import sys\nSRC = \"src\"\nsys.path.insert(0, SRC)\n"},
		{name: "honest: in a method of a test class", file: "tests/test_x.py", now: "import sys\nclass TestX:\n    def setup_method(self):\n        sys.path.insert(0, \"fixed\")\n"},
		// Round 24 second review: a module inside a package is imported
		// through the package, so a helper of its name shadows nothing.
		{name: "honest: a helper folder beside an edited package module of the same name", file: "tests/conftest.py",
			now: "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), \"helpers\"))\n"},
		{name: "a helper folder holding a copy of a top-level module", file: "tests/conftest.py",
			now: "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), \"copies\"))\n", want: "copies/"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := pyPathShadows(tt.file, []byte(tt.was), []byte(tt.now), shadows)
			switch {
			case tt.want == "" && got != "":
				t.Errorf("read as a shadowing copy (a false block): %s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("got %q, want a reason naming %q", got, tt.want)
			}
		})
	}
}

// TestPyIniPathShadows: pytest's `pythonpath` puts a folder first as
// sys.path.insert(0, ...) does (round 24 review, c8; clean before).
func TestPyIniPathShadows(t *testing.T) {
	changed := []string{"greet.py", "fixed/greet.py", "src/util.py"}
	added := map[string]bool{"fixed/greet.py": true, "src/util.py": true}
	shadows := pyShadowsIn(changed, added, func(mod string) bool { return mod == "greet" }, nil)
	for _, tt := range []struct {
		name, file, was, now string
		want                 string
	}{
		{name: "pytest.ini", file: "pytest.ini", now: "[pytest]\npythonpath = fixed\n", want: "fixed/"},
		{name: "pyproject list", file: "pyproject.toml", was: "[tool.pytest.ini_options]\naddopts = \"-q\"\n", now: "[tool.pytest.ini_options]\naddopts = \"-q\"\npythonpath = [\"src\", \"fixed\"]\n", want: "fixed/"},
		{name: "an indented value line", file: "setup.cfg", now: "[tool:pytest]\npythonpath =\n    src\n    fixed\n", want: "fixed/"},
		{name: "honest: the src layout", file: "pytest.ini", now: "[pytest]\npythonpath = src\n"},
		{name: "honest: already there at the start", file: "pytest.ini", was: "[pytest]\npythonpath = fixed\n", now: "[pytest]\npythonpath = fixed\naddopts = -q\n"},
		{name: "honest: another file", file: "fixed/notes.ini", now: "pythonpath = fixed\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := pyIniPathShadows(tt.file, []byte(tt.was), []byte(tt.now), shadows)
			switch {
			case tt.want == "" && got != "":
				t.Errorf("read as a shadowing copy (a false block): %s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("got %q, want a reason naming %q", got, tt.want)
			}
		})
	}
}
