package session_test

import (
	"context"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestSnapshotIDIndependentOfPathsAndTimes: the same session state in two
// databases, for repositories at different paths, written at different
// times, gives the same snapshot id; a different state does not.
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
	a := build(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), session.EvidenceToolOutput)
	b := build(time.Date(2027, 6, 1, 12, 30, 0, 0, time.FixedZone("X", 3600)), session.EvidenceToolOutput)
	if a != b {
		t.Fatalf("same state, different ids: %s vs %s", a, b)
	}
	if c := build(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), session.EvidenceManual); c == a {
		t.Fatal("a different evidence kind kept the id")
	}
}
