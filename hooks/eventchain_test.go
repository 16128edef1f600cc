package hooks_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRewrittenEventsAfterCommit: the gate events are sealed with a key the
// agent's user can read, so a script could rewrite the session's events
// (and seal them again) between two hooks. Each commit now carries the
// chain head of the events so far (Session-Events); the next pre-commit
// blocks when the database's events before it differ (rewritten, deleted,
// or one back-dated to before it), and verify in CI fails the commit from
// the record. Each tamper is made with the real python3 sqlite3 module on
// the real database; the honest session commits twice and verifies clean.
func TestRewrittenEventsAfterCommit(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is needed under CI=true")
		}
		t.Skip("python3 not installed: the tamper scripts need it")
	}
	trailer := regexp.MustCompile(`(?m)^Session-Events: (\d+):[0-9a-f]{64}$`)
	for _, tc := range []struct {
		name, sql string // "" for the honest session
	}{
		{"honest", ""},
		{"gate event rewritten", "UPDATE events SET token = token || 'x' WHERE seq = 2"},
		{"event deleted", "DELETE FROM events WHERE seq = 3"},
		{"event back-dated", "INSERT INTO events (session_id, seq, token, detail, created_at) SELECT session_id, (SELECT max(seq) FROM events) + 1, 'gate:CONTEXT_RETRIEVAL:pass', '', min(created_at) - 3600000000000 FROM events"},
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
			first := r.head(r.root)
			m := trailer.FindStringSubmatch(r.git("log", "-1", "--format=%B"))
			if m == nil {
				t.Fatalf("the session's commit has no Session-Events trailer:\n%s", r.git("log", "-1", "--format=%B"))
			}
			if tc.sql != "" {
				script := filepath.Join(t.TempDir(), "forge.py")
				writeFile(t, script, "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\ndb.execute(sys.argv[2])\ndb.commit()\n")
				db := filepath.Join(r.root, ".git", "sessiongate", "sessiongate.db")
				if res := r.run(r.root, nil, "python3", script, db, tc.sql); res.code != 0 {
					t.Fatalf("tamper: %s", res.err)
				}
			}
			writeFile(t, filepath.Join(r.root, "b.txt"), "b\n")
			r.git("add", "b.txt")
			res := r.commit(r.root, nil, "-q", "-m", "second")
			if tc.sql == "" {
				if res.code != 0 {
					t.Fatalf("honest second commit blocked: %s%s", res.out, res.err)
				}
				m2 := trailer.FindStringSubmatch(r.git("log", "-1", "--format=%B"))
				if n1, _ := strconv.Atoi(m[1]); m2 == nil || atoi(m2[1]) <= n1 {
					t.Fatalf("second commit's Session-Events %v does not extend the first's %v", m2, m)
				}
			} else {
				if res.code == 0 || !strings.Contains(res.out+res.err, "rewritten after commit "+first[:12]) {
					t.Fatalf("commit after the tamper: exit %d, want blocked naming %s\n%s%s", res.code, first[:12], res.out, res.err)
				}
				if codes := violationCodes(t, r); !strings.Contains(strings.Join(codes, ","), "EVENTS_REWRITTEN") {
					t.Fatalf("violations %v, want EVENTS_REWRITTEN", codes)
				}
			}
			// The session ends; verify in a clone reads the record on the ref.
			r.sg(r.root, "session", "evidence", "--session", id, "--phase", "QA_VALIDATION", "--type", "tool_output", "--value", "ok 3 tests")
			r.run(r.root, nil, binary, "session", "end", "--session", id, "--summary", "done")
			v := r.run(r.root, nil, binary, "verify", "main.."+first)
			switch {
			case tc.sql == "" && v.code != 0:
				t.Fatalf("verify of the honest session: exit %d\n%s%s", v.code, v.out, v.err)
			case tc.sql != "" && (v.code != 1 || !strings.Contains(v.out+v.err, "EVENTS_REWRITTEN") && !strings.Contains(v.out+v.err, "rewritten after this commit")):
				t.Fatalf("verify of the tampered session: exit %d, want 1 naming the rewrite\n%s%s", v.code, v.out, v.err)
			}
		})
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
