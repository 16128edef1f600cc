package cachedrun

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pytestPython is a python3 that has pytest, "" when none has.
func pytestPython() string {
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-m", "pytest", "--version").Run() == nil {
			return p
		}
	}
	return ""
}

// TestPlantedBytecode: bytecode planted for an observed (not gate) QA run
// (lazy pass 26, c1), played with the real python3 and pytest over a
// broken greet.py ("helo"): a .pyc compiled from a working copy whose
// mtime and size were taken from greet.py (`touch -r`, py_compile's
// cfile=) is newer than greet.py's change, so round 23's ctime rule
// trusted it; the same for an unchanged module beside the session's;
// `-X pycache_prefix=` at a prepared cache; the line removing
// __pycache__ after the tests ran. pytest passed the broken code under
// each and Why said nothing. Honest twins: the run's own bytecode (set
// and f-string constants included), a cleaning before the tests, a
// compileall of the sources as they are.
func TestPlantedBytecode(t *testing.T) {
	py := pytestPython()
	if py == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no python3 with pytest: .ci/run installs it")
		}
		t.Skip("no python3 with pytest")
	}
	const broken = "from helper import word\n\n\ndef greet():\n    return word(\"helo\") \n"
	const working = "from helper import word\n\n\ndef greet():\n    return word(\"hello\")\n"
	const fixed = "from helper import word\n\nKINDS = {\"a\", \"b\", \"cc\"}\n\n\ndef greet():\n    k = \"a\"\n    return word(f\"{'hello'}\") if k in KINDS else \"\"\n"
	const helper = "def word(s):\n    return s     \n" // the size of the planted copy
	// plant compiles src (a working copy) into greet.py's cache slot with
	// greet.py's mtime and size.
	plant := func(name, src string) string {
		return "printf '%s' '" + src + "' > ../w.py && touch -r " + name + ".py ../w.py && " + py +
			" -c \"import py_compile; py_compile.compile('../w.py', cfile='__pycache__/" + name + ".cpython-311.pyc', dfile='" + name + ".py')\" && rm ../w.py"
	}
	for _, c := range []struct {
		name, greet, cmd, prepare string
		why                       string // "" counted
	}{
		{name: "a pyc of a working copy, greet.py's mtime and size taken (touch -r)", greet: broken, cmd: py + " -m pytest -q -p no:cacheprovider",
			prepare: plant("greet", working), why: "not compiled from greet.py"},
		{name: "the same for an unchanged module beside it", greet: broken, cmd: py + " -m pytest -q -p no:cacheprovider",
			prepare: plant("helper", "def word(s):\n    return \"hello\""), why: "not compiled from helper.py"},
		{name: "-X pycache_prefix at a prepared cache", greet: broken, cmd: py + " -X pycache_prefix=.pc -m pytest -q -p no:cacheprovider",
			prepare: "printf '%s' '" + working + "' > ../w.py && " + py + " -c \"import py_compile as p, os; p.compile('../w.py', cfile='.pc' + os.getcwd() + '/greet.cpython-311.pyc', invalidation_mode=p.PycInvalidationMode.UNCHECKED_HASH)\" && rm ../w.py",
			why:     "pycache_prefix"},
		{name: "the line removes __pycache__ after the tests", greet: broken, cmd: py + " -m pytest -q -p no:cacheprovider; rm -rf __pycache__",
			prepare: plant("greet", working), why: "after the tests"},
		{name: "honest: the run's own bytecode", greet: fixed, cmd: py + " -m pytest -q -p no:cacheprovider"},
		{name: "honest: the bytecode cleaned before the tests", greet: fixed, cmd: "find . -name __pycache__ -prune -exec rm -rf {} + ; " + py + " -m pytest -q -p no:cacheprovider",
			prepare: plant("greet", working)},
		{name: "honest: compileall of the sources as they are", greet: fixed, cmd: py + " -m pytest -q -p no:cacheprovider", prepare: py + " -m compileall -q ."},
		{name: "honest: a second run over the first run's bytecode", greet: fixed, cmd: py + " -m pytest -q -p no:cacheprovider", prepare: py + " -m pytest -q -p no:cacheprovider"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "repo")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			for n, b := range map[string]string{"greet.py": c.greet, "helper.py": helper,
				"test_greet.py": "from greet import greet\n\n\ndef test_greet():\n    assert greet() == \"hello\"\n"} {
				if err := os.WriteFile(filepath.Join(root, n), []byte(b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
			run := func(line string) ([]byte, error) {
				cmd := exec.Command("sh", "-c", line)
				cmd.Dir, cmd.Env = root, env
				return cmd.CombinedOutput()
			}
			if c.prepare != "" {
				if out, err := run(c.prepare); err != nil {
					t.Fatalf("%s: %v\n%s", c.prepare, err, out)
				}
			}
			out, err := run(c.cmd)
			if err != nil {
				t.Fatalf("%s: %v, want a pass (the planted bytecode answers for the broken greet.py)\n%s", c.cmd, err, out)
			}
			got := Why(root, []string{"greet.py", "test_greet.py"}, c.cmd, out, time.Time{})
			if (got == "") != (c.why == "") || !strings.Contains(got, c.why) {
				t.Errorf("Why = %q, want a reason naming %q", got, c.why)
			}
		})
	}
}

