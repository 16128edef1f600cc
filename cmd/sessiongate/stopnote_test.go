package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/stopnote"
)

// startPiped starts cmd with its stdin and stdout as pipes (a helper
// process the test talks to: a lock holder, an MCP server).
func startPiped(t *testing.T, cmd *exec.Cmd) (io.WriteCloser, io.Reader) {
	t.Helper()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return in, out
}

// lockedDB holds the database at db under an exclusive lock from another
// process, as a lazy agent's background shell did, until release is
// called. Returned once the lock is held (the holder says so), no timing.
func lockedDB(t *testing.T, db string) (release func()) {
	t.Helper()
	py := needPython3(t)
	cmd := exec.Command(py, "-c", `import sqlite3,sys
c=sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('BEGIN EXCLUSIVE')
print('locked', flush=True)
sys.stdin.read()`, db)
	in, out := startPiped(t, cmd)
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "locked\n" {
		in.Close()
		cmd.Wait()
		t.Fatalf("lock the database: %q %v", line, err)
	}
	done := false
	release = func() {
		if !done {
			done = true
			in.Close()
			cmd.Wait()
		}
	}
	t.Cleanup(release)
	return release
}

// codexStop runs `sessiongate agent-hook codex Stop` with Codex CLI's
// recorded first-stop payload; its answer does not matter here.
func codexStop(t *testing.T, dir string, env []string) {
	t.Helper()
	cmd := exec.Command(realBinary(t), "agent-hook", "codex", "Stop")
	cmd.Dir = dir
	cmd.Env = sgEnv(env)
	cmd.Stdin = bytes.NewReader(codexPayload(t, "Stop.first", dir, ""))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("agent-hook codex Stop: %v\n%s", err, out)
	}
}

func needPython3(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is required under CI=true (it holds the database lock a lazy agent would)")
		}
		t.Skip("python3 not found: it holds the database lock a lazy agent would")
	}
	return py
}

// skippedCount reads the END_PROTOCOL_SKIPPED violations straight from the
// file (sessiongate itself would fold the note while reading).
func skippedCount(t *testing.T, db string) int {
	t.Helper()
	return sqlCount(t, db, "SELECT count(*) FROM violations WHERE code='END_PROTOCOL_SKIPPED'")
}

// sqlCount runs a count query on the database file (0 when it does not
// exist yet).
func sqlCount(t *testing.T, db, query string) int {
	t.Helper()
	if _, err := os.Stat(db); err != nil {
		return 0
	}
	out, err := exec.Command(needPython3(t), "-c", `import sqlite3,sys
c=sqlite3.connect(sys.argv[1])
print(c.execute(sys.argv[2]).fetchone()[0])`, db, query).CombinedOutput()
	if err != nil {
		t.Fatalf("read the violations: %v %s", err, out)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestUncheckedStopFoldedByEveryEntryPoint: a Codex CLI stop (its recorded
// payload, the real binary) comes while the agent holds the database
// locked: the hook cannot decide, lets the stop through and notes it beside
// the database. Before, only the next agent hook folded that note in: an
// agent that never triggered one (a person ran `session end`, a commit,
// `verify`) lost it. Now every process that opens the database, or would
// (verify, records push), records it as END_PROTOCOL_SKIPPED. The honest
// twin answers without changing anything in its turn while the database is
// locked (a person's tool holding it): nothing is noted, and no entry
// point records anything.
func TestUncheckedStopFoldedByEveryEntryPoint(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: runs the real binary and git hooks")
	}
	entries := []struct {
		name string
		run  func(w *hintWorld)
	}{
		{"session status", func(w *hintWorld) { w.sg("", "session", "status") }},
		{"session end", func(w *hintWorld) { w.sg("", "session", "end", "--summary", "done") }},
		{"session start", func(w *hintWorld) { w.sg("", "session", "start", "--objective", "another") }},
		{"git commit (hooks)", func(w *hintWorld) { w.git("commit", "-q", "--allow-empty", "-m", "chore: empty") }},
		{"verify", func(w *hintWorld) { w.sg("", "verify") }},
	}
	for _, e := range entries {
		for _, honest := range []bool{false, true} {
			name := e.name + map[bool]string{false: "/work then stop", true: "/honest: stop without work"}[honest]
			t.Run(name, func(t *testing.T) {
				w := newHintWorld(t, "")
				db := filepath.Join(w.dir, ".git", "sessiongate", "sessiongate.db")
				bindCodexConversation(t, w, db)
				if !honest {
					writeHintFile(t, w.dir, "work.txt", "work\n")
				}
				release := lockedDB(t, db)
				codexStop(t, w.dir, w.env)
				release()
				// The honest stop changed nothing in its turn: the hook
				// allows it without the database and notes nothing.
				if stopnote.Pending(db) == honest {
					t.Fatalf("honest=%v: a note beside the database is %v", honest, stopnote.Pending(db))
				}
				e.run(w)
				if stopnote.Pending(db) {
					t.Errorf("%s left the note of the unchecked stop unread", e.name)
				}
				want := map[bool]int{false: 1, true: 0}[honest]
				if got := skippedCount(t, db); got != want {
					t.Errorf("after %s: %d END_PROTOCOL_SKIPPED, want %d", e.name, got, want)
				}
			})
		}
	}
}
