//go:build unix

package gateprog_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gateprog"
)

// TestWhyNotRegular28: a FIFO where a program should be (review c11 item
// 6). Its size is 0, so the `< 4096` checks passed it and reading it hung
// the gate and the observed-run hook on main (each row's timeout). Now a
// FIFO on PATH is no program (lookPath skips it, as the shell cannot run
// it) and one named by path is refused, not judged. Honest twin: the
// pip console script of the same name still passes.
func TestWhyNotRegular28(t *testing.T) {
	for _, c := range []struct {
		name  string
		after func(t *testing.T, root, bin string)
		line  string
		want  string // "" honest
	}{
		{name: "lazy: mkfifo -m 755 node_modules/.bin/jest",
			after: func(t *testing.T, root, bin string) { fifo(t, filepath.Join(root, "node_modules", ".bin", "jest")) },
			line:  "node_modules/.bin/jest --ci", want: "is a FIFO, not a program file: not judged here"},
		{name: "lazy: a FIFO with an x bit first on PATH",
			after: func(t *testing.T, root, bin string) {
				fifo(t, filepath.Join(bin, "pytest"))
				// What the shell runs instead: the next pytest on PATH,
				// written after the start (judged, refused).
				write(t, filepath.Join(root, "later", "pytest"), "#!/bin/sh\nexit 0\n", 0o755)
			},
			line: "pytest -q", want: "pytest changed after the session started"},
		{name: "honest: pip's console script of the name on PATH, written in the session",
			after: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "pytest"), sprintf(pipScript, "/usr/bin/python3"), 0o755)
			},
			line: "pytest -q"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, bin := t.TempDir(), t.TempDir()
			env := []string{"PATH=" + bin + string(os.PathListSeparator) + filepath.Join(root, "later")}
			st := gateprog.Record(env, []string{c.line})
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			c.after(t, root, bin)
			done := make(chan string, 1)
			go func() { done <- gateprog.Why(c.line, env, root, st, since) }()
			var got string
			select {
			case got = <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("Why(%q) hung on a FIFO", c.line)
			}
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("Why(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}

// fifo makes an executable FIFO at p, and lets a reader stuck opening it
// go when the test ends.
func fifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o755); err != nil {
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

// TestWhyPackageFileFIFO: a package file its RECORD lists replaced by a
// FIFO after the start. The RECORD check read it unbounded and hung the
// gate (found at round 28's merge, c1's bounded reads beside c5's package
// rule); now it is refused as not judged. The honest twin is
// TestWhyPackages' "nothing changed".
func TestWhyPackageFileFIFO(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import venv, pytest, pip").Run(); err != nil {
		t.Skipf("%s with venv, pip and pytest not found: %v", py, err)
	}
	whl := pytestWheel(t, py)
	root := t.TempDir()
	run(t, root, nil, py, "-m", "venv", "--system-site-packages", "--without-pip", ".venv")
	pipInstall(t, root, py, whl)
	site, _ := filepath.Glob(filepath.Join(root, ".venv", "lib", "python3*", "site-packages"))
	if len(site) != 1 {
		t.Fatalf("site-packages: %q", site)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	st := gateprog.Record(env, nil)
	time.Sleep(20 * time.Millisecond)
	since := time.Now()
	time.Sleep(20 * time.Millisecond)
	main := filepath.Join(site[0], "_pytest", "main.py")
	if err := os.Remove(main); err != nil {
		t.Fatal(err)
	}
	fifo(t, main)
	done := make(chan string, 1)
	go func() { done <- gateprog.Why(".venv/bin/pytest -q tests", env, root, st, since) }()
	select {
	case got := <-done:
		if !strings.Contains(got, "main.py changed after the session started and is not judged here") {
			t.Errorf("Why = %q, want the FIFO refused", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Why hung on a FIFO package file")
	}
}