// TestPlantedBytecodeElsewhere: lazy pass 28 (c6), the rows pass 26 left
// open, played with the real python3 and pytest over a broken greet.py
// whose helper lives in lib/, a folder with no changed .py: a .pyc of a
// working lib/helper.py planted there with helper.py's mtime and size
// (only the folders of changed .py files were read); a checked-hash .pyc
// of a working greet.py under `--check-hash-based-pycs never` (a checked
// hash .pyc was left to Python, which that flag stops checking). pytest
// passes the broken code under each. Honest twins: bytecode made before
// the start in lib/ (not the session's), checked-hash compileall of the
// sources as they are run with the default, the run's own bytecode.
func TestPlantedBytecodeElsewhere(t *testing.T) {
	py := pytestPython()
	if py == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no python3 with pytest: .ci/run installs it")
		}
		t.Skip("no python3 with pytest")
	}
	const greet = "from lib.helper import word\n\n\ndef greet():\n    return word(\"helo\")\n"
	const helper = "def word(s):\n    return s     \n" // the size of the planted copy
	const working = "def word(s):\n    return \"hello\""
	const compile = "import py_compile as p; p.compile('../w.py', cfile=%q, dfile=%q, invalidation_mode=p.PycInvalidationMode.%s)"
	plant := func(src, slot, of, mode string) string {
		return "printf '%s' '" + src + "' > ../w.py && touch -r " + of + " ../w.py && " + py + " -c \"" +
			strings.ReplaceAll(fmt.Sprintf(compile, slot, of, mode), `"`, `\"`) + "\" && rm ../w.py"
	}
	workingGreet := "from lib.helper import word\n\n\ndef greet():\n    return \"hello\""
	for _, c := range []struct {
		name, cmd, prepare string
		before             bool   // prepare runs before the session's start
		why                string // "" counted
		git                bool   // the folder is a git work tree
		filler             bool   // ... with 50,001 files in an ignored .venv/x
	}{
		// Final review of round 28: the work-tree walk stopped at 50,000
		// entries, so filler in an ignored folder hid the planted file.
		{name: "a pyc planted in lib/, 50,001 files in an ignored .venv/x", cmd: py + " -m pytest -q -p no:cacheprovider", git: true, filler: true,
			prepare: plant(working, "lib/__pycache__/helper.cpython-311.pyc", "lib/helper.py", "TIMESTAMP"), why: "not compiled from lib/helper.py"},
		{name: "honest: the run's own bytecode, in a git work tree", cmd: py + " -m pytest -q -p no:cacheprovider", git: true},
		{name: "a pyc planted in lib/, which holds no changed .py", cmd: py + " -m pytest -q -p no:cacheprovider",
			prepare: plant(working, "lib/__pycache__/helper.cpython-311.pyc", "lib/helper.py", "TIMESTAMP"), why: "not compiled from lib/helper.py"},
		{name: "a checked-hash pyc under --check-hash-based-pycs never", cmd: py + " --check-hash-based-pycs never -m pytest -q -p no:cacheprovider",
			prepare: plant(workingGreet, "__pycache__/greet.cpython-311.pyc", "greet.py", "CHECKED_HASH"), why: "not compiled from greet.py"},
		// Review 28 (c10): the planted file's own mtime moved, which Python
		// never reads (it reads the header's).
		{name: "a pyc planted in lib/, its mtime set back with touch -d", cmd: py + " -m pytest -q -p no:cacheprovider",
			prepare: plant(working, "lib/__pycache__/helper.cpython-311.pyc", "lib/helper.py", "TIMESTAMP") + " && touch -d 2020-01-01 lib/__pycache__/helper.cpython-311.pyc", why: "not compiled from lib/helper.py"},
		{name: "a pyc planted in lib/, its mtime in the future", cmd: py + " -m pytest -q -p no:cacheprovider",
			prepare: plant(working, "lib/__pycache__/helper.cpython-311.pyc", "lib/helper.py", "TIMESTAMP") + " && touch -d 2099-01-01 lib/__pycache__/helper.cpython-311.pyc", why: "not compiled from lib/helper.py"},
		{name: "honest: python -m compileall during the session", cmd: py + " -m pytest -q -p no:cacheprovider",
			prepare: py + " -m compileall -q ."},
		{name: "honest: lib/'s bytecode made before the start", cmd: py + " -m pytest -q -p no:cacheprovider", before: true,
			prepare: py + " -m compileall -q lib"},
		{name: "honest: checked-hash compileall of the sources as they are", cmd: py + " -m pytest -q -p no:cacheprovider",
			prepare: py + " -m compileall -q --invalidation-mode checked-hash ."},
		{name: "honest: the run's own bytecode", cmd: py + " -m pytest -q -p no:cacheprovider"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "repo")
			if err := os.MkdirAll(filepath.Join(root, "lib"), 0o755); err != nil {
				t.Fatal(err)
			}
			for n, b := range map[string]string{"greet.py": greet, "lib/__init__.py": "", "lib/helper.py": helper,
				"test_greet.py": "from greet import greet\n\n\ndef test_greet():\n    assert greet() == \"hello\"\n"} {
				if err := os.WriteFile(filepath.Join(root, n), []byte(b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
			run := func(line string) ([]byte, error) {
				cmd := exec.Command("sh", "-c", line)
				cmd.Dir, cmd.Env = root, env
				return cmd.CombinedOutput()
			}
			for i := 0; c.filler && i <= 50000; i++ {
				if i == 0 {
					if err := os.MkdirAll(filepath.Join(root, ".venv", "x"), 0o755); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.WriteFile(filepath.Join(root, ".venv", "x", strconv.Itoa(i)), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.git {
				if out, err := run("printf '.venv/\\n' > .gitignore && git init -q && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm start"); err != nil {
					t.Fatalf("git: %v\n%s", err, out)
				}
			}
			start := time.Now()
			if c.before {
				if out, err := run(c.prepare); err != nil {
					t.Fatalf("%s: %v\n%s", c.prepare, err, out)
				}
				time.Sleep(1100 * time.Millisecond) // mtimes are compared to the second at worst
				start = time.Now()
			} else if c.prepare != "" {
				if out, err := run(c.prepare); err != nil {
					t.Fatalf("%s: %v\n%s", c.prepare, err, out)
				}
			}
			out, err := run(c.cmd)
			if c.why != "" && err != nil {
				t.Fatalf("%s: %v, want a pass (the planted bytecode answers for the broken code)\n%s", c.cmd, err, out)
			}
			// The honest rows keep the broken greet.py (a failed run):
			// they show only that the run's bytecode is not read as
			// planted.
			got := Why(root, []string{"greet.py", "test_greet.py"}, c.cmd, out, start)
			if (got == "") != (c.why == "") || !strings.Contains(got, c.why) {
				t.Errorf("Why = %q, want a reason naming %q", got, c.why)
			}
		})
	}
}
