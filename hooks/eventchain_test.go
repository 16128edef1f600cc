package hooks_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/recordref"
	sgsnap "github.com/sessiongate/sessiongate/snapshot"
	"github.com/sessiongate/sessiongate/store"
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
				if res.code == 0 || !strings.Contains(res.out+res.err, "events were rewritten after") {
					t.Fatalf("commit after the tamper (first commit %s): exit %d, want blocked\n%s%s", first[:12], res.code, res.out, res.err)
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

// TestRewrittenEventsThenHistoryRewritten: the pre-commit check used to
// look for the pinned chain only among the commits HEAD reaches, so an
// agent rewrote an event, moved HEAD back past the commit that pinned it
// (reset --soft, amend, checkout -B, rebase) and committed again: the new
// commit carried a chain over the rewritten events. The post-commit hook
// now also pins the chain on the records ref (pins/, out of HEAD's
// reach): the commit is blocked, and verify in CI fails the session from
// the pin's history though the pinned commit is not in the range. The
// honest rows rewrite their own commits the same ways and stay clean.
func TestRewrittenEventsThenHistoryRewritten(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is needed under CI=true")
		}
		t.Skip("python3 not installed: the tamper scripts need it")
	}
	const rewrite = "UPDATE events SET token = token || 'x' WHERE seq = 2"
	for _, tc := range []struct {
		name, sql string   // "" for an honest session
		move      []string // the git command that drops the pinned commit from HEAD
		amend     bool     // the second commit is git commit --amend
	}{
		{"honest reset --soft", "", []string{"reset", "-q", "--soft", "HEAD~1"}, false},
		{"honest amend", "", nil, true},
		{"honest checkout -B", "", []string{"checkout", "-q", "-B", "agent2", "main"}, false},
		{"honest rebase onto main", "", []string{"rebase", "-q", "main"}, false},
		{"rewritten then reset --soft", rewrite, []string{"reset", "-q", "--soft", "HEAD~1"}, false},
		{"rewritten then amend", rewrite, nil, true},
		{"rewritten then checkout -B", rewrite, []string{"checkout", "-q", "-B", "agent2", "main"}, false},
		{"rewritten, reset, reflog expired", rewrite, []string{"reset", "-q", "--soft", "HEAD~1"}, false},
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
			if tc.sql != "" {
				script := filepath.Join(t.TempDir(), "forge.py")
				writeFile(t, script, "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\ndb.execute(sys.argv[2])\ndb.commit()\n")
				db := filepath.Join(r.root, ".git", "sessiongate", "sessiongate.db")
				if res := r.run(r.root, nil, "python3", script, db, tc.sql); res.code != 0 {
					t.Fatalf("tamper: %s", res.err)
				}
			}
			if tc.move != nil {
				if res := r.run(r.root, nil, "git", tc.move...); res.code != 0 {
					t.Fatalf("git %v: %s%s", tc.move, res.out, res.err)
				}
			}
			if strings.Contains(tc.name, "reflog expired") {
				r.git("reflog", "expire", "--expire=now", "--all")
			}
			writeFile(t, filepath.Join(r.root, "b.txt"), "b\n")
			r.git("add", "b.txt")
			args := []string{"-q", "-m", "second"}
			if tc.amend {
				args = append(args, "--amend")
			}
			res := r.commit(r.root, nil, args...)
			if tc.sql == "" {
				if res.code != 0 {
					t.Fatalf("honest second commit blocked: %s%s", res.out, res.err)
				}
				if codes := violationCodes(t, r); len(codes) > 0 {
					t.Fatalf("honest session got violations %v", codes)
				}
			} else {
				if res.code == 0 || !strings.Contains(res.out+res.err, "events were rewritten after") {
					t.Fatalf("commit after the tamper and %v (first commit %s): exit %d, want blocked\n%s%s", tc.move, first[:12], res.code, res.out, res.err)
				}
				if codes := violationCodes(t, r); !strings.Contains(strings.Join(codes, ","), "EVENTS_REWRITTEN") {
					t.Fatalf("violations %v, want EVENTS_REWRITTEN", codes)
				}
				// The agent goes further: it forges the pin at the ref's tip
				// over the rewritten events (plumbing, as a script could)
				// and commits again; verify in CI still fails the session
				// from the pin's history, though the pinned commit is in no
				// range.
				forgePin(t, r, id)
				if res := r.commit(r.root, nil, "-q", "-m", "second"); res.code != 0 {
					r.commit(r.root, []string{"SESSIONGATE_BYPASS=forged"}, "-q", "-m", "second")
				}
			}
			r.sg(r.root, "session", "evidence", "--session", id, "--phase", "QA_VALIDATION", "--type", "tool_output", "--value", "ok 3 tests")
			r.run(r.root, nil, binary, "session", "end", "--session", id, "--summary", "done")
			head := r.head(r.root)
			v := r.run(r.root, nil, binary, "verify", "main.."+head)
			switch {
			case tc.sql == "" && v.code != 0:
				t.Fatalf("verify of the honest session: exit %d\n%s%s", v.code, v.out, v.err)
			case tc.sql != "" && (v.code != 1 || !strings.Contains(v.out+v.err, "pinned on the records ref")):
				t.Fatalf("verify of the tampered session: exit %d, want 1 naming the rewrite\n%s%s", v.code, v.out, v.err)
			}
		})
	}
}

// forgePin writes a pin over the database's events as they are now onto
// the records ref's tip, as an agent with a shell could.
func forgePin(t *testing.T, r *repo, id string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(r.root, ".git", "sessiongate", "sessiongate.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	evs, err := db.ListEvents(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	refs := make([]sgsnap.EventRef, len(evs))
	for i, ev := range evs {
		refs[i] = sgsnap.EventRef{Seq: ev.Seq, Token: ev.Token, At: ev.CreatedAt.UTC().Format(time.RFC3339Nano)}
	}
	c, ok := sgsnap.EventChain(refs, len(refs))
	if !ok {
		t.Fatal("no chain over the database's events")
	}
	tree := strings.TrimSpace(r.git("write-tree"))
	if _, err := recordref.PutPin(ctx, r.root, recordsRef, sgsnap.EventPin{SessionID: id, Tree: tree, Events: c}); err != nil {
		t.Fatal(err)
	}
}
