package session_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestSnapshotIDIndependentOfPathsAndTimes: the same session state built
// in two processes, in two databases, for repositories at different paths,
// written at different times, gives the same snapshot id; a different state
// does not.
func TestSnapshotIDIndependentOfPathsAndTimes(t *testing.T) {
	const id = "0b6f1c1e-3a7d-4b5e-9f00-1c2d3e4f5a6b"
	build := func(when time.Time, kind string) string {
		e := newEnv(t, flowProtocol) // a new repository under a new temp path each time
		ctx := context.Background()
		err := e.db.Update(ctx, func(w session.Writer) error {
			repo, err := w.EnsureRepository(ctx, e.root, "demo")
			if err != nil {
				return err
			}
			s := &session.Session{ID: id, RepoID: repo.ID, Worktree: e.root, Branch: "main", ProtocolSHA: e.spec.SHA256,
				Objective: "same", State: session.StateWorking, CreatedAt: when, LastActivity: when, ExpiresAt: when.Add(time.Hour)}
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
			if err := w.AddEvidence(ctx, &session.Evidence{SessionID: id, Phase: "CONTEXT_RETRIEVAL", Kind: kind, SHA256: "ab12", Ref: "4 bytes", CreatedAt: when}); err != nil {
				return err
			}
			return w.PutPhaseResult(ctx, session.PhaseResult{SessionID: id, PhaseID: "CONTEXT_RETRIEVAL", Status: session.PhasePassed, Level: "BLOCKING", StartedAt: when, EndedAt: when})
		})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := e.engine.Record(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return rec.Envelope.Snapshot.StateSnapshotID
	}
	if os.Getenv("SG_SNAPSHOT_CHILD") != "" {
		// Child process: build in a fresh temp dir at the given time, print the id.
		var when time.Time
		if err := when.UnmarshalText([]byte(os.Getenv("SG_SNAPSHOT_TIME"))); err != nil {
			t.Fatal(err)
		}
		fmt.Println("ID=" + build(when, os.Getenv("SG_SNAPSHOT_KIND")))
		return
	}
	// Two separate processes, different temp paths, different times.
	child := func(when time.Time, kind string) string {
		ts, _ := when.MarshalText()
		cmd := exec.Command(os.Args[0], "-test.run=^TestSnapshotIDIndependentOfPathsAndTimes$", "-test.count=1")
		cmd.Env = append(os.Environ(), "SG_SNAPSHOT_CHILD=1", "SG_SNAPSHOT_TIME="+string(ts), "SG_SNAPSHOT_KIND="+kind, "TMPDIR="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(line, "ID=") {
				return strings.TrimPrefix(line, "ID=")
			}
		}
		t.Fatalf("child printed no id:\n%s", out)
		return ""
	}
	a := child(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), session.EvidenceToolOutput)
	b := child(time.Date(2027, 6, 1, 12, 30, 0, 0, time.FixedZone("X", 3600)), session.EvidenceToolOutput)
	if a != b || a == "" {
		t.Fatalf("same state, different ids: %s vs %s", a, b)
	}
	if c := build(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), session.EvidenceToolOutput); c != a {
		t.Fatalf("this process computed %s, the children %s", c, a)
	}
	if c := build(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), session.EvidenceManual); c == a {
		t.Fatal("a different evidence kind kept the id")
	}
}

// TestRecordNeverWritesOutside: a record path that is a symlink out of the
// repository, or whose folder is one, is never written through.
func TestRecordNeverWritesOutside(t *testing.T) {
	for _, c := range []string{"file symlink", "folder symlink"} {
		t.Run(c, func(t *testing.T) {
			e := newEnv(t, gateProtocol("<!-- gate: evidence manual -->"))
			e.engine.Config.SessionRecord = ".agents/sessions/{session_id}.json"
			ctx := context.Background()
			id := e.start("escape")
			outside := filepath.Join(t.TempDir(), "victim.txt")
			os.WriteFile(outside, []byte("precious"), 0o644)
			if c == "file symlink" {
				os.MkdirAll(filepath.Join(e.root, ".agents", "sessions"), 0o755)
				if err := os.Symlink(outside, filepath.Join(e.root, ".agents", "sessions", id+".json")); err != nil {
					t.Fatal(err)
				}
			} else {
				if err := os.Symlink(filepath.Dir(outside), filepath.Join(e.root, ".agents")); err != nil {
					t.Fatal(err)
				}
			}
			e.evidence(id, "CHECK", session.EvidenceManual, "reviewed the change with the maintainer")
			e.advance(id)
			end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "s"})
			if err != nil || !end.Ended {
				t.Fatalf("end: %+v %v", end, err)
			}
			if b, _ := os.ReadFile(outside); string(b) != "precious" {
				t.Fatalf("file outside the repository was overwritten: %q", b)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(outside), "sessions")); err == nil {
				t.Fatal("a folder was created outside the repository")
			}
			if c == "folder symlink" && (end.RecordFile != "" || len(end.Warnings) == 0) {
				t.Fatalf("record written through a symlinked folder: %+v", end)
			}
		})
	}
}
