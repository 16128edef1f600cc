package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

func testSessionRoundTrip(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	var repo *session.Repository
	want := &session.Session{
		ID: sid(1), Worktree: "/r/wt", Branch: "feat/x", StartCommit: "abc", EndCommit: "def",
		ProtocolSHA: "sha", Objective: "do things", State: session.StateEnding, Phase: "QA_VALIDATION",
		CreatedAt: t0, LastActivity: t0.Add(time.Minute), ExpiresAt: t0.Add(time.Hour), EndedAt: t0.Add(2 * time.Hour),
		Terminated: true, TerminateReason: "idle", Summary: "sum", NextNotes: "next",
	}
	update(t, db, func(w session.Writer) error {
		var err error
		if repo, err = w.EnsureRepository(ctx, "/r", "r"); err != nil {
			return err
		}
		want.RepoID = repo.ID
		if err := w.CreateSession(ctx, want); err != nil {
			return err
		}
		// Read-your-writes inside the transaction.
		got, err := w.GetSession(ctx, want.ID)
		if err != nil {
			return err
		}
		mustEqual(t, "GetSession inside Update", got, want)
		return nil
	})
	got, err := db.GetSession(ctx, want.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "GetSession", got, want)

	// UpdateSession writes every mutable field.
	upd := *want
	upd.Worktree, upd.Branch, upd.StartCommit, upd.EndCommit = "/r/wt2", "b2", "s2", "e2"
	upd.ProtocolSHA, upd.Objective, upd.State, upd.Phase = "sha2", "obj2", session.StateComplete, ""
	upd.CreatedAt, upd.LastActivity, upd.ExpiresAt, upd.EndedAt = t0.Add(1), t0.Add(2), time.Time{}, t0.Add(4)
	upd.Terminated, upd.TerminateReason, upd.Summary, upd.NextNotes = false, "", "s", "n"
	update(t, db, func(w session.Writer) error { return w.UpdateSession(ctx, &upd) })
	got, err = db.GetSession(ctx, want.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "after UpdateSession", got, &upd)

	// Not found, with errors.Is and the id in the message.
	missing := sid(999)
	for name, err := range map[string]error{
		"GetSession":       func() error { _, err := db.GetSession(ctx, missing); return err }(),
		"ActiveSession":    func() error { _, err := db.ActiveSession(ctx, repo.ID, "/nowhere"); return err }(),
		"GetRepository":    func() error { _, err := db.GetRepository(ctx, 424242); return err }(),
		"RepositoryByRoot": func() error { _, err := db.RepositoryByRoot(ctx, "/nowhere"); return err }(),
		"GetProtocol":      func() error { _, err := db.GetProtocol(ctx, "feed"); return err }(),
		"UpdateSession": db.Update(ctx, func(w session.Writer) error {
			return w.UpdateSession(ctx, &session.Session{ID: missing})
		}),
		"DeleteSession": db.Update(ctx, func(w session.Writer) error { return w.DeleteSession(ctx, missing) }),
	} {
		if !errors.Is(err, session.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", name, err)
		}
	}
	if _, err := db.GetSession(ctx, missing); err.Error() != "session "+missing+": not found" {
		t.Errorf("GetSession error text %q", err)
	}
}

// testTouchSession: a touch sets the two times of an active session, as
// UpdateSession would, and leaves an ended or unknown one alone; a later
// UpdateSession in the same transaction writes on top of it.
func testTouchSession(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	s := newSession(t, db, "/r")
	ended := newSession(t, db, "/e")
	update(t, db, func(w session.Writer) error {
		ended.State, ended.EndedAt = session.StateComplete, t0
		return w.UpdateSession(ctx, ended)
	})
	last, expires := t0.Add(time.Hour), t0.Add(25*time.Hour)
	for _, c := range []struct {
		id   string
		want bool
	}{{s.ID, true}, {ended.ID, false}, {sid(999), false}} {
		update(t, db, func(w session.Writer) error {
			got, err := w.TouchSession(ctx, c.id, last, expires)
			if err != nil || got != c.want {
				t.Errorf("TouchSession(%s) = %v, %v; want %v", c.id, got, err, c.want)
			}
			return nil
		})
	}
	want := *s
	want.LastActivity, want.ExpiresAt = last, expires
	got, err := db.GetSession(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "touched session", *got, want)
	if got, err := db.GetSession(ctx, ended.ID); err != nil || !got.LastActivity.Equal(ended.LastActivity) || got.State != session.StateComplete {
		t.Errorf("ended session after a touch: %+v, %v", got, err)
	}

	// Read, touched, then updated in one transaction: both writes stick.
	update(t, db, func(w session.Writer) error {
		cur, err := w.GetSession(ctx, s.ID)
		if err != nil {
			return err
		}
		if _, err := w.TouchSession(ctx, s.ID, last.Add(time.Hour), expires.Add(time.Hour)); err != nil {
			return err
		}
		cur.LastActivity, cur.ExpiresAt, cur.Phase = last, expires, "P2" // the times as first read
		return w.UpdateSession(ctx, cur)
	})
	want.Phase = "P2"
	got, err = db.GetSession(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "read, touched and updated session", *got, want)
}

func testCreateSessionDefaults(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	before := time.Now()
	s := newSession(t, db, "/r")
	if err := session.ValidateID(s.ID); err != nil {
		t.Errorf("generated id: %v", err)
	}
	if s.CreatedAt.Before(before.Add(-time.Second)) || s.CreatedAt.After(time.Now().Add(time.Second)) || s.CreatedAt.Location() != time.UTC {
		t.Errorf("CreatedAt = %v, want the transaction's time (between %v and now) in UTC", s.CreatedAt, before)
	}
	err := db.Update(ctx, func(w session.Writer) error {
		return w.CreateSession(ctx, &session.Session{ID: "not-a-uuid", RepoID: s.RepoID, State: session.StateInit})
	})
	if !errors.Is(err, session.ErrInvalidID) {
		t.Errorf("bad id: %v, want ErrInvalidID", err)
	}
	err = db.Update(ctx, func(w session.Writer) error {
		return w.CreateSession(ctx, &session.Session{RepoID: 4242, State: session.StateInit})
	})
	if err == nil {
		t.Errorf("session in an unknown repository was accepted")
	}
	err = db.Update(ctx, func(w session.Writer) error {
		return w.CreateSession(ctx, &session.Session{ID: s.ID, RepoID: s.RepoID, State: session.StateInit})
	})
	if err == nil {
		t.Errorf("duplicate session id was accepted")
	}
}

