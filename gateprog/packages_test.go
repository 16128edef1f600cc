package gateprog_test

import (
	"crypto/sha256"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gateprog"
)

// pytestWheel builds a wheel of the system's pytest (its files as the
// Debian package installed them, the RECORD made anew), so the real pip
// can install it into a venv offline.
func pytestWheel(t *testing.T, py string) string {
	const mk = `import base64, hashlib, os, sys, zipfile
src, whl = sys.argv[1], sys.argv[2]
def h(b): return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()
files = {}
for top in ("pytest", "_pytest"):
    for d, _, fs in os.walk(os.path.join(src, top)):
        if "__pycache__" in d: continue
        for f in fs:
            p = os.path.join(d, f)
            files[os.path.relpath(p, src)] = open(p, "rb").read()
files["py.py"] = open(os.path.join(src, "py.py"), "rb").read()
di = "pytest-7.2.1.dist-info"
for f in ("METADATA", "entry_points.txt", "top_level.txt"):
    files[di + "/" + f] = open(os.path.join(src, di, f), "rb").read()
files[di + "/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: t\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
with zipfile.ZipFile(whl, "w") as z:
    rec = ""
    for n, b in files.items():
        z.writestr(n, b); rec += "%s,%s,%d\n" % (n, h(b), len(b))
    z.writestr(di + "/RECORD", rec + di + "/RECORD,,\n")
`
	src := "/usr/lib/python3/dist-packages"
	if _, err := os.Stat(filepath.Join(src, "pytest-7.2.1.dist-info", "METADATA")); err != nil {
		t.Skip("the system's pytest 7.2.1 is not installed")
	}
	whl := filepath.Join(t.TempDir(), "pytest-7.2.1-py3-none-any.whl")
	run(t, t.TempDir(), nil, py, "-c", mk, src, whl)
	return whl
}

func pipInstall(t *testing.T, root, py, whl string, args ...string) {
	run(t, root, []string{"PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_INDEX=1"}, py,
		append([]string{"-m", "pip", "--python", filepath.Join(root, ".venv", "bin", "python"), "install", "-q", "--no-deps", "--no-compile", "--ignore-installed"}, append(args, whl)...)...)
}

