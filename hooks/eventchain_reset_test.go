package hooks_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRewrittenEventsThenReset: the events are rewritten after the first
// commit, then `git reset --soft HEAD~1` drops that commit (and its
// Session-Events trailer) from HEAD's history before the next commit.
func TestRewrittenEventsThenReset(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is needed under CI=true")
		}
		t.Skip("python3 not installed: the tamper script needs it")
	}
	r := newRepo(t)
	writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig+"session_record: "+recordsRef+"\n")
	r.git("commit", "-q", "-am", "records on a ref")
	r.sg(r.root, "install")
	r.git("checkout", "-q", "-b", "agent")
	r.startWorking(r.root)
	writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
	r.git("add", "a.txt")
	if res := r.commit(r.root, nil, "-q", "-m", "first"); res.code != 0 {
		t.Fatalf("first commit: %s", res.err)
	}
	script := filepath.Join(t.TempDir(), "forge.py")
	writeFile(t, script, "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\ndb.execute(sys.argv[2])\ndb.commit()\n")
	db := filepath.Join(r.root, ".git", "sessiongate", "sessiongate.db")
	if res := r.run(r.root, nil, "python3", script, db, "UPDATE events SET token = token || 'x' WHERE seq = 2"); res.code != 0 {
		t.Fatalf("tamper: %s", res.err)
	}
	r.git("reset", "-q", "--soft", "HEAD~1")
	writeFile(t, filepath.Join(r.root, "b.txt"), "b\n")
	r.git("add", "b.txt")
	if res := r.commit(r.root, nil, "-q", "-m", "second"); res.code == 0 {
		t.Errorf("commit after a tamper and a reset past the pinned commit passed:\n%s", r.git("log", "-1", "--format=%B"))
	}
}
