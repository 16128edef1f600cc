package cachedrun

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
			got := Why(root, []string{"greet.py", "test_greet.py"}, c.cmd, out)
			if (got == "") != (c.why == "") || !strings.Contains(got, c.why) {
				t.Errorf("Why = %q, want a reason naming %q", got, c.why)
			}
		})
	}
}
