package session_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// forgeWithPython writes the session database as a lazy agent with a shell
// would: python's sqlite3 module, no sessiongate, no sqlite3 binary.
func forgeWithPython(t *testing.T, dbPath, script string, args ...string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 not on PATH under CI=true")
		}
		t.Skip("python3 not on PATH: the real forging route needs it")
	}
	code := "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n" + script + "\nc.commit()\n"
	out, err := exec.Command(py, append([]string{"-c", code, dbPath}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
}

// TestEndAuditsPhasesBehindThePosition (issue 25.7 route 4): an agent
// that moves its session past the start protocol, or marks a start phase
// PASSED, by writing the database does not end COMPLETE on it: the end
// re-derives every phase behind the position from the gate events, flags
// the one with no gate behind it (UNGATED_PHASE) and runs its gate. An
// honest session ends with no such violation.
func TestEndAuditsPhasesBehindThePosition(t *testing.T) {
	const skipTo = "c.execute(\"update sessions set state='WORKING', phase='' where id=?\", (sys.argv[2],))\n" +
		"c.execute(\"insert or replace into phase_results (session_id, phase_id, status, level) values (?, 'CONTEXT_RETRIEVAL', 'PASSED', 'BLOCKING')\", (sys.argv[2],))\n"
	// forgeGate inserts a gate:CONTEXT_RETRIEVAL:pass event after the
	// session's last, dated like it, with detail (an SQL expression that
	// may name the session id as its one parameter).
	forgeGate := func(detail string) string {
		params := "(sys.argv[2], sys.argv[2], sys.argv[2])"
		if strings.Contains(detail, "?") {
			params = "(sys.argv[2], sys.argv[2], sys.argv[2], sys.argv[2])"
		}
		return "c.execute(\"insert into events (session_id, seq, token, detail, created_at) values (?, " +
			"(select max(seq)+1 from events where session_id=?), 'gate:CONTEXT_RETRIEVAL:pass', " + detail + ", " +
			"(select max(created_at) from events where session_id=?))\", " + params + ")"
	}
	cases := []struct {
		name      string
		evidence  bool   // the start phase's evidence is recorded
		forge     string // python run on the database ("" for an honest session)
		ended     bool
		violation bool
	}{
		{"honest", true, "", true, false},
		{"start protocol skipped by an UPDATE", false,
			"c.execute(\"update sessions set state='WORKING', phase='' where id=?\", (sys.argv[2],))", false, true},
		{"start phase marked PASSED with no gate", false,
			"c.execute(\"update sessions set state='WORKING', phase='' where id=?\", (sys.argv[2],))\n" +
				"c.execute(\"insert or replace into phase_results (session_id, phase_id, status, level) values (?, 'CONTEXT_RETRIEVAL', 'PASSED', 'BLOCKING')\", (sys.argv[2],))", false, true},
		{"skipped with the evidence there: passes now, still flagged", true,
			"c.execute(\"update sessions set state='WORKING', phase='' where id=?\", (sys.argv[2],))", true, true},
		// Issue 25 route 3: the gate event forged too, as a row python
		// inserts, or with the seal of a real gate event of the session
		// copied onto it: unsealed either way, so still flagged and gated.
		{"gate event inserted", false, skipTo + forgeGate("''"), false, true},
		{"gate event inserted with a real event's seal copied", false,
			skipTo + forgeGate("(select detail from events where session_id=? and token like 'gate:%' order by seq desc limit 1)"), false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, earlyProtocol)
			gittest.Write(t, e.root, "test.sh", "#!/bin/sh\necho 'ok 3 tests'\n")
			if err := os.Chmod(filepath.Join(e.root, "test.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, e.root, "add", "test.sh")
			gittest.Git(t, e.root, "commit", "-q", "-m", "test: the test script")
			id := e.start(c.name)
			if c.evidence {
				e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: build with make")
			}
			if c.forge == "" {
				e.advance(id) // WORKING, through the gate
			} else {
				if !c.evidence {
					// A real gate of the phase that fails: a sealed event to copy.
					if _, err := e.engine.ValidateGate(ctx, id, "CONTEXT_RETRIEVAL"); err != nil {
						t.Fatal(err)
					}
				}
				forgeWithPython(t, e.db.Path(), c.forge, id)
			}
			e.advance(id) // QA_VALIDATION
			if _, err := e.engine.Run(ctx, session.RunRequest{ID: id, Phase: "QA_VALIDATION", Argv: []string{"./test.sh"}}); err != nil {
				t.Fatal(err)
			}
			res, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "did the work"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Ended != c.ended {
				t.Fatalf("ended %v, want %v (blocked: %+v)", res.Ended, c.ended, res.Blocked)
			}
			if !c.ended && (res.Blocked == nil || res.Blocked.Phase != "CONTEXT_RETRIEVAL") {
				t.Fatalf("blocked by %+v, want CONTEXT_RETRIEVAL", res.Blocked)
			}
			vs, err := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id})
			if err != nil {
				t.Fatal(err)
			}
			flagged := false
			for _, v := range vs {
				if v.Code == session.CodeUngatedPhase && v.Phase == "CONTEXT_RETRIEVAL" && strings.Contains(v.Message, "written by hand") {
					flagged = true
				}
			}
			if flagged != c.violation {
				t.Fatalf("UNGATED_PHASE flagged %v, want %v: %+v", flagged, c.violation, vs)
			}
			if c.ended {
				rs, err := e.db.PhaseResults(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range rs {
					if r.PhaseID == "CONTEXT_RETRIEVAL" && r.Status != session.PhasePassed {
						t.Fatalf("CONTEXT_RETRIEVAL recorded %s, want the re-derived PASSED", r.Status)
					}
				}
			}
		})
	}
}
