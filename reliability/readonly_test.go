//go:build unix

package reliability

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadOnlyDatabase: a user who may only read the database can list and
// show sessions; a write says the file is read-only and changes nothing.
// Run as root (CI), it reads as the unprivileged user "nobody" through
// runuser; otherwise it makes the file and its folder read-only.
func TestReadOnlyDatabase(t *testing.T) {
	r := newRepo(t)
	id := startedRE.FindStringSubmatch(r.run(t, binary, "session", "start", "--objective", "read only"))[1]
	// Not under t.TempDir(): its parents are 0700, and "nobody" must reach the file.
	dir, err := os.MkdirTemp("", "sessiongate-ro-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o755); os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "sg.db")
	b, err := os.ReadFile(r.db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// The database under test may still have its -wal; checkpointed copies
	// are what a user would have, so copy it too.
	if w, err := os.ReadFile(r.db + "-wal"); err == nil {
		_ = os.WriteFile(db+"-wal", w, 0o644)
	}
	run := func(args ...string) (string, int) {
		var cmd *exec.Cmd
		if os.Geteuid() == 0 {
			runuser, err := exec.LookPath("runuser")
			if err != nil {
				t.Skip("running as root without runuser: cannot read as another user")
			}
			cmd = exec.Command(runuser, append([]string{"-u", "nobody", "--", binary, "--db", db}, args...)...)
		} else {
			cmd = exec.Command(binary, append([]string{"--db", db}, args...)...)
		}
		cmd.Dir = os.TempDir()
		out, _ := cmd.CombinedOutput()
		return string(out), cmd.ProcessState.ExitCode()
	}
	if os.Geteuid() != 0 {
		for _, p := range []string{db, db + "-wal"} {
			_ = os.Chmod(p, 0o444)
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
	}
	if out, code := run("session", "list"); code != 0 || !strings.Contains(out, id) {
		t.Fatalf("session list on a read-only database: exit %d\n%s", code, out)
	}
	if out, code := run("session", "show", id); code != 0 || !strings.Contains(out, "read only") {
		t.Fatalf("session show: exit %d\n%s", code, out)
	}
	out, code := run("session", "terminate", id, "--reason", "x")
	if code != 2 || !strings.Contains(out, "read-only") || !strings.Contains(out, db) {
		t.Fatalf("terminate on a read-only database: exit %d\n%s", code, out)
	}
	if out, _ := run("session", "show", id); !strings.Contains(out, "INIT") {
		t.Fatalf("the refused write changed the session:\n%s", out)
	}
}
