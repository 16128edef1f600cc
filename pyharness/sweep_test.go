package pyharness

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/filelock"
)

// A child that makes a harness, says where, and waits to be killed.
func init() {
	if os.Getenv("SESSIONGATE_PYHARNESS_HOLD") != "1" {
		return
	}
	h, err := New(".")
	if err != nil {
		os.Stdout.WriteString("error " + err.Error() + "\n")
		os.Exit(2)
	}
	os.Stdout.WriteString(h.dir + "\n")
	time.Sleep(time.Hour) // (a bare select{} is a deadlock the runtime ends)
}

// TestSweep: a harness whose process was killed (no deferred Close ran)
// is removed by the next process's first New; a live one, a folder
// without a lock file (not ours, or an older version's) and a symlink
// are left alone.
func TestSweep(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)

	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), "SESSIONGATE_PYHARNESS_HOLD=1")
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	killed := strings.TrimSpace(line)
	if !strings.HasPrefix(filepath.Base(killed), prefix) || filepath.Dir(killed) != tmp {
		t.Fatalf("child: %s", line)
	}

	live, err := New(".")
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	foreign := filepath.Join(tmp, prefix+"foreign")
	if err := os.MkdirAll(filepath.Join(foreign, "report"), 0o700); err != nil {
		t.Fatal(err)
	}
	target := t.TempDir()
	if err := os.WriteFile(filepath.Join(target, heldName), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, prefix+"link")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks here:", err)
	}

	sweep(tmp) // the child still runs: its folder is held
	for _, d := range []string{killed, live.dir, foreign, link, target} {
		if _, err := os.Lstat(d); err != nil {
			t.Fatalf("swept while its owner lives, or not ours: %v", err)
		}
	}
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	sweep(tmp)
	if _, err := os.Lstat(killed); !os.IsNotExist(err) {
		t.Errorf("the killed process's harness is still there (%v)", err)
	}
	for _, d := range []string{live.dir, foreign, link, filepath.Join(target, heldName)} {
		if _, err := os.Lstat(d); err != nil {
			t.Errorf("swept what it must leave: %v", err)
		}
	}
	live.Close()
	if _, err := os.Lstat(live.dir); !os.IsNotExist(err) {
		t.Errorf("Close left %s (%v)", live.dir, err)
	}
}

// TestSweepHalfMade: a hook killed inside New, before the rename, leaves
// a "."+prefix folder; the next sweep removes it once a minute old and
// holding nothing but an unlocked "held". A fresh one (its New may be
// running), a locked one and one holding more are left alone.
func TestSweepHalfMade(t *testing.T) {
	tmp := t.TempDir()
	old := time.Now().Add(-2 * time.Minute)
	mk := func(name string, files ...string) string {
		d := filepath.Join(tmp, "."+prefix+name)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(d, f), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	empty, unlocked, fresh, more, locked := mk("empty"), mk("unlocked", heldName), mk("fresh", heldName), mk("more", heldName, "other"), mk("locked", heldName)
	f, err := os.OpenFile(filepath.Join(locked, heldName), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ok, err := filelock.TryLock(f); err != nil || !ok {
		t.Skipf("no lock here: %v %v", ok, err)
	}
	for _, d := range []string{empty, unlocked, more, locked} {
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
	}
	sweep(tmp)
	for _, d := range []string{empty, unlocked} {
		if _, err := os.Lstat(d); !os.IsNotExist(err) {
			t.Errorf("half-made %s is still there (%v)", filepath.Base(d), err)
		}
	}
	for _, d := range []string{fresh, more, locked} {
		if _, err := os.Lstat(d); err != nil {
			t.Errorf("swept %s, which it must leave: %v", filepath.Base(d), err)
		}
	}
}
