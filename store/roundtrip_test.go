package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

var t0 = time.Date(2026, 7, 28, 9, 0, 0, 123456789, time.UTC)

func sid(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }

func mustEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func TestSessionRoundTrip(t *testing.T) {
	db := openTest(t)
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

func TestCreateSessionDefaults(t *testing.T) {
	db := openTest(t)
	db.Now = func() time.Time { return t0 }
	ctx := context.Background()
	s := newSession(t, db, "/r")
	if err := session.ValidateID(s.ID); err != nil {
		t.Errorf("generated id: %v", err)
	}
	if !s.CreatedAt.Equal(t0) {
		t.Errorf("CreatedAt = %v, want the store's Now %v", s.CreatedAt, t0)
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

func TestRepositories(t *testing.T) {
	db := openTest(t)
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

func TestProtocols(t *testing.T) {
	db := openTest(t)
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

func TestPhaseResults(t *testing.T) {
	db := openTest(t)
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

	err = db.Update(ctx, func(w session.Writer) error {
		return w.PutPhaseResult(ctx, session.PhaseResult{SessionID: sid(999), PhaseID: "X"})
	})
	if err == nil {
		t.Error("phase result of an unknown session was accepted")
	}
}

func TestEvidence(t *testing.T) {
	db := openTest(t)
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
	var nulls int
	if err := db.read.QueryRow("SELECT count(*) FROM evidence WHERE body IS NULL").Scan(&nulls); err != nil {
		t.Fatal(err)
	}
	if nulls != 1 {
		t.Errorf("%d rows with a NULL body, want 1 (only the one without a body)", nulls)
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

func TestEvents(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	s1 := newSession(t, db, "/r")
	s2 := newSession(t, db, "/r2")
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
	err := db.Update(ctx, func(w session.Writer) error {
		return w.AppendEvent(ctx, &session.Event{SessionID: sid(999), Token: "x"})
	})
	if err == nil {
		t.Error("event of an unknown session was accepted")
	}
}

func TestSnapshots(t *testing.T) {
	db := openTest(t)
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
}

func TestViolationRoundTrip(t *testing.T) {
	db := openTest(t)
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
	var count int
	if err := db.read.QueryRow("SELECT violation_count FROM sessions WHERE id = ?", s.ID).Scan(&count); err != nil {
		t.Fatal(err)
	}
	if count != 1 {
		t.Errorf("violation_count = %d, want 1", count)
	}
}

func TestDeleteSessionRemovesEverything(t *testing.T) {
	db := openTest(t)
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

	for _, table := range []string{"sessions", "phase_results", "evidence", "events", "violations", "snapshots"} {
		col := "session_id"
		if table == "sessions" {
			col = "id"
		}
		for id, want := range map[string]int{gone.ID: 0, kept.ID: 1} {
			var n int
			if err := db.read.QueryRow("SELECT count(*) FROM "+table+" WHERE "+col+" = ?", id).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != want {
				t.Errorf("%s: %d rows of session %s, want %d", table, n, id, want)
			}
		}
	}
	if _, err := db.GetRepository(ctx, gone.RepoID); err != nil {
		t.Errorf("repository went with the session: %v", err)
	}
}

func TestUpdateRollsBack(t *testing.T) {
	db := openTest(t)
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

	for _, q := range []string{
		"SELECT count(*) FROM repositories",
		"SELECT count(*) FROM sessions",
		"SELECT count(*) FROM events",
		"SELECT count(*) FROM violations",
		"SELECT sum(violation_count) FROM sessions",
	} {
		var n int
		if err := db.read.QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		want := 0
		if q == "SELECT count(*) FROM repositories" || q == "SELECT count(*) FROM sessions" {
			want = 1 // newSession's
		}
		if n != want {
			t.Errorf("%s = %d after rollbacks, want %d", q, n, want)
		}
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

func TestUpdateHonoursContext(t *testing.T) {
	db := openTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	err := db.Update(ctx, func(w session.Writer) error { called = true; return nil })
	if err == nil || called {
		t.Errorf("Update with a cancelled context: err %v, fn called %v", err, called)
	}
}
