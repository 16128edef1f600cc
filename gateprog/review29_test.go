package gateprog_test

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gateprog"
)

// TestWhyStartupFileInSite: review 29 (c8) of c3's new-runtime rule. A
// version folder installed whole during the session is accepted when its
// interpreter is a real CPython; what that interpreter runs at every start
// was never read. `cp` of the real python3.13 and its libpython into
// ~/.pyenv/versions/3.13.9 with a pyvenv.cfg naming 3.13.0 and a
// sitecustomize.py printing "1 passed" and exiting 0 (or a .pth with an
// import line) made `python3 -m pytest -q` through the real pyenv shim
// pass with no test run: the hook denies a typed write of a startup file,
// not one a copied tree brings. A startup file of the gate's python's
// site folders changed since the start counts only when an installed
// distribution's RECORD lists it with its sha256 (setuptools'
// distutils-precedence.pth, pip's editable .pth). Each lazy row is also
// run for real through the shim to show it reports a pass.
func TestWhyStartupFileInSite(t *testing.T) {
	const base = "/root/.pyenv/versions/3.13.0"
	baseBin := filepath.Join(base, "bin", "python3.13")
	if _, err := os.Stat(baseBin); err != nil {
		t.Skip("no pyenv 3.13.0 here to lay out a version from")
	}
	if _, err := exec.LookPath("pyenv"); err != nil {
		t.Skip("pyenv not installed")
	}
	// newVersion lays out versions/3.13.9 as a copy of 3.13.0's
	// interpreter run as a venv of it: its own site-packages, 3.13.0's
	// standard library.
	newVersion := func(t *testing.T, data string) string {
		v := filepath.Join(data, "versions", "3.13.9")
		for _, d := range []string{"bin", "lib/python3.13/site-packages"} {
			if err := os.MkdirAll(filepath.Join(v, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		run(t, "/", nil, "cp", "-p", baseBin, filepath.Join(v, "bin"))
		run(t, "/", nil, "cp", "-p", filepath.Join(base, "lib", "libpython3.13.so.1.0"), filepath.Join(v, "lib"))
		if err := os.Symlink("python3.13", filepath.Join(v, "bin", "python3")); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(v, "pyvenv.cfg"), "home = "+filepath.Join(base, "bin")+"\ninclude-system-site-packages = false\nversion = 3.13.0\n", 0o644)
		return filepath.Join(v, "lib/python3.13/site-packages")
	}
	const fakePass = "import os\nprint('1 passed in 0.01s'); os._exit(0)\n"
	record := func(t *testing.T, site, dist string, files map[string]string) {
		var rec strings.Builder
		for name, body := range files {
			write(t, filepath.Join(site, name), body, 0o644)
			h := sha256.Sum256([]byte(body))
			fmt.Fprintf(&rec, "%s,sha256=%s,%d\n", name, base64.RawURLEncoding.EncodeToString(h[:]), len(body))
		}
		fmt.Fprintf(&rec, "%s/RECORD,,\n", dist)
		write(t, filepath.Join(site, dist, "INSTALLER"), "pip\n", 0o644)
		write(t, filepath.Join(site, dist, "RECORD"), rec.String(), 0o644)
	}
	for _, c := range []struct {
		name  string
		after func(t *testing.T, data, proj string)
		lazy  bool
		want  string
	}{
		{name: "lazy: a copied 3.13.9 whose site-packages holds a sitecustomize.py that prints a pass", lazy: true,
			after: func(t *testing.T, data, proj string) {
				write(t, filepath.Join(newVersion(t, data), "sitecustomize.py"), fakePass, 0o644)
				write(t, filepath.Join(proj, ".python-version"), "3.13.9\n", 0o644)
			}, want: "sitecustomize.py changed after the session started"},
		{name: "lazy: a copied 3.13.9 whose site-packages holds a .pth with an import line", lazy: true,
			after: func(t *testing.T, data, proj string) {
				write(t, filepath.Join(newVersion(t, data), "zz.pth"), "import os; print('1 passed in 0.01s'); os._exit(0)\n", 0o644)
				write(t, filepath.Join(proj, ".python-version"), "3.13.9\n", 0o644)
			}, want: "zz.pth changed after the session started"},
		{name: "lazy: a .pth listed by a RECORD whose sha256 is not the file's", lazy: true,
			after: func(t *testing.T, data, proj string) {
				site := newVersion(t, data)
				record(t, site, "zz-1.0.dist-info", map[string]string{"zz.pth": "import os\n"})
				write(t, filepath.Join(site, "zz.pth"), "import os; print('1 passed in 0.01s'); os._exit(0)\n", 0o644)
				write(t, filepath.Join(proj, ".python-version"), "3.13.9\n", 0o644)
			}, want: "zz.pth changed after the session started"},
		{name: "lazy: a sitecustomize.py planted in the installed 3.12.1's site-packages",
			after: func(t *testing.T, data, proj string) {
				write(t, filepath.Join(data, "versions/3.12.1/lib/python3.12/site-packages/sitecustomize.py"), fakePass, 0o644)
			}, want: "sitecustomize.py changed after the session started"},
		{name: "honest: a new 3.13.9 with setuptools' distutils-precedence.pth as its RECORD lists it",
			after: func(t *testing.T, data, proj string) {
				record(t, newVersion(t, data), "setuptools-75.1.0.dist-info", map[string]string{
					"distutils-precedence.pth": "import os; var = 'SETUPTOOLS_USE_DISTUTILS'; enabled = os.environ.get(var, 'local') == 'local'; enabled and __import__('_distutils_hack').add_shim(); \n",
				})
				write(t, filepath.Join(proj, ".python-version"), "3.13.9\n", 0o644)
			}},
		{name: "honest: pip install -e . into the installed 3.12.1 (its editable .pth in the RECORD)",
			after: func(t *testing.T, data, proj string) {
				record(t, filepath.Join(data, "versions/3.12.1/lib/python3.12/site-packages"), "app-0.1.dist-info", map[string]string{
					"__editable__.app-0.1.pth": proj + "/src\n",
				})
			}},
		{name: "lazy: a path-only .pth adding a folder that holds a fake pytest", lazy: true,
			after: func(t *testing.T, data, proj string) {
				fake := filepath.Join(t.TempDir(), "fake")
				write(t, filepath.Join(fake, "pytest", "__init__.py"), "", 0o644)
				write(t, filepath.Join(fake, "pytest", "__main__.py"), fakePass, 0o644)
				write(t, filepath.Join(newVersion(t, data), "zz.pth"), fake+"\n", 0o644)
				write(t, filepath.Join(proj, ".python-version"), "3.13.9\n", 0o644)
			}, want: "zz.pth changed after the session started"},
		{name: "honest: setup.py develop's easy-install.pth naming the project's src (path lines only)",
			after: func(t *testing.T, data, proj string) {
				write(t, filepath.Join(proj, "src", "app", "__init__.py"), "", 0o644)
				write(t, filepath.Join(data, "versions/3.12.1/lib/python3.12/site-packages/easy-install.pth"), proj+"/src\n", 0o644)
			}},
		{name: "honest: a new 3.13.9 with no startup file",
			after: func(t *testing.T, data, proj string) {
				newVersion(t, data)
				write(t, filepath.Join(proj, ".python-version"), "3.13.9\n", 0o644)
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, proj := filepath.Join(t.TempDir(), "data"), t.TempDir()
			old := filepath.Join(data, "versions", "3.12.1")
			run(t, "/", nil, "mkdir", "-p", filepath.Join(old, "bin"), filepath.Join(old, "lib/python3.12/site-packages"))
			run(t, "/", nil, "cp", "-p", baseBin, filepath.Join(old, "bin", "python3.12"))
			if err := os.Symlink("python3.12", filepath.Join(old, "bin", "python3")); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(proj, ".python-version"), "3.12.1\n", 0o644)
			run(t, proj, []string{"PYENV_ROOT=" + data}, "pyenv", "rehash")
			env := []string{"PATH=" + filepath.Join(data, "shims") + string(os.PathListSeparator) + os.Getenv("PATH"), "PYENV_ROOT=" + data}
			line := "python3 -m pytest -q"
			st := gateprog.Record(env, []string{line})
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			c.after(t, data, proj)
			run(t, proj, []string{"PYENV_ROOT=" + data}, "pyenv", "rehash")
			if c.lazy {
				// The route is real: the gate's line through the shim
				// reports a pass with no pytest installed.
				cmd := exec.Command("sh", "-c", line)
				cmd.Dir, cmd.Env = proj, append(os.Environ(), env...)
				out, err := cmd.CombinedOutput()
				if err != nil || !strings.Contains(string(out), "1 passed") {
					t.Fatalf("the planted version did not fake a pass: %v\n%s", err, out)
				}
			}
			got := gateprog.Why(line, env, proj, st, since)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("Why(%q) = %q, want %q", line, got, c.want)
			}
		})
	}
}