// TestWhyPackages: issue 25 item 7, round 27's open rows: a package the
// gate's program loads rewritten (`_pytest/main.py` made to exit 0) with
// the program itself as pip wrote it; and the forged RECORD (the file
// and its RECORD line rewritten together). Played with the real pip
// installing pytest into a real venv; honest twins: the untouched venv
// (pytest run for real, passing), pip reinstalling pytest during the
// session.
func TestWhyPackages(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import venv, pytest, pip").Run(); err != nil {
		t.Skipf("%s with venv, pip and pytest not found: %v", py, err)
	}
	whl := pytestWheel(t, py)
	var siteRel string
	setup := func(t *testing.T, root string) {
		run(t, root, nil, py, "-m", "venv", "--system-site-packages", "--without-pip", ".venv")
		pipInstall(t, root, py, whl)
		write(t, filepath.Join(root, "tests", "test_one.py"), "def test_one():\n    assert 1 + 1 == 2\n", 0o644)
		write(t, filepath.Join(root, "scripts", "test.sh"), "#!/bin/sh\n.venv/bin/python -m pytest -q -p no:cacheprovider tests\n", 0o755)
		site, _ := filepath.Glob(filepath.Join(root, ".venv", "lib", "python3*", "site-packages"))
		if len(site) != 1 {
			t.Fatalf("site-packages: %q", site)
		}
		siteRel, _ = filepath.Rel(root, site[0])
	}
	mainPy := func() string { return filepath.Join(siteRel, "_pytest", "main.py") }
	exitZero := func(t *testing.T, root string) string {
		p := filepath.Join(root, mainPy())
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		nb := strings.Replace(string(b), "def wrap_session(", "def wrap_session(*a, **k):\n    raise SystemExit(0)\n\n\ndef _wrap_session(", 1)
		write(t, p, nb, 0o644)
		return nb
	}
	for _, c := range []struct {
		name  string
		after func(t *testing.T, root string)
		want  string
	}{
		{"lazy: _pytest/main.py rewritten to exit 0", func(t *testing.T, root string) { exitZero(t, root) },
			"_pytest/main.py changed after the session started and is not what its package's RECORD"},
		{"lazy: _pytest/main.py and its RECORD line rewritten together", func(t *testing.T, root string) {
			nb := exitZero(t, root)
			rec := filepath.Join(root, siteRel, "pytest-7.2.1.dist-info", "RECORD")
			b, err := os.ReadFile(rec)
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.Sum256([]byte(nb))
			var out []string
			for _, l := range strings.Split(string(b), "\n") {
				if strings.HasPrefix(l, "_pytest/main.py,") {
					l = "_pytest/main.py,sha256=" + base64.RawURLEncoding.EncodeToString(h[:]) + "," + strconv.Itoa(len(nb))
				}
				out = append(out, l)
			}
			write(t, rec, strings.Join(out, "\n"), 0o644)
		}, "RECORD changed after the session started and not by an installer"},
		{"honest: nothing changed (the run writes __pycache__)", func(t *testing.T, root string) {}, ""},
		{"honest: pip reinstalls pytest during the session", func(t *testing.T, root string) {
			pipInstall(t, root, py, whl, "--force-reinstall")
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			setup(t, root)
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
			st := gateprog.Record(env, nil)
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			c.after(t, root)
			run(t, root, []string{"PYTHONDONTWRITEBYTECODE="}, "sh", "scripts/test.sh") // passes: the stand-in, or the real pytest
			for _, line := range []string{".venv/bin/pytest -q tests", ".venv/bin/python -m pytest -q tests", "sh scripts/test.sh"} {
				got := gateprog.Why(line, env, root, st, since)
				if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
					t.Errorf("Why(%q) = %q, want %q", line, got, c.want)
				}
			}
		})
	}
}

// TestWhyPlantedUserSite: a `pytest/` package with no dist-info planted
// in the user's site folder, which the system python imports before its
// dist-packages: `python3 -m pytest` exits 0 on a failing test. Honest
// twin: nothing planted (the system's pytest, its RECORD unchanged).
func TestWhyPlantedUserSite(t *testing.T) {
	py := "/usr/bin/python3"
	out, err := exec.Command(py, "-c", "import pytest, sys; print('python%d.%d' % sys.version_info[:2])").Output()
	if err != nil {
		t.Skipf("%s with pytest not found: %v", py, err)
	}
	pyVer := strings.TrimSpace(string(out))
	for _, c := range []struct {
		name  string
		plant bool
		want  string
	}{
		{"lazy: pytest/ planted in ~/.local/lib/" + pyVer + "/site-packages", true, "no installed distribution's RECORD lists pytest"},
		{"honest: nothing planted", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, home := t.TempDir(), t.TempDir()
			write(t, filepath.Join(root, "test_one.py"), "def test_one():\n    assert 1 + 1 == 3\n", 0o644)
			env := []string{"PATH=" + filepath.Dir(py) + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home}
			line := py + " -m pytest -q -p no:cacheprovider"
			st := gateprog.Record(env, []string{line})
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			if c.plant {
				write(t, filepath.Join(home, ".local", "lib", pyVer, "site-packages", "pytest", "__init__.py"), "", 0o644)
				write(t, filepath.Join(home, ".local", "lib", pyVer, "site-packages", "pytest", "__main__.py"), "print('1 passed')\n", 0o644)
			}
			cmd := exec.Command(py, "-m", "pytest", "-q", "-p", "no:cacheprovider")
			cmd.Dir, cmd.Env = root, append(os.Environ(), "HOME="+home, "PYTHONDONTWRITEBYTECODE=1")
			err := cmd.Run()
			if c.plant != (err == nil) {
				t.Fatalf("python3 -m pytest on a failing test: err %v (planted %v)", err, c.plant)
			}
			got := gateprog.Why(line, env, root, st, since)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("Why(%q) = %q, want %q", line, got, c.want)
			}
		})
	}
}
