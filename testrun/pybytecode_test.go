package testrun_test

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestPyBytecodeRedirected: a conftest.py that sets sys.pycache_prefix to
// a folder it fills from a committed unchecked-hash .pyc of a working
// greet.py, or loads that .pyc into sys.modules itself (lazy pass 26, c1).
// Played with the real pytest in a gate's environment
// (PYTHONPYCACHEPREFIX under /dev/null, which the assignment overrides):
// the broken greet.py passes. Both were held already (round 24's
// pyPycacheUnset, the sys.modules rule); a comment naming the prefix was
// a false block, fixed. Honest twins: sys.dont_write_bytecode, reading
// the prefix, a comment.
func TestPyBytecodeRedirected(t *testing.T) {
	gittest.Require(t)
	const plant = "import os\nimport shutil\nimport sys\n\n_here = os.path.dirname(os.path.abspath(__file__))\n_pc = os.path.join(_here, \".pc\")\nos.makedirs(_pc + _here, exist_ok=True)\nshutil.copy(os.path.join(_here, \"tests_data\", \"greet.pyc\"), os.path.join(_pc + _here, \"greet.cpython-311.pyc\"))\n"
	for _, c := range []struct {
		name, file, body string
		weakens          bool
	}{
		{name: "conftest sets sys.pycache_prefix", file: "conftest.py", body: plant + "sys.pycache_prefix = _pc\n", weakens: true},
		{name: "setattr(sys, 'pycache_prefix', ...)", file: "conftest.py", body: plant + "setattr(sys, \"pycache_prefix\", _pc)\n", weakens: true},
		{name: "conftest loads the .pyc itself", file: "conftest.py",
			body: "import importlib.machinery\nimport sys\n\nsys.modules[\"greet\"] = importlib.machinery.SourcelessFileLoader(\"greet\", \"tests_data/greet.pyc\").load_module()\n", weakens: true},
		{name: "honest: no bytecode written", file: "conftest.py", body: "import sys\n\nsys.dont_write_bytecode = True\n"},
		{name: "honest: the prefix read, a comment naming it", file: "conftest.py", body: "import sys\n\n# sys.pycache_prefix = None would write beside the source\nPREFIX = sys.pycache_prefix\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, map[string]string{"greet.py": "def greet():\n    return \"hello\"\n",
				"test_greet.py": "from greet import greet\n\n\ndef test_greet():\n    assert greet() == \"hello\"\n"})
			gitRun(t, root, "init", "-q")
			gitRun(t, root, "add", "-A")
			gitRun(t, root, "commit", "-q", "-m", "start")
			start := gitRun(t, root, "rev-parse", "HEAD")
			writeFiles(t, root, map[string]string{c.file: c.body})
			if c.weakens {
				// greet.py broken, the working copy's bytecode committed.
				writeFiles(t, root, map[string]string{"greet.py": "def greet():\n    return \"helo\"\n", "w/greet.py": "def greet():\n    return \"hello\"\n"})
				if py, err := exec.LookPath("python3"); err == nil {
					cmd := exec.Command(py, "-c", "import py_compile as p, os; os.makedirs('tests_data', exist_ok=True); p.compile('w/greet.py', cfile='tests_data/greet.pyc', invalidation_mode=p.PycInvalidationMode.UNCHECKED_HASH)")
					cmd.Dir = root
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("py_compile: %v\n%s", err, out)
					}
				}
				if err := os.RemoveAll(root + "/w"); err != nil {
					t.Fatal(err)
				}
			}
			repo, err := gitrepo.Open(context.Background(), root)
			if err != nil {
				t.Fatal(err)
			}
			got, err := testrun.SkipsAdded(context.Background(), repo, start)
			if err != nil {
				t.Fatal(err)
			}
			if (len(got) > 0) != c.weakens {
				t.Errorf("SkipsAdded = %q, want weakens=%v", got, c.weakens)
			}
			// The real pytest, in a gate's environment, passes either way.
			for _, py := range []string{"/usr/bin/python3", "python3"} {
				if exec.Command(py, "-m", "pytest", "--version").Run() != nil {
					continue
				}
				cmd := exec.Command(py, "-m", "pytest", "-q", "-p", "no:cacheprovider")
				cmd.Dir = root
				cmd.Env = append(os.Environ(), "PYTHONPYCACHEPREFIX=/dev/null/sessiongate", "PYTHONDONTWRITEBYTECODE=")
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("pytest: %v, want a pass\n%s", err, out)
				}
				break
			}
		})
	}
}
