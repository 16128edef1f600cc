package storetest

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// testGateEvidenceAfterEnd: evidence dated after a session's ended_at does
// not count for its gates, whatever wrote it (a hook whose write lost a
// race with the end, a row written into the database by hand). Rows dated
// up to the end, the end's own instant included, count; an active
// session's rows all count. Before, GateEvidence returned every row.
func testGateEvidenceAfterEnd(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	ended := newSession(t, db, "/e")
	active := newSession(t, db, "/a")
	end := minute(10)
	update(t, db, func(w session.Writer) error {
		s, err := w.GetSession(ctx, ended.ID)
		if err != nil {
			return err
		}
		s.State, s.EndedAt = session.StateComplete, end
		return w.UpdateSession(ctx, s)
	})
	rows := []struct {
		s     *session.Session
		at    int // minutes
		kind  string
		sha   string
		count bool
	}{
		{ended, 5, session.EvidenceToolOutput, "before", true},
		{ended, 10, session.EvidenceToolOutput, "at-end", true},
		{ended, 11, session.EvidenceToolOutput, "after", false},
		{ended, 12, session.EvidenceContentHash, "hash-after", false},
		{active, 11, session.EvidenceToolOutput, "active", true},
		{active, 12, session.EvidenceContentHash, "active-hash", true},
	}
	update(t, db, func(w session.Writer) error {
		for _, r := range rows {
			phase := "P"
			if r.kind == session.EvidenceContentHash {
				phase = "Q" // content hashes of any phase are read
			}
			e := &session.Evidence{SessionID: r.s.ID, Phase: phase, Kind: r.kind, SHA256: r.sha, Ref: "f.md", CreatedAt: minute(r.at)}
			if err := w.AddEvidence(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	for _, s := range []*session.Session{ended, active} {
		got, err := db.GateEvidence(ctx, s.ID, "P")
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, e := range got {
			seen[e.SHA256] = true
		}
		for _, r := range rows {
			if r.s == s && seen[r.sha] != r.count {
				t.Errorf("GateEvidence of the %s session: row %q (minute %d, ended at minute 10) returned %v, want %v", map[bool]string{true: "ended", false: "active"}[s == ended], r.sha, r.at, seen[r.sha], r.count)
			}
		}
		if gf, ok := db.(session.GateFileReader); ok {
			got, err := gf.GateAndFileEvidence(ctx, s.ID, "P")
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, e := range got {
				seen[e.SHA256] = true
			}
			for _, r := range rows {
				if r.s == s && seen[r.sha] != r.count {
					t.Errorf("GateAndFileEvidence: row %q returned %v, want %v", r.sha, seen[r.sha], r.count)
				}
			}
		}
	}
}
