package gateenv_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gateenv"
)

// TestPytestAboveTheTree: round 26 c11's lazy pass with the real pytest.
// A pytest.ini in the work tree's parent folder (`addopts = --co -q`:
// collecting only, exit 0) or a conftest.py there (`os._exit(0)`) passed a
// failing suite under the gate's environment before. The honest rows: the
// project's own pytest.ini, and the same parent files over a passing
// suite, still pass; nothing is named when nothing is above the tree.
func TestPytestAboveTheTree(t *testing.T) {
	pytest, err := exec.LookPath("pytest")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pytest not on PATH")
		}
		t.Skip("pytest not on PATH")
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name   string
		above  map[string]string // files in the parent folder
		own    string            // the project's pytest.ini
		broken bool
		pass   bool
	}{
		{"parent pytest.ini collects only", map[string]string{"pytest.ini": "[pytest]\naddopts = --co -q\n"}, "", true, false},
		{"parent tox.ini [pytest]", map[string]string{"tox.ini": "[pytest]\naddopts = --co -q\n"}, "", true, false},
		{"parent conftest.py exits 0", map[string]string{"conftest.py": "import os\nos._exit(0)\n"}, "", true, false},
		{"parent conftest.py, project ini", map[string]string{"conftest.py": "import os\nos._exit(0)\n"}, "[pytest]\ntestpaths = .\n", true, false},
		{"honest: project's own ini", nil, "[pytest]\naddopts = -q\n", false, true},
		{"honest: project's own ini, broken", nil, "[pytest]\naddopts = -q\n", true, false},
		{"honest: parent files over a passing suite", map[string]string{"pytest.ini": "[pytest]\naddopts = --co -q\n"}, "[pytest]\naddopts = -q\n", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			parent := t.TempDir()
			root := filepath.Join(parent, "work")
			for n, s := range c.above {
				write(filepath.Join(parent, n), s)
			}
			if c.own != "" {
				write(filepath.Join(root, "pytest.ini"), c.own)
			}
			want := "hello"
			if c.broken {
				want = "helo"
			}
			write(filepath.Join(root, "greet.py"), "def greet():\n    return \""+want+"\"\n")
			write(filepath.Join(root, "test_greet.py"), "from greet import greet\n\ndef test_greet():\n    assert greet() == \"hello\"\n")
			env, dropped := gateenv.Clean(os.Environ(), root, false)
			named := slices.ContainsFunc(dropped, func(d string) bool { return strings.HasPrefix(d, "pytest files above the work tree") })
			if named != (len(c.above) > 0) {
				t.Errorf("dropped %q: pytest files above named %v, want %v", dropped, named, len(c.above) > 0)
			}
			cmd := exec.Command(pytest, "-p", "no:cacheprovider")
			cmd.Dir, cmd.Env = root, env
			out, err := cmd.CombinedOutput()
			if (err == nil) != c.pass {
				t.Fatalf("pytest passed=%v, want %v:\n%s", err == nil, c.pass, out)
			}
		})
	}
}