func testRepositories(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	var a, a2, a3, b *session.Repository
	update(t, db, func(w session.Writer) error {
		var err error
		if a, err = w.EnsureRepository(ctx, "/a", "a"); err != nil {
			return err
		}
		if b, err = w.EnsureRepository(ctx, "/b", "b"); err != nil {
			return err
		}
		if a2, err = w.EnsureRepository(ctx, "/a", "renamed"); err != nil {
			return err
		}
		a3, err = w.EnsureRepository(ctx, "/a", "")
		return err
	})
	if a.ID == b.ID || a2.ID != a.ID || a3.ID != a.ID {
		t.Errorf("ids a=%d b=%d a2=%d a3=%d: want one row per root", a.ID, b.ID, a2.ID, a3.ID)
	}
	mustEqual(t, "renamed", a3, &session.Repository{ID: a.ID, Root: "/a", Name: "renamed"})
	got, err := db.GetRepository(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "GetRepository", got, b)
	got, err = db.RepositoryByRoot(ctx, "/a")
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "RepositoryByRoot", got, a3)
}

func testProtocols(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	p := &session.Protocol{SHA256: "aa", Name: "SESSION-PROTOCOL.md", Content: []byte("# x\x00\xff"), SpecJSON: []byte(`{"phases":[]}`), CreatedAt: t0}
	update(t, db, func(w session.Writer) error {
		if err := w.PutProtocol(ctx, p); err != nil {
			return err
		}
		// Same hash again: ignored, the first row stays.
		return w.PutProtocol(ctx, &session.Protocol{SHA256: "aa", Name: "other", Content: []byte("y")})
	})
	got, err := db.GetProtocol(ctx, "aa")
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "GetProtocol", got, p)
}

