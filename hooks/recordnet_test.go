package hooks_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tamperEvents rewrites the session database with the real python3
// sqlite3 module, as an agent's script could.
func tamperEvents(t *testing.T, r *repo, sql string) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is needed under CI=true")
		}
		t.Skip("python3 not installed: the tamper scripts need it")
	}
	script := filepath.Join(t.TempDir(), "forge.py")
	writeFile(t, script, "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\ndb.execute(sys.argv[2])\ndb.commit()\n")
	db := filepath.Join(r.root, ".git", "sessiongate", "sessiongate.db")
	if res := r.run(r.root, nil, "python3", script, db, sql); res.code != 0 {
		t.Fatalf("tamper: %s", res.err)
	}
}

// TestForgedTipPinLocally: the pre-commit compared the database with the
// pin at the records ref's tip alone, so an agent that rewrote an event
// and then wrote a pin over the rewritten events at the tip (plumbing)
// committed again before anything was pushed: only verify in CI, from the
// pin's history, would have caught it. HEAD's own commit still holds what
// the events were (its Session-Events trailer, and the records commit it
// names in Session-Pin, whose pin the agent cannot change): the commit is
// now blocked. The honest rows commit again after the ref moved on
// (records written between) and stay clean.
func TestForgedTipPinLocally(t *testing.T) {
	const rewrite = "UPDATE events SET token = token || 'x' WHERE seq = 2"
	for _, tc := range []struct {
		name   string
		sql    string // "" for the honest session
		forges int    // forged pins written at the tip
	}{
		{"honest", "", 0},
		{"honest, records written between", "", 0},
		{"rewritten, one forged tip pin", rewrite, 1},
		{"rewritten, two forged tip pins", rewrite, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig+"session_record: "+recordsRef+"\n")
			r.git("commit", "-q", "-am", "records on a ref")
			r.sg(r.root, "install")
			r.git("checkout", "-q", "-b", "agent")
			id := r.startWorking(r.root)
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			if res := r.commit(r.root, nil, "-q", "-m", "first"); res.code != 0 {
				t.Fatalf("first commit: %s", res.err)
			}
			if strings.Contains(tc.name, "records written between") {
				// A second pin moves the ref past the pinned commit.
				writeFile(t, filepath.Join(r.root, "c.txt"), "c\n")
				r.git("add", "c.txt")
				if res := r.commit(r.root, nil, "-q", "-m", "between"); res.code != 0 {
					t.Fatalf("commit between: %s", res.err)
				}
				r.git("reset", "-q", "--soft", "HEAD~1")
			}
			if tc.sql != "" {
				tamperEvents(t, r, tc.sql)
			}
			for range tc.forges {
				forgePin(t, r, id)
			}
			writeFile(t, filepath.Join(r.root, "b.txt"), "b\n")
			r.git("add", "b.txt")
			res := r.commit(r.root, nil, "-q", "-m", "second")
			switch {
			case tc.sql == "" && res.code != 0:
				t.Fatalf("honest second commit blocked: %s%s", res.out, res.err)
			case tc.sql == "":
				if codes := violationCodes(t, r); len(codes) > 0 {
					t.Fatalf("honest session got violations %v", codes)
				}
			case res.code == 0 || !strings.Contains(res.out+res.err, "events were rewritten after"):
				t.Fatalf("commit after the rewrite and %d forged tip pins: exit %d, want blocked\n%s%s", tc.forges, res.code, res.out, res.err)
			}
		})
	}
}

// TestRecordsRefRewound: before the first push the records ref is local,
// so an agent could move it back (git update-ref to an older records
// commit, or delete it) and lose what was written since: pins and
// violations. Nothing noticed: the next commit passed and verify read the
// shorter ref. Each commit of a session now names the records commit its
// pre-commit left (Session-Pin): the next pre-commit blocks when the ref
// no longer holds it (RECORDS_REWOUND), and verify fails a commit whose
// Session-Pin the ref does not hold. The honest rows move the ref only
// forwards (records written, a second session) and stay clean.
func TestRecordsRefRewound(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rewind func(r *repo, older string)
	}{
		{"honest", nil},
		{"honest, second session between", nil},
		{"ref rewound to an older pin", func(r *repo, older string) { r.git("update-ref", recordsRef, older) }},
		{"ref deleted", func(r *repo, _ string) { r.git("update-ref", "-d", recordsRef) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig+"session_record: "+recordsRef+"\n")
			r.git("commit", "-q", "-am", "records on a ref")
			r.sg(r.root, "install")
			r.git("checkout", "-q", "-b", "agent")
			id := r.startWorking(r.root)
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			if res := r.commit(r.root, nil, "-q", "-m", "first"); res.code != 0 {
				t.Fatalf("first commit: %s", res.err)
			}
			// The records commit the first commit's pre-commit left; the
			// next commit's pin moves the ref past it.
			older := r.git("rev-parse", recordsRef)
			writeFile(t, filepath.Join(r.root, "a2.txt"), "a2\n")
			r.git("add", "a2.txt")
			if res := r.commit(r.root, nil, "-q", "-m", "first, part two"); res.code != 0 {
				t.Fatalf("second commit: %s", res.err)
			}
			first := r.head(r.root)
			if strings.Contains(tc.name, "second session") {
				other := filepath.Join(t.TempDir(), "wt")
				r.git("worktree", "add", "-q", "-b", "other", other, "main")
				oid := r.startWorking(other)
				writeFile(t, filepath.Join(other, "o.txt"), "o\n")
				r.gitIn(other, "add", "o.txt")
				if res := r.commit(other, []string{"SESSIONGATE_SESSION=" + oid}, "-q", "-m", "other"); res.code != 0 {
					t.Fatalf("other session's commit: %s%s", res.out, res.err)
				}
			}
			if tc.rewind != nil {
				tc.rewind(r, older)
			}
			writeFile(t, filepath.Join(r.root, "b.txt"), "b\n")
			r.git("add", "b.txt")
			res := r.commit(r.root, []string{"SESSIONGATE_SESSION=" + id}, "-q", "-m", "second")
			if tc.rewind == nil {
				if res.code != 0 {
					t.Fatalf("honest second commit blocked: %s%s", res.out, res.err)
				}
				if codes := violationCodes(t, r); len(codes) > 0 {
					t.Fatalf("honest session got violations %v", codes)
				}
			} else {
				if res.code == 0 || !strings.Contains(res.out+res.err, "records ref") || !strings.Contains(res.out+res.err, "RECORDS_REWOUND") {
					t.Fatalf("commit after the ref was rewound: exit %d, want blocked naming RECORDS_REWOUND\n%s%s", res.code, res.out, res.err)
				}
			}
			r.sg(r.root, "session", "evidence", "--session", id, "--phase", "QA_VALIDATION", "--type", "tool_output", "--value", "ok 3 tests")
			r.run(r.root, nil, binary, "session", "end", "--session", id, "--summary", "done")
			v := r.run(r.root, nil, binary, "verify", "main.."+first)
			switch {
			case tc.rewind == nil && v.code != 0:
				t.Fatalf("verify of the honest session: exit %d\n%s%s", v.code, v.out, v.err)
			case tc.rewind != nil && (v.code != 1 || !strings.Contains(v.out+v.err, "Session-Pin")):
				t.Fatalf("verify after the ref was rewound: exit %d, want 1 naming the commit's Session-Pin\n%s%s", v.code, v.out, v.err)
			}
		})
	}
}
