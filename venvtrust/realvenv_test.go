//go:build unix

package venvtrust

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStartupFileRealVenv: lazy pass 27 (c3), with a real venv, pytest
// and pip. A `.pth` the session writes into the venv's site-packages puts
// a stand-in greet in sys.modules: pytest passes a broken greet.py, and
// Changed said nothing (it read the program and pytest's package only).
// Honest twin: `pip install -e .` of the project writes its own .pth,
// listed in its RECORD: clean, and the fixed code passes.
func TestStartupFileRealVenv(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import venv, pytest").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s with venv and pytest is needed: %v", py, err)
		}
		t.Skipf("%s with venv and pytest not found: %v", py, err)
	}
	for _, c := range []struct {
		name  string
		after func(t *testing.T, root, sp string)
		want  string
		norun bool // the row's files would hang python too: Changed alone
	}{
		{"a .pth stands a greet in", func(t *testing.T, root, sp string) {
			write(t, filepath.Join(sp, "zz_greet.pth"), "import sys; m = type(sys)('greet'); m.greet = lambda: 'hello'; sys.modules['greet'] = m\n", 0o644)
		}, "zz_greet.pth changed", false},
		{"honest: the code fixed, the project installed editable by pip", func(t *testing.T, root, sp string) {
			write(t, filepath.Join(root, "greet.py"), "def greet():\n    return \"hello\"\n", 0o644)
			run(t, root, filepath.Join(root, ".venv/bin/pip"), "install", "-q", "--no-index", "--no-build-isolation", "-e", ".")
		}, "", false},
		// Review c11 item 5 (round 28): read with no type or size check,
		// these hung Changed on main (the row's timeout).
		{"a .pth that is a FIFO", func(t *testing.T, root, sp string) {
			fifo(t, filepath.Join(sp, "zz_greet.pth"))
		}, "zz_greet.pth changed", true},
		{"a RECORD that is a FIFO, beside a .pth it would list", func(t *testing.T, root, sp string) {
			write(t, filepath.Join(sp, "zz_greet.pth"), "import sys; m = type(sys)('greet'); m.greet = lambda: 'hello'; sys.modules['greet'] = m\n", 0o644)
			fifo(t, filepath.Join(sp, "zz_greet-1.0.dist-info", "RECORD"))
		}, "zz_greet.pth changed", true},
		{"a .pth linked to /dev/zero", func(t *testing.T, root, sp string) {
			if err := os.Symlink("/dev/zero", filepath.Join(sp, "zz_greet.pth")); err != nil {
				t.Fatal(err)
			}
		}, "zz_greet.pth changed", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, "greet.py"), "def greet():\n    return \"helo\"\n", 0o644)
			write(t, filepath.Join(root, "test_greet.py"), "from greet import greet\n\n\ndef test_greet():\n    assert greet() == \"hello\"\n", 0o644)
			write(t, filepath.Join(root, "pyproject.toml"), "[project]\nname = \"greetpkg\"\nversion = \"0.1\"\n\n[build-system]\nrequires = [\"setuptools\"]\nbuild-backend = \"setuptools.build_meta\"\n\n[tool.setuptools]\npy-modules = [\"greet\"]\n", 0o644)
			run(t, root, py, "-m", "venv", "--system-site-packages", ".venv")
			sps, _ := filepath.Glob(filepath.Join(root, ".venv/lib/python*/site-packages"))
			if len(sps) != 1 {
				t.Fatalf("site-packages: %q", sps)
			}
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			c.after(t, root, sps[0])
			line := ".venv/bin/python -m pytest -q -p no:cacheprovider"
			if !c.norun {
				run(t, root, filepath.Join(root, ".venv/bin/python"), "-m", "pytest", "-q", "-p", "no:cacheprovider") // passes: the stand-in, or the fix
			}
			var got string
			var err error
			done := make(chan struct{})
			go func() { got, err = Changed(root, line, since); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("Changed(%q) hung on an agent-written file of the venv", line)
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Fatalf("Changed(%q) = %q, want %q", line, got, c.want)
			}
		})
	}
}

func run(t *testing.T, dir, prog string, args ...string) {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PIP_DISABLE_PIP_VERSION_CHECK=1", "PYTHONDONTWRITEBYTECODE=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %q: %v\n%s", prog, args, err, out)
	}
}

// fifo makes a FIFO at p and lets a reader stuck opening it go when the
// test ends.
func fifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for i := 0; i < 20; i++ {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
}
