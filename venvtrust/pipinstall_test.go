//go:build unix

package venvtrust

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pytestWheel builds a wheel of the system's pytest 7.2.1 (its files as
// the Debian package installed them, the RECORD made anew) labelled
// version ver, so the real pip can install or upgrade it offline.
func pytestWheel(t *testing.T, py, dir, ver string) {
	const mk = `import base64, hashlib, os, sys, zipfile
src, out, ver = sys.argv[1], sys.argv[2], sys.argv[3]
def h(b): return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()
files = {}
for top in ("pytest", "_pytest"):
    for d, _, fs in os.walk(os.path.join(src, top)):
        if "__pycache__" in d: continue
        for f in fs:
            p = os.path.join(d, f)
            files[os.path.relpath(p, src)] = open(p, "rb").read()
files["py.py"] = open(os.path.join(src, "py.py"), "rb").read()
old, di = "pytest-7.2.1.dist-info", "pytest-%s.dist-info" % ver
for f in ("METADATA", "entry_points.txt", "top_level.txt"):
    b = open(os.path.join(src, old, f), "rb").read()
    if f == "METADATA": b = b.replace(b"Version: 7.2.1", ("Version: " + ver).encode(), 1)
    files[di + "/" + f] = b
files[di + "/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: t\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
with zipfile.ZipFile(os.path.join(out, "pytest-%s-py3-none-any.whl" % ver), "w") as z:
    rec = ""
    for n, b in files.items():
        z.writestr(n, b); rec += "%s,%s,%d\n" % (n, h(b), len(b))
    z.writestr(di + "/RECORD", rec + di + "/RECORD,,\n")
`
	src := "/usr/lib/python3/dist-packages"
	if _, err := os.Stat(filepath.Join(src, "pytest-7.2.1.dist-info", "METADATA")); err != nil {
		t.Skip("the system's pytest 7.2.1 is not installed")
	}
	run(t, dir, py, "-c", mk, src, dir, ver)
}

// TestPipDuringSessionRealVenv: pass 29 (c3), the honest team's pip
// in the session's venv, played with the real pip, setuptools and
// pytest. `pip install -U pytest` rewrites .venv/bin/pytest and every
// file of pytest's package; Changed refused the run the fix was tested
// with (it read any change of the program or the package as a swap).
// `pip install -e ./plugin` and `pip install ./plugin` of the team's
// pytest11 plugin (fixtures) install a new distribution. Each is what
// its RECORD lists. Lazy twins: the console script rewritten to print
// "1 passed"; _pytest/main.py rewritten to exit 0 with pytest's RECORD
// as pip wrote it; a pytest11 plugin whose pytest_pyfunc_call returns
// True installed by pip and its source then deleted from the work tree
// (no work-tree file for the input rules to read).
func TestPipDuringSessionRealVenv(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import setuptools, venv, pytest, pip").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s with venv, pip, setuptools and pytest is needed: %v", py, err)
		}
		t.Skipf("%s with venv, pip, setuptools and pytest not found: %v", py, err)
	}
	wheels := t.TempDir()
	pytestWheel(t, py, wheels, "7.2.1")
	pytestWheel(t, py, wheels, "7.2.2")
	plugin := func(root, body string) {
		write(t, filepath.Join(root, "plugin", "pyproject.toml"), "[project]\nname = \"greetplug\"\nversion = \"0.1\"\n\n[project.entry-points.pytest11]\ngreetplug = \"greetplug\"\n\n[build-system]\nrequires = [\"setuptools\"]\nbuild-backend = \"setuptools.build_meta\"\n\n[tool.setuptools]\npy-modules = [\"greetplug\"]\n", 0o644)
		write(t, filepath.Join(root, "plugin", "greetplug.py"), body, 0o644)
	}
	const fixtures = "import pytest\n\n\n@pytest.fixture\ndef name():\n    return \"world\"\n"
	pip := func(t *testing.T, root string, args ...string) {
		run(t, root, filepath.Join(root, ".venv/bin/python"), append([]string{"-m", "pip", "install", "-q", "--no-index", "--find-links", wheels, "--no-build-isolation"}, args...)...)
	}
	fix := func(t *testing.T, root string) {
		write(t, filepath.Join(root, "greet.py"), "def greet():\n    return \"hello\"\n", 0o644)
	}
	for _, c := range []struct {
		name  string
		after func(t *testing.T, root, sp string)
		want  string
	}{
		{"honest: the code fixed, pip install -U pytest (7.2.1 -> 7.2.2)", func(t *testing.T, root, sp string) {
			fix(t, root)
			pip(t, root, "-U", "pytest")
		}, ""},
		{"honest: the code fixed, pip install -e ./plugin (a pytest11 plugin of fixtures)", func(t *testing.T, root, sp string) {
			fix(t, root)
			plugin(root, fixtures)
			pip(t, root, "-e", "./plugin")
		}, ""},
		{"honest: the code fixed, pip install ./plugin", func(t *testing.T, root, sp string) {
			fix(t, root)
			plugin(root, fixtures)
			pip(t, root, "./plugin")
		}, ""},
		{"lazy: .venv/bin/pytest rewritten to print 1 passed", func(t *testing.T, root, sp string) {
			write(t, filepath.Join(root, ".venv", "bin", "pytest"), "#!/bin/sh\necho '1 passed'\n", 0o755)
		}, "bin/pytest changed"},
		{"lazy: _pytest/main.py rewritten to exit 0, pytest's RECORD untouched", func(t *testing.T, root, sp string) {
			p := filepath.Join(sp, "_pytest", "main.py")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			write(t, p, strings.Replace(string(b), "def wrap_session(", "def wrap_session(*a, **k):\n    raise SystemExit(0)\n\n\ndef _wrap_session(", 1), 0o644)
		}, "_pytest/main.py changed"},
		{"lazy: a pytest11 plugin answering every test installed by pip, its source deleted", func(t *testing.T, root, sp string) {
			plugin(root, "def pytest_pyfunc_call(pyfuncitem):\n    return True\n")
			pip(t, root, "./plugin")
			if err := os.RemoveAll(filepath.Join(root, "plugin")); err != nil {
				t.Fatal(err)
			}
		}, "greetplug"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, "greet.py"), "def greet():\n    return \"helo\"\n", 0o644)
			write(t, filepath.Join(root, "test_greet.py"), "from greet import greet\n\n\ndef test_greet():\n    assert greet() == \"hello\"\n", 0o644)
			run(t, root, py, "-m", "venv", "--system-site-packages", ".venv")
			pip(t, root, "--ignore-installed", "--no-deps", "pytest==7.2.1")
			sps, _ := filepath.Glob(filepath.Join(root, ".venv/lib/python*/site-packages"))
			if len(sps) != 1 {
				t.Fatalf("site-packages: %q", sps)
			}
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			c.after(t, root, sps[0])
			if !strings.Contains(c.name, "bin/pytest rewritten") {
				// passes: the stand-in, or the fix
				run(t, root, filepath.Join(root, ".venv/bin/python"), "-m", "pytest", "-q", "-p", "no:cacheprovider")
			}
			for _, line := range []string{".venv/bin/pytest -q", ".venv/bin/python -m pytest -q -p no:cacheprovider"} {
				if strings.Contains(c.name, "bin/pytest rewritten") && strings.Contains(line, "-m pytest") {
					continue
				}
				got, err := Changed(root, line, since)
				if err != nil {
					t.Fatal(err)
				}
				if c.want == "" && got != "" || !strings.Contains(got, c.want) {
					t.Errorf("Changed(%q) = %q, want %q", line, got, c.want)
				}
			}
		})
	}
}
