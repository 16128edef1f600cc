package gateenv_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gateenv"
)

// TestUserSitePth: round 26 c11's lazy pass with the real python3. A .pth
// file in the user site-packages of HOME (`import os; os._exit(0)`)
// written after the session started made every gate's Python exit 0, a
// failing check included; so did `HOME=/tmp/fh` on the `session end`
// line with the .pth there. Now the user site is off for the gate
// (PYTHONNOUSERSITE=1, named). Honest twin: a .pth a `pip install --user`
// wrote before the session keeps the user site on.
func TestUserSitePth(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not on PATH")
	}
	for _, c := range []struct {
		name    string
		written time.Duration // when the .pth was written, from the start
		off     bool
	}{
		{"a .pth written during the session", time.Second, true},
		{"honest: a .pth from before the session", -time.Hour, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			environ := slices.DeleteFunc(os.Environ(), func(kv string) bool {
				return strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "PYTHONNOUSERSITE=")
			})
			environ = append(environ, "HOME="+home)
			out, err := exec.Command(py, "-c", "import site; print(site.getusersitepackages())").Output()
			if err != nil {
				t.Fatal(err)
			}
			site := strings.TrimSpace(string(out))
			site = filepath.Join(home, strings.TrimPrefix(site, os.Getenv("HOME")))
			if err := os.MkdirAll(site, 0o755); err != nil {
				t.Fatal(err)
			}
			pth := filepath.Join(site, "zz.pth")
			if err := os.WriteFile(pth, []byte("import os; os._exit(0)\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			start := time.Now().Add(-c.written)
			if err := os.Chtimes(pth, start.Add(c.written), start.Add(c.written)); err != nil {
				t.Fatal(err)
			}
			env, dropped := gateenv.CleanFor(environ, gateenv.Options{Root: t.TempDir(), Since: start})
			named := slices.ContainsFunc(dropped, func(d string) bool { return strings.HasPrefix(d, "Python's user site") })
			if named != c.off {
				t.Errorf("dropped %q: user site named %v, want %v", dropped, named, c.off)
			}
			cmd := exec.Command(py, "-c", "import sys; sys.exit(3)")
			cmd.Env = env
			err = cmd.Run()
			failed := err != nil
			if failed != c.off {
				t.Errorf("a failing python exited %v with the .pth (want failing=%v)", err, c.off)
			}
		})
	}
}

// TestUserSitePytestPlugin: lazy pass 37 (R15e) registered a pytest
// plugin in ~/.local during the session (a dist-info whose
// entry_points.txt names it in the pytest11 group) that skipped every
// test in the start commit's checkout only. Registered during the
// session, the user site is off for the gate and Python's own metadata
// no longer finds it; one from before the session, or a dist-info of
// console scripts only, keeps it on.
func TestUserSitePytestPlugin(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not on PATH")
	}
	for _, c := range []struct {
		name    string
		entries string
		written time.Duration
		off     bool
	}{
		{"a pytest plugin registered during the session", "[pytest11]\nsgfix = sgfix\n", time.Second, true},
		{"honest: a pytest plugin installed before the session", "[pytest11]\nsgfix = sgfix\n", -time.Hour, false},
		{"honest: console scripts installed during the session", "[console_scripts]\nsgfix = sgfix:main\n", time.Second, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			environ := slices.DeleteFunc(os.Environ(), func(kv string) bool {
				return strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "PYTHONNOUSERSITE=") || strings.HasPrefix(kv, "PYTHONUSERBASE=")
			})
			environ = append(environ, "HOME="+home)
			cmd := exec.Command(py, "-c", "import site; print(site.getusersitepackages())")
			cmd.Env = environ
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			site := strings.TrimSpace(string(out))
			meta := filepath.Join(site, "sgfix-1.0.dist-info")
			if err := os.MkdirAll(meta, 0o755); err != nil {
				t.Fatal(err)
			}
			for n, b := range map[string]string{"METADATA": "Metadata-Version: 2.1\nName: sgfix\nVersion: 1.0\n", "entry_points.txt": c.entries, "RECORD": ""} {
				if err := os.WriteFile(filepath.Join(meta, n), []byte(b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(site, "sgfix.py"), []byte("def main(): pass\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			start := time.Now().Add(-c.written)
			env, dropped := gateenv.CleanFor(environ, gateenv.Options{Root: t.TempDir(), Since: start})
			named := slices.ContainsFunc(dropped, func(d string) bool { return strings.HasPrefix(d, "Python's user site") })
			if named != c.off {
				t.Errorf("dropped %q: user site named %v, want %v", dropped, named, c.off)
			}
			cmd = exec.Command(py, "-c", "from importlib.metadata import distributions; print(sorted(d.metadata['Name'] for d in distributions()))")
			cmd.Env = env
			out, err = cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			if found := strings.Contains(string(out), "'sgfix'"); found == c.off {
				t.Errorf("the gate's python finds the plugin: %v, want %v", found, !c.off)
			}
		})
	}
}