func testPhaseResults(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	s := newSession(t, db, "/r")
	p1 := session.PhaseResult{SessionID: s.ID, PhaseID: "Z_FIRST", Status: session.PhaseFailed, Level: "BLOCKING",
		Message: "m", Decision: "d", StartedAt: t0, EndedAt: t0.Add(time.Second), Duration: time.Second,
		Checks: []session.CheckResult{{Kind: "file_exists", Arg: "*.md", Status: session.StatusFail, Message: "none", Evidence: "e", Duration: 5}}}
	p2 := session.PhaseResult{SessionID: s.ID, PhaseID: "A_SECOND", Status: session.PhasePending}
	update(t, db, func(w session.Writer) error {
		if err := w.PutPhaseResult(ctx, p1); err != nil {
			return err
		}
		return w.PutPhaseResult(ctx, p2)
	})
	got, err := db.PhaseResults(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "PhaseResults", got, []session.PhaseResult{p1, p2})

	// Upsert replaces and keeps the order.
	p1.Status, p1.Checks, p1.Message = session.PhasePassed, nil, "ok"
	update(t, db, func(w session.Writer) error { return w.PutPhaseResult(ctx, p1) })
	got, err = db.PhaseResults(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "PhaseResults after upsert", got, []session.PhaseResult{p1, p2})

	// UnlessSettled: written when missing, PENDING or FAILED; a settled
	// result stays as it is.
	for _, st := range []session.PhaseStatus{session.PhasePending, session.PhaseFailed, session.PhasePassed, session.PhaseForced, session.PhaseSkipped} {
		id := "U_" + string(st)
		before := session.PhaseResult{SessionID: s.ID, PhaseID: id, Status: st, Message: "before"}
		after := session.PhaseResult{SessionID: s.ID, PhaseID: id, Status: session.PhaseFailed, Level: "REQUIRED", Message: "after",
			StartedAt: t0, EndedAt: t0.Add(time.Second), Duration: time.Second,
			Checks: []session.CheckResult{{Kind: "evidence", Status: session.StatusFail, Message: "none"}}}
		update(t, db, func(w session.Writer) error {
			if err := w.PutPhaseResultUnlessSettled(ctx, before); err != nil { // missing: inserted
				return err
			}
			return w.PutPhaseResultUnlessSettled(ctx, after)
		})
		got, err := db.PhaseResults(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := before
		if st == session.PhasePending || st == session.PhaseFailed {
			want = after
		}
		mustEqual(t, "PutPhaseResultUnlessSettled over "+string(st), got[len(got)-1], want)
	}

	err = db.Update(ctx, func(w session.Writer) error {
		return w.PutPhaseResult(ctx, session.PhaseResult{SessionID: sid(999), PhaseID: "X"})
	})
	if err == nil {
		t.Error("phase result of an unknown session was accepted")
	}
}

// testRecordedCommits: only observed commit_sha and bypass_commit evidence
// of the session names a recorded commit.
func testRecordedCommits(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	s := newSession(t, db, "/r")
	other := newSession(t, db, "/other")
	obs := session.OriginObserved
	update(t, db, func(w session.Writer) error {
		for _, e := range []*session.Evidence{
			{SessionID: s.ID, Kind: session.EvidenceCommitSHA, Origin: obs, Ref: "c1", CreatedAt: t0},
			{SessionID: s.ID, Kind: session.EvidenceBypassCommit, Origin: obs, Ref: "c2", CreatedAt: t0},
			{SessionID: s.ID, Kind: session.EvidenceCommitSHA, Ref: "claimed", CreatedAt: t0},
			{SessionID: s.ID, Kind: session.EvidenceToolOutput, Origin: obs, Ref: "notacommit", CreatedAt: t0},
			{SessionID: other.ID, Kind: session.EvidenceCommitSHA, Origin: obs, Ref: "c3", CreatedAt: t0},
		} {
			if err := w.AddEvidence(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	got, err := db.RecordedCommits(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "recorded commits", got, map[string]bool{"c1": true, "c2": true})
	// A commit's change fingerprint comes back as stored; other evidence has none.
	update(t, db, func(w session.Writer) error {
		return w.AddEvidence(ctx, &session.Evidence{SessionID: other.ID, Kind: session.EvidenceCommitSHA, Origin: obs, Ref: "c5",
			Change: "100644 100644 0a1b 0c2d\tsrc/a b.go", CreatedAt: t0})
	})
	evs, err := db.ListEvidence(ctx, other.ID)
	if err != nil {
		t.Fatal(err)
	}
	changes := map[string]string{}
	for _, e := range evs {
		changes[e.Ref] = e.Change
	}
	mustEqual(t, "change fingerprints by commit", changes, map[string]string{"c3": "", "c5": "100644 100644 0a1b 0c2d\tsrc/a b.go"})
	// Asked about some: only those of them it recorded.
	got, err = db.RecordedCommits(ctx, s.ID, "c2", "claimed", "notacommit", "c3", "unknown")
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "recorded commits among five", got, map[string]bool{"c2": true})
	// Another session's: only observed commit evidence of a session other
	// than the one asking, with that session's id (reconcile.go).
	elsewhere, err := db.CommitsRecordedElsewhere(ctx, s.ID, "c1", "c3", "c5", "claimed", "unknown")
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "commits other sessions recorded", elsewhere, map[string]string{"c3": other.ID, "c5": other.ID})
	if none, err := db.CommitsRecordedElsewhere(ctx, s.ID); err != nil || len(none) != 0 {
		t.Fatalf("asked about no commit: %v, %v", none, err)
	}
	var inTx map[string]bool
	update(t, db, func(w session.Writer) error {
		if err := w.AddEvidence(ctx, &session.Evidence{SessionID: s.ID, Kind: session.EvidenceCommitSHA, Origin: obs, Ref: "c4", CreatedAt: t0}); err != nil {
			return err
		}
		if inTx, err = w.RecordedCommits(ctx, s.ID); err != nil {
			return err
		}
		one, err := w.RecordedCommits(ctx, s.ID, "c4")
		mustEqual(t, "its own c4, asked inside the transaction", one, map[string]bool{"c4": true})
		return err
	})
	if !inTx["c4"] || len(inTx) != 3 {
		t.Errorf("inside the transaction: %v, want c1, c2 and its own c4", inTx)
	}
}

func testEvidence(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	s := newSession(t, db, "/r")
	withBody := &session.Evidence{SessionID: s.ID, Phase: "P", Step: "st", Kind: session.EvidenceToolOutput,
		SHA256: "h1", Ref: "ref", Size: 3, Body: []byte("abc"), CreatedAt: t0}
	noBody := &session.Evidence{SessionID: s.ID, Phase: "P", Kind: session.EvidenceCommitSHA, SHA256: "h2", Ref: "c0ffee", Size: 10, CreatedAt: t0}
	emptyBody := &session.Evidence{SessionID: s.ID, Kind: session.EvidenceManual, Body: []byte{}, CreatedAt: t0}
	update(t, db, func(w session.Writer) error {
		for _, e := range []*session.Evidence{withBody, noBody, emptyBody} {
			if err := w.AddEvidence(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	if withBody.ID == 0 || noBody.ID <= withBody.ID {
		t.Errorf("ids %d, %d: want increasing, set", withBody.ID, noBody.ID)
	}
	got, err := db.ListEvidence(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d evidence rows, want 3", len(got))
	}
	mustEqual(t, "with body", got[0], *withBody)
	mustEqual(t, "without body", got[1], *noBody)
	if got[1].Body != nil {
		t.Errorf("evidence without a body came back with %#v, want nil", got[1].Body)
	}
	if got[2].Body == nil || len(got[2].Body) != 0 {
		t.Errorf("empty body came back as %#v, want []byte{}", got[2].Body)
	}

	err = db.Update(ctx, func(w session.Writer) error {
		return w.AddEvidence(ctx, &session.Evidence{SessionID: s.ID, Kind: "k", Body: make([]byte, session.MaxEvidenceBytes+1)})
	})
	if err == nil {
		t.Error("an oversized body was accepted")
	}
}

// testGateEvidence: a gate reads its phase's evidence and content hashes
// recorded in any phase, in recorded order, and nothing else.
func testGateEvidence(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	s := newSession(t, db, "/r")
	other := newSession(t, db, "/o")
	zero := 0
	evs := []*session.Evidence{
		{SessionID: s.ID, Phase: "P", Kind: session.EvidenceManual, SHA256: "a"},
		{SessionID: s.ID, Phase: "Q", Kind: session.EvidenceToolOutput, SHA256: "b"},
		{SessionID: s.ID, Phase: "Q", Kind: session.EvidenceContentHash, Ref: "doc.md", SHA256: "c"},
		{SessionID: s.ID, Kind: session.EvidenceToolOutput, Origin: session.OriginObserved, Command: "make", ExitCode: &zero, SHA256: "d"},
		{SessionID: s.ID, Phase: "P", Step: session.StepCondition, Kind: session.EvidenceManual, SHA256: "e"},
		{SessionID: s.ID, Phase: "P", Kind: session.EvidenceContentHash, Ref: "b.md", SHA256: "f"},
		{SessionID: s.ID, Kind: session.EvidenceContentHash, Ref: "c.md", SHA256: "g"},
		{SessionID: s.ID, Phase: "P", Kind: session.EvidenceToolOutput, Origin: session.OriginObserved, Command: "go test", ExitCode: &zero, SHA256: "h"},
		{SessionID: other.ID, Phase: "P", Kind: session.EvidenceManual, SHA256: "i"},
		{SessionID: other.ID, Kind: session.EvidenceContentHash, Ref: "doc.md", SHA256: "j"},
	}
	update(t, db, func(w session.Writer) error {
		for _, e := range evs {
			e.CreatedAt = t0
			if err := w.AddEvidence(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	for _, c := range []struct {
		phase string
		want  string // SHA256 of the rows, in order
	}{
		{"P", "acefgh"},
		{"Q", "bcfg"},
		{"", "cdfg"},
		{"R", "cfg"},
	} {
		got, err := db.GateEvidence(ctx, s.ID, c.phase)
		if err != nil {
			t.Fatal(err)
		}
		var shas string
		for i, e := range got {
			shas += e.SHA256
			for _, w := range evs {
				if w.ID == e.ID {
					mustEqual(t, fmt.Sprintf("phase %q row %d", c.phase, i), e, *w)
				}
			}
		}
		if shas != c.want {
			t.Errorf("GateEvidence(%q) = %q, want %q", c.phase, shas, c.want)
		}
	}
}

func testEvents(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	s1 := newSession(t, db, "/r")
	s2 := newSession(t, db, "/r2")
	s3 := newSession(t, db, "/r3")
	var want []session.Event
	update(t, db, func(w session.Writer) error {
		for i := range 5 {
			e := &session.Event{SessionID: s1.ID, Token: fmt.Sprintf("tok%d", i), Detail: `{"i":1}`, CreatedAt: t0.Add(time.Duration(i))}
			if err := w.AppendEvent(ctx, e); err != nil {
				return err
			}
			if e.Seq != int64(i+1) {
				t.Errorf("event %d: Seq %d, want %d", i, e.Seq, i+1)
			}
			want = append(want, *e)
			// Sequences are per session.
			o := &session.Event{SessionID: s2.ID, Token: "other"}
			if err := w.AppendEvent(ctx, o); err != nil {
				return err
			}
			if o.Seq != int64(i+1) {
				t.Errorf("other session event %d: Seq %d, want %d", i, o.Seq, i+1)
			}
		}
		// AppendEvents: in order after the last, per session, in runs
		// longer than one statement takes.
		var batch []*session.Event
		for i := range 40 {
			batch = append(batch, &session.Event{SessionID: s2.ID, Token: fmt.Sprintf("b%d", i)})
		}
		batch = append(batch, &session.Event{SessionID: s3.ID, Token: "mixed"}, &session.Event{SessionID: s2.ID, Token: "last"})
		if err := w.AppendEvents(ctx, batch...); err != nil {
			return err
		}
		for i, e := range batch[:40] {
			if e.Seq != int64(6+i) || e.CreatedAt.IsZero() {
				t.Errorf("AppendEvents event %d: Seq %d at %v, want %d", i, e.Seq, e.CreatedAt, 6+i)
			}
		}
		if batch[40].Seq != 1 || batch[41].Seq != 46 {
			t.Errorf("AppendEvents of two sessions: Seq %d and %d, want 1 and 46", batch[40].Seq, batch[41].Seq)
		}
		if got, err := w.ListEvents(ctx, s2.ID, 5, 0); err != nil || len(got) != 41 || got[0].Token != "b0" || got[40].Token != "last" {
			t.Errorf("events after AppendEvents: %d, %v", len(got), err)
		}
		one := &session.Event{SessionID: s3.ID, Token: "one"}
		if err := w.AppendEvents(ctx, one); err != nil {
			return err
		}
		if one.Seq != 2 {
			t.Errorf("AppendEvents of one: Seq %d, want 2", one.Seq)
		}
		// Read-your-writes.
		got, err := w.LastEvents(ctx, s1.ID, 2)
		mustEqual(t, "LastEvents inside Update", got, want[3:])
		return err
	})
	for _, c := range []struct {
		name  string
		after int64
		limit int
		want  []session.Event
	}{
		{"all", 0, 0, want},
		{"after 2", 2, 0, want[2:]},
		{"after 1 limit 2", 1, 2, want[1:3]},
		{"after last", 5, 0, nil},
	} {
		got, err := db.ListEvents(ctx, s1.ID, c.after, c.limit)
		if err != nil {
			t.Fatal(err)
		}
		mustEqual(t, "ListEvents "+c.name, got, c.want)
	}
	for _, c := range []struct {
		n    int
		want []session.Event
	}{{0, nil}, {2, want[3:]}, {5, want}, {9, want}} {
		got, err := db.LastEvents(ctx, s1.ID, c.n)
		if err != nil {
			t.Fatal(err)
		}
		mustEqual(t, fmt.Sprintf("LastEvents %d", c.n), got, c.want)
	}
	// With tokens: those of the last n events that carry one of them.
	for _, c := range []struct {
		n      int
		tokens []string
		want   []session.Event
	}{
		{5, []string{"tok1", "tok3"}, []session.Event{want[1], want[3]}},
		{2, []string{"tok1", "tok3"}, want[3:4]}, // tok1 is not among the last 2
		{9, []string{"tok4", "other"}, want[4:]}, // another session's token stays there
		{5, []string{"nothing"}, nil},
		{0, []string{"tok1"}, nil},
	} {
		got, err := db.LastEvents(ctx, s1.ID, c.n, c.tokens...)
		if err != nil {
			t.Fatal(err)
		}
		mustEqual(t, fmt.Sprintf("LastEvents %d %v", c.n, c.tokens), got, c.want)
	}
	// Every event with one of the tokens, in order; another session's stay.
	for _, c := range []struct {
		tokens []string
		want   []session.Event
	}{
		{[]string{"tok3", "tok1"}, []session.Event{want[1], want[3]}},
		{[]string{"tok4", "other"}, want[4:]},
		{[]string{"nothing"}, nil},
		{nil, nil},
	} {
		got, err := db.EventsWith(ctx, s1.ID, c.tokens...)
		if err != nil {
			t.Fatal(err)
		}
		mustEqual(t, fmt.Sprintf("EventsWith %v", c.tokens), got, c.want)
	}
	// EventsWithPrefix: one call's events by the start of their detail,
	// compared byte for byte (no LIKE wildcard, no case folding).
	s4 := newSession(t, db, "/r4")
	var pre []session.Event
	update(t, db, func(w session.Writer) error {
		for _, d := range [][2]string{{"call", "toolu_1 Bash x"}, {"call", "toolu_10 Bash y"}, {"other", "toolu_1 Bash z"},
			{"call", "a_b"}, {"call", "axb"}, {"call", "A_b"}, {"result", "toolu_1 done"}} {
			e := &session.Event{SessionID: s4.ID, Token: d[0], Detail: d[1], CreatedAt: t0}
			if err := w.AppendEvent(ctx, e); err != nil {
				return err
			}
			pre = append(pre, *e)
		}
		return nil
	})
	for _, c := range []struct {
		prefix string
		tokens []string
		want   []session.Event
	}{
		{"toolu_1 ", []string{"call"}, pre[0:1]},
		{"toolu_1 ", []string{"call", "result"}, []session.Event{pre[0], pre[6]}},
		{"a_", []string{"call"}, pre[3:4]},
		{"toolu_1 ", nil, nil},
		{"", []string{"other"}, pre[2:3]},
	} {
		got, err := db.EventsWithPrefix(ctx, s4.ID, c.prefix, c.tokens...)
		if err != nil {
			t.Fatal(err)
		}
		mustEqual(t, fmt.Sprintf("EventsWithPrefix %q %v", c.prefix, c.tokens), got, c.want)
	}
	// OpenCallEvents: the calls of an agent still open, by count (a key
	// judged three times and reported once leaves its two newest
	// judgments), with their other settlements; closed calls, another
	// agent's reports, an id that is a prefix of another and another
	// session stay out.
	s5 := newSession(t, db, "/r5")
	var oc []session.Event
	update(t, db, func(w session.Writer) error {
		for _, d := range [][2]string{
			{"agent:claude:judged", "t1 Bash d"}, // 0: reported
			{"agent:result", "claude t1"},
			{"agent:claude:judged", "t2 Bash d"}, // 2: open, settled as interrupted
			{"agent:unreported", "claude t2 interrupted"},
			{"agent:claude:judged", "t3 Edit d"}, // 4: named missing
			{"agent:unreported", "claude t3 missing"},
			{"agent:claude:judged", "t4 Bash d"},  // 6: open
			{"agent:result", "codex t4"},          // another agent's report
			{"agent:claude:judged", "t4x Bash d"}, // 8: reported; t4 is its prefix
			{"agent:result", "claude t4x"},
			{"agent:copilot:judged", "cp-k bash d"}, // 10-12: judged three times, reported once
			{"agent:copilot:judged", "cp-k bash d"},
			{"agent:copilot:judged", "cp-k bash d"},
			{"agent:result", "copilot cp-k"},
		} {
			e := &session.Event{SessionID: s5.ID, Token: d[0], Detail: d[1], CreatedAt: t0}
			if err := w.AppendEvent(ctx, e); err != nil {
				return err
			}
			oc = append(oc, *e)
		}
		return w.AppendEvent(ctx, &session.Event{SessionID: s1.ID, Token: "agent:claude:judged", Detail: "t9 Bash d", CreatedAt: t0})
	})
	for _, c := range []struct {
		judged, agent string
		want          []session.Event
	}{
		{"agent:claude:judged", "claude", []session.Event{oc[2], oc[3], oc[6]}},
		{"agent:copilot:judged", "copilot", oc[11:13]},
		{"agent:codex:judged", "codex", nil},
	} {
		got, err := db.OpenCallEvents(ctx, s5.ID, c.judged, c.agent)
		if err != nil {
			t.Fatal(err)
		}
		mustEqual(t, fmt.Sprintf("OpenCallEvents %s %s", c.judged, c.agent), got, c.want)
	}
	// HasJudgedCall: a judged call of the tool with an id of the prefix,
	// the tool matched as the detail's whole second word; another token,
	// another session, a longer tool name and an id outside the prefix do
	// not count.
	update(t, db, func(w session.Writer) error {
		for _, d := range [][2]string{
			{"agent:copilot:judged", "cp-bash-0123456789abcdef bash d"},
			{"agent:copilot:judged", "cp-edit-0123456789abcdef edit-x d"},
			{"agent:claude:judged", "cp-create-0123456789abcdef create d"},
		} {
			if err := w.AppendEvent(ctx, &session.Event{SessionID: s5.ID, Token: d[0], Detail: d[1], CreatedAt: t0}); err != nil {
				return err
			}
		}
		return nil
	})
	for _, c := range []struct {
		sid, judged, prefix, tool string
		want                      bool
	}{
		{s5.ID, "agent:copilot:judged", "cp-bash-", "bash", true},
		{s5.ID, "agent:copilot:judged", "cp-k", "bash", true}, // "cp-k bash d" above
		{s5.ID, "agent:copilot:judged", "cp-bash-", "bas", false},
		{s5.ID, "agent:copilot:judged", "cp-edit-", "edit", false}, // its tool is edit-x
		{s5.ID, "agent:copilot:judged", "cp-create-", "create", false},
		{s5.ID, "agent:copilot:judged", "cp-powershell-", "powershell", false},
		{s1.ID, "agent:copilot:judged", "cp-bash-", "bash", false},
		{s5.ID, "agent:claude:judged", "cp-create-", "create", true},
	} {
		got, err := db.HasJudgedCall(ctx, c.sid, c.judged, c.prefix, c.tool)
		if err != nil || got != c.want {
			t.Errorf("HasJudgedCall(%s, %q, %q) = %v, %v; want %v", c.judged, c.prefix, c.tool, got, err, c.want)
		}
	}
	err := db.Update(ctx, func(w session.Writer) error {
		return w.AppendEvent(ctx, &session.Event{SessionID: sid(999), Token: "x"})
	})
	if err == nil {
		t.Error("event of an unknown session was accepted")
	}
}

func testSnapshots(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	s := newSession(t, db, "/r")
	var want []session.Snapshot
	update(t, db, func(w session.Writer) error {
		for i := range 3 {
			sn := &session.Snapshot{SessionID: s.ID, SnapshotID: fmt.Sprintf("sha256:%d", i), Payload: []byte(`{"a":1}`), CreatedAt: t0}
			if err := w.AddSnapshot(ctx, sn); err != nil {
				return err
			}
			if sn.Seq != int64(i+1) {
				t.Errorf("snapshot %d: Seq %d", i, sn.Seq)
			}
			want = append(want, *sn)
		}
		return nil
	})
	got, err := db.ListSnapshots(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "ListSnapshots", got, want)
	latest, err := db.LatestSnapshotID(ctx, s.ID)
	if err != nil || latest != "sha256:2" {
		t.Errorf("LatestSnapshotID = %q, %v; want sha256:2", latest, err)
	}
	other := newSession(t, db, "/other")
	if latest, err := db.LatestSnapshotID(ctx, other.ID); err != nil || latest != "" {
		t.Errorf("LatestSnapshotID of a session without snapshots = %q, %v; want \"\"", latest, err)
	}
}

func testViolationRoundTrip(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	s := newSession(t, db, "/r")
	v := &session.Violation{SessionID: s.ID, Phase: "P", Requirement: "MUST x", Severity: session.SeverityHigh,
		Code: "FORCED_ADVANCE", Message: "m", Window: session.WindowCrossSessionDecay, DecayRuns: 3, CreatedAt: t0}
	orphan := &session.Violation{RepoID: s.RepoID, Severity: session.SeverityLow, Code: "BYPASS", CreatedAt: t0.Add(time.Second)}
	update(t, db, func(w session.Writer) error {
		if err := w.AddViolation(ctx, v); err != nil {
			return err
		}
		return w.AddViolation(ctx, orphan)
	})
	if v.RepoID != s.RepoID {
		t.Errorf("RepoID = %d, want it taken from the session (%d)", v.RepoID, s.RepoID)
	}
	got, err := db.ListViolations(ctx, session.ViolationFilter{})
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "ListViolations", got, []session.Violation{*orphan, *v})
	if count := violationCount(t, db, s.ID); count != 1 {
		t.Errorf("violation count = %d, want 1", count)
	}
}

func testDeleteSessionRemovesEverything(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	gone := newSession(t, db, "/r")
	kept := newSession(t, db, "/r")
	fill := func(w session.Writer, id string) error {
		for _, err := range []error{
			w.PutPhaseResult(ctx, session.PhaseResult{SessionID: id, PhaseID: "P", Checks: []session.CheckResult{{Kind: "k"}}}),
			w.AddEvidence(ctx, &session.Evidence{SessionID: id, Kind: "k", Body: []byte("b")}),
			w.AppendEvent(ctx, &session.Event{SessionID: id, Token: "t"}),
			w.AddViolation(ctx, &session.Violation{SessionID: id, Severity: session.SeverityLow}),
			w.AddSnapshot(ctx, &session.Snapshot{SessionID: id, SnapshotID: "sha256:x", Payload: []byte("{}")}),
		} {
			if err != nil {
				return err
			}
		}
		return nil
	}
	update(t, db, func(w session.Writer) error {
		if err := fill(w, gone.ID); err != nil {
			return err
		}
		return fill(w, kept.ID)
	})
	update(t, db, func(w session.Writer) error { return w.DeleteSession(ctx, gone.ID) })

	for id, want := range map[string]int{gone.ID: 0, kept.ID: 1} {
		rows := sessionRows(t, db, id)
		for what, n := range rows {
			if n != want {
				t.Errorf("%s: %d rows of session %s, want %d", what, n, id, want)
			}
		}
	}
	if _, err := db.GetRepository(ctx, gone.RepoID); err != nil {
		t.Errorf("repository went with the session: %v", err)
	}
}

func testUpdateRollsBack(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	s := newSession(t, db, "/r")
	boom := errors.New("boom")
	write := func(w session.Writer) {
		if _, err := w.EnsureRepository(ctx, "/other", "o"); err != nil {
			t.Fatal(err)
		}
		if err := w.CreateSession(ctx, &session.Session{ID: sid(77), RepoID: s.RepoID, State: session.StateInit}); err != nil {
			t.Fatal(err)
		}
		if err := w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "t"}); err != nil {
			t.Fatal(err)
		}
		if err := w.AddViolation(ctx, &session.Violation{SessionID: s.ID, Severity: session.SeverityLow}); err != nil {
			t.Fatal(err)
		}
	}
	err := db.Update(ctx, func(w session.Writer) error {
		write(w)
		return fmt.Errorf("step: %w", boom)
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update returned %v, want fn's error", err)
	}
	func() {
		defer func() {
			if r := recover(); r != "kaboom" {
				t.Errorf("recovered %v, want the panic to propagate", r)
			}
		}()
		db.Update(ctx, func(w session.Writer) error {
			write(w)
			panic("kaboom")
		})
	}()

	if _, err := db.RepositoryByRoot(ctx, "/other"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("repository of a rolled back Update: %v, want ErrNotFound", err)
	}
	if n, err := db.CountSessions(ctx, session.SessionFilter{}); err != nil || n != 1 {
		t.Errorf("%d sessions after rollbacks (%v), want 1 (newSession's)", n, err)
	}
	for what, n := range sessionRows(t, db, s.ID) {
		if want := map[string]int{"session": 1}[what]; n != want {
			t.Errorf("%s: %d rows after rollbacks, want %d", what, n, want)
		}
	}
	if vs, err := db.ListViolations(ctx, session.ViolationFilter{}); err != nil || len(vs) != 0 {
		t.Errorf("violations after rollbacks: %v %v", vs, err)
	}
	if count := violationCount(t, db, s.ID); count != 0 {
		t.Errorf("violation count after rollbacks = %d, want 0", count)
	}
	// The writer connection was released: a new Update works, and Seq
	// starts at 1 again since the rolled back events are gone.
	update(t, db, func(w session.Writer) error {
		e := &session.Event{SessionID: s.ID, Token: "t"}
		if err := w.AppendEvent(ctx, e); err != nil {
			return err
		}
		if e.Seq != 1 {
			t.Errorf("Seq after rollbacks = %d, want 1", e.Seq)
		}
		return nil
	})
}

func testUpdateHonoursContext(t *testing.T, open Opener) {
	db := open(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	err := db.Update(ctx, func(w session.Writer) error { called = true; return nil })
	if err == nil || called {
		t.Errorf("Update with a cancelled context: err %v, fn called %v", err, called)
	}
}

// seedFilterDB stores the sessions and violations the filter tables refer
// to by number: session i has ID sid(i).
//
//	i repo worktree branch state      objective           violations created
//	1 A    /a/main  main   COMPLETE   Fix login bug       0          1
//	2 A    /a/main  main   COMPLETE   100% coverage       1          2
//	3 A    /a/wt1   feat   ABANDONED  rename foo_bar      0          3
//	4 A    /a/wt1   feat   WORKING    fooXbar cleanup     2          4
//	5 B    /b/main  main   INIT       Docs: LOGIN page    0          5
//	6 B    /b/main  main   COMPLETE   refactor            1          6
//	7 A    /a/main  main   ENDING     login again         0          7
//	8 A    /a/main  main   WORKING    same time as 7      0          7
func seedFilterDB(t *testing.T, open Opener) (db session.Store, repoA, repoB int64) {
	db = open(t)
	ctx := context.Background()
	rows := []struct {
		repo                       string
		worktree, branch           string
		state                      session.State
		objective                  string
		violations, created, ended int
	}{
		{"A", "/a/main", "main", session.StateComplete, "Fix login bug", 0, 1, 10},
		{"A", "/a/main", "main", session.StateComplete, "100% coverage", 1, 2, 12},
		{"A", "/a/wt1", "feat", session.StateAbandoned, "rename foo_bar", 0, 3, 11},
		{"A", "/a/wt1", "feat", session.StateWorking, "fooXbar cleanup", 2, 4, 0},
		{"B", "/b/main", "main", session.StateInit, "Docs: LOGIN page", 0, 5, 0},
		{"B", "/b/main", "main", session.StateComplete, "refactor", 1, 6, 13},
		{"A", "/a/main", "main", session.StateEnding, "login again", 0, 7, 0},
		{"A", "/a/main", "main", session.StateWorking, "same time as 7", 0, 7, 0},
	}
	// Violations: v1 (s2 HIGH FORCED_ADVANCE P1 min 20), v2 (s4 CRITICAL
	// BYPASS P2 min 21), v3 (s4 LOW FORCED_ADVANCE P1 min 22), v4 (s6 HIGH
	// SEQUENCE_RULE P1 min 22), v5 (no session, repo B, MEDIUM BYPASS min 23).
	update(t, db, func(w session.Writer) error {
		a, err := w.EnsureRepository(ctx, "/a", "a")
		if err != nil {
			return err
		}
		b, err := w.EnsureRepository(ctx, "/b", "b")
		if err != nil {
			return err
		}
		repoA, repoB = a.ID, b.ID
		for i, r := range rows {
			s := &session.Session{ID: sid(i + 1), RepoID: repoA, Worktree: r.worktree, Branch: r.branch, State: r.state,
				Objective: r.objective, CreatedAt: minute(r.created)}
			if r.repo == "B" {
				s.RepoID = repoB
			}
			if r.ended != 0 {
				s.EndedAt = minute(r.ended)
			}
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
		}
		for _, v := range []session.Violation{
			{SessionID: sid(2), Severity: session.SeverityHigh, Code: "FORCED_ADVANCE", Phase: "P1", CreatedAt: minute(20)},
			{SessionID: sid(4), Severity: session.SeverityCritical, Code: "BYPASS", Phase: "P2", CreatedAt: minute(21), Window: session.WindowCrossSessionDecay, DecayRuns: 3},
			{SessionID: sid(4), Severity: session.SeverityLow, Code: "FORCED_ADVANCE", Phase: "P1", CreatedAt: minute(22)},
			{SessionID: sid(6), Severity: session.SeverityHigh, Code: "SEQUENCE_RULE", Phase: "P1", CreatedAt: minute(22)},
			{RepoID: repoB, Severity: session.SeverityMedium, Code: "BYPASS", CreatedAt: minute(23), Window: session.WindowCrossSessionDecay, DecayRuns: 3},
		} {
			if err := w.AddViolation(ctx, &v); err != nil {
				return err
			}
		}
		return nil
	})
	return db, repoA, repoB
}

func sessionNums(ss []*session.Session) []int {
	var out []int
	for _, s := range ss {
		var n int
		fmt.Sscanf(s.ID[24:], "%d", &n)
		out = append(out, n)
	}
	return out
}

func testListSessionsFilters(t *testing.T, open Opener) {
	db, repoA, repoB := seedFilterDB(t, open)
	ctx := context.Background()
	yes, no := true, false
	for _, c := range []struct {
		name  string
		f     session.SessionFilter
		want  []int
		count int // CountSessions ignores the keyset and the limit
	}{
		{"all", session.SessionFilter{}, []int{8, 7, 6, 5, 4, 3, 2, 1}, 8},
		{"repo A", session.SessionFilter{RepoID: repoA}, []int{8, 7, 4, 3, 2, 1}, 6},
		{"repo B", session.SessionFilter{RepoID: repoB}, []int{6, 5}, 2},
		{"states", session.SessionFilter{States: []session.State{session.StateWorking, session.StateEnding}}, []int{8, 7, 4}, 3},
		{"one state", session.SessionFilter{States: []session.State{session.StateComplete}}, []int{6, 2, 1}, 3},
		{"branch", session.SessionFilter{Branch: "feat"}, []int{4, 3}, 2},
		{"worktree", session.SessionFilter{Worktree: "/a/main"}, []int{8, 7, 2, 1}, 4},
		{"has violations", session.SessionFilter{HasViolations: &yes}, []int{6, 4, 2}, 3},
		{"no violations", session.SessionFilter{HasViolations: &no}, []int{8, 7, 5, 3, 1}, 5},
		{"from inclusive to exclusive", session.SessionFilter{From: minute(3), To: minute(6)}, []int{5, 4, 3}, 3},
		{"from only", session.SessionFilter{From: minute(6)}, []int{8, 7, 6}, 3},
		{"to only", session.SessionFilter{To: minute(2)}, []int{1}, 1},
		{"query any case", session.SessionFilter{Query: "login"}, []int{7, 5, 1}, 3},
		{"query percent is literal", session.SessionFilter{Query: "%"}, []int{2}, 1},
		{"query underscore is literal", session.SessionFilter{Query: "foo_bar"}, []int{3}, 1},
		{"query backslash", session.SessionFilter{Query: `\`}, nil, 0},
		{"query nothing", session.SessionFilter{Query: "zzz"}, nil, 0},
		{"limit", session.SessionFilter{Limit: 3}, []int{8, 7, 6}, 8},
		{"keyset tie on time", session.SessionFilter{BeforeTime: minute(7), BeforeID: sid(8)}, []int{7, 6, 5, 4, 3, 2, 1}, 8},
		{"keyset page", session.SessionFilter{BeforeTime: minute(7), BeforeID: sid(7), Limit: 2}, []int{6, 5}, 8},
		{"keyset time only", session.SessionFilter{BeforeTime: minute(7)}, []int{6, 5, 4, 3, 2, 1}, 8},
		{"combined", session.SessionFilter{RepoID: repoA, States: []session.State{session.StateComplete}, HasViolations: &yes}, []int{2}, 1},
		{"combined keyset", session.SessionFilter{Branch: "main", Query: "o", BeforeTime: minute(6), BeforeID: sid(6)}, []int{5, 2, 1}, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := db.ListSessions(ctx, c.f)
			if err != nil {
				t.Fatal(err)
			}
			if g := sessionNums(got); !slices.Equal(g, c.want) {
				t.Errorf("ListSessions = %v, want %v", g, c.want)
			}
			n, err := db.CountSessions(ctx, c.f)
			if err != nil {
				t.Fatal(err)
			}
			if n != c.count {
				t.Errorf("CountSessions = %d, want %d", n, c.count)
			}
		})
	}
}

// TestListSessionsPages walks every page with the last row's keyset and
// gets every row exactly once, in order.
func testListSessionsPages(t *testing.T, open Opener) {
	db, _, _ := seedFilterDB(t, open)
	ctx := context.Background()
	for _, limit := range []int{1, 2, 3, 7, 8, 50} {
		var all []int
		f := session.SessionFilter{Limit: limit}
		for page := 0; ; page++ {
			if page > 10 {
				t.Fatalf("limit %d: more pages than rows", limit)
			}
			got, err := db.ListSessions(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) > limit {
				t.Fatalf("limit %d: page of %d", limit, len(got))
			}
			if len(got) == 0 {
				break
			}
			all = append(all, sessionNums(got)...)
			last := got[len(got)-1]
			f.BeforeTime, f.BeforeID = last.CreatedAt, last.ID
		}
		if want := []int{8, 7, 6, 5, 4, 3, 2, 1}; !slices.Equal(all, want) {
			t.Errorf("limit %d: pages gave %v, want %v", limit, all, want)
		}
	}
	// The default page size.
	db2 := open(t)
	repo := newSession(t, db2, "/r").RepoID
	update(t, db2, func(w session.Writer) error {
		for i := range defaultLimit + 5 {
			if err := w.CreateSession(ctx, &session.Session{RepoID: repo, State: session.StateInit, CreatedAt: minute(i)}); err != nil {
				return err
			}
		}
		return nil
	})
	got, err := db2.ListSessions(ctx, session.SessionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != defaultLimit {
		t.Errorf("default page: %d rows, want %d", len(got), defaultLimit)
	}
}

func testSessionQueries(t *testing.T, open Opener) {
	db, repoA, repoB := seedFilterDB(t, open)
	ctx := context.Background()

	s, err := db.ActiveSession(ctx, repoA, "/a/main")
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != sid(8) {
		t.Errorf("ActiveSession(/a/main) = %s, want the newest active, %s", s.ID, sid(8))
	}
	s, err = db.ActiveSession(ctx, repoA, "/a/wt1")
	if err != nil || s.ID != sid(4) {
		t.Errorf("ActiveSession(/a/wt1) = %v, %v; want %s", s, err, sid(4))
	}
	if _, err := db.ActiveSession(ctx, repoB, "/a/main"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("ActiveSession of another repository's worktree: %v, want ErrNotFound", err)
	}

	for _, c := range []struct {
		repo int64
		n    int
		want []int
	}{
		{repoA, 10, []int{2, 3, 1}}, // by EndedAt: 12, 11, 10
		{repoA, 2, []int{2, 3}},
		{repoB, 10, []int{6}},
		{repoA, 0, nil},
	} {
		got, err := db.RecentEnded(ctx, c.repo, c.n)
		if err != nil {
			t.Fatal(err)
		}
		if g := sessionNums(got); !slices.Equal(g, c.want) {
			t.Errorf("RecentEnded(%d, %d) = %v, want %v", c.repo, c.n, g, c.want)
		}
	}

	for _, c := range []struct {
		repo  int64
		after time.Time
		want  []int
	}{
		{repoA, minute(3), []int{4, 7, 8}}, // strictly after, oldest first
		{repoA, time.Time{}, []int{1, 2, 3, 4, 7, 8}},
		{repoB, minute(6), nil},
	} {
		got, err := db.SessionsStartedAfter(ctx, c.repo, c.after)
		if err != nil {
			t.Fatal(err)
		}
		if g := sessionNums(got); !slices.Equal(g, c.want) {
			t.Errorf("SessionsStartedAfter(%d, %v) = %v, want %v", c.repo, c.after, g, c.want)
		}
	}
}

func testListViolationsFilters(t *testing.T, open Opener) {
	db, repoA, repoB := seedFilterDB(t, open)
	ctx := context.Background()
	all, err := db.ListViolations(ctx, session.ViolationFilter{})
	if err != nil {
		t.Fatal(err)
	}
	// Insertion order gives ids 1..5; violation n has all[5-n] in newest
	// first order. v3 and v4 share a time, so the id breaks the tie.
	num := map[int64]int{}
	for _, v := range all {
		num[v.ID] = int(v.ID)
	}
	nums := func(vs []session.Violation) []int {
		var out []int
		for _, v := range vs {
			out = append(out, num[v.ID])
		}
		return out
	}
	if g := nums(all); !slices.Equal(g, []int{5, 4, 3, 2, 1}) {
		t.Fatalf("all violations %v, want 5 4 3 2 1", g)
	}
	for _, c := range []struct {
		name string
		f    session.ViolationFilter
		want []int
	}{
		{"repo A", session.ViolationFilter{RepoID: repoA}, []int{3, 2, 1}},
		{"repo B", session.ViolationFilter{RepoID: repoB}, []int{5, 4}},
		{"session", session.ViolationFilter{SessionID: sid(4)}, []int{3, 2}},
		{"severities", session.ViolationFilter{Severities: []string{session.SeverityHigh, session.SeverityCritical}}, []int{4, 2, 1}},
		{"code", session.ViolationFilter{Code: "BYPASS"}, []int{5, 2}},
		{"window", session.ViolationFilter{Window: session.WindowCrossSessionDecay}, []int{5, 2}},
		{"window and repo", session.ViolationFilter{Window: session.WindowCrossSessionDecay, RepoID: repoA}, []int{2}},
		{"phase", session.ViolationFilter{Phase: "P1"}, []int{4, 3, 1}},
		{"branch joins sessions", session.ViolationFilter{Branch: "feat"}, []int{3, 2}},
		{"branch main", session.ViolationFilter{Branch: "main"}, []int{4, 1}},
		{"from to", session.ViolationFilter{From: minute(21), To: minute(23)}, []int{4, 3, 2}},
		{"keyset tie", session.ViolationFilter{BeforeTime: minute(22), BeforeID: 4}, []int{3, 2, 1}},
		{"keyset time only", session.ViolationFilter{BeforeTime: minute(22)}, []int{2, 1}},
		{"limit", session.ViolationFilter{Limit: 2}, []int{5, 4}},
		{"combined", session.ViolationFilter{RepoID: repoA, Code: "FORCED_ADVANCE", Branch: "feat"}, []int{3}},
		{"none", session.ViolationFilter{Code: "NOPE"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := db.ListViolations(ctx, c.f)
			if err != nil {
				t.Fatal(err)
			}
			if g := nums(got); !slices.Equal(g, c.want) {
				t.Errorf("ListViolations = %v, want %v", g, c.want)
			}
		})
	}
}
