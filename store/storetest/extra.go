package storetest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// testIdentity: who ran a session and where round-trip, and the user, host
// and repo filters match them; repo matches the repository's Key (its
// origin, or its root without one), so two clones of one origin are one
// repository to the filter.
func testIdentity(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	var cloneA, cloneB, local *session.Repository
	update(t, db, func(w session.Writer) error {
		var err error
		if cloneA, err = w.EnsureRepository(ctx, "/home/ann/proj", "proj"); err != nil {
			return err
		}
		if cloneB, err = w.EnsureRepository(ctx, "/home/bob/src/proj", "proj"); err != nil {
			return err
		}
		if local, err = w.EnsureRepository(ctx, "/home/ann/scratch", "scratch"); err != nil {
			return err
		}
		for _, r := range []*session.Repository{cloneA, cloneB} {
			if err := w.SetRepositoryOrigin(ctx, r.ID, "github.com/o/proj"); err != nil {
				return err
			}
		}
		if err := w.SetRepositoryOrigin(ctx, 424242, "x"); !errors.Is(err, session.ErrNotFound) {
			t.Errorf("origin of an unknown repository: %v, want ErrNotFound", err)
		}
		for i, s := range []session.Session{
			{RepoID: cloneA.ID, UserName: "Ann Lee", UserEmail: "ann@example.com", Host: "ann-laptop"},
			{RepoID: cloneB.ID, UserName: "Bob", UserEmail: "bob@example.com", Host: "bob-desk"},
			{RepoID: local.ID, UserName: "Ann Lee", UserEmail: "ann@example.com", Host: "ann-laptop"},
			{RepoID: cloneA.ID}, // recorded before identity existed
		} {
			s.ID, s.State, s.Worktree, s.CreatedAt = sid(i+1), session.StateWorking, "/w", minute(i)
			if err := w.CreateSession(ctx, &s); err != nil {
				return err
			}
		}
		return nil
	})
	// Violations: of sessions 1 (Ann, clone A), 2 (Bob, clone B) and one
	// outside any session in the local repository.
	update(t, db, func(w session.Writer) error {
		for _, v := range []*session.Violation{
			{SessionID: sid(1), Severity: session.SeverityHigh, Code: "A", CreatedAt: minute(10)},
			{SessionID: sid(2), Severity: session.SeverityHigh, Code: "B", CreatedAt: minute(11)},
			{RepoID: local.ID, Severity: session.SeverityLow, Code: "C", CreatedAt: minute(12)},
		} {
			if err := w.AddViolation(ctx, v); err != nil {
				return err
			}
		}
		return nil
	})
	for _, c := range []struct {
		f    session.ViolationFilter
		want string
	}{
		{session.ViolationFilter{User: "ann@example.com"}, "A"},
		{session.ViolationFilter{User: "Bob"}, "B"},
		{session.ViolationFilter{Host: "bob-desk"}, "B"},
		{session.ViolationFilter{Repo: "github.com/o/proj"}, "B,A"},
		{session.ViolationFilter{Repo: "/home/ann/scratch"}, "C"},
		{session.ViolationFilter{Repo: "github.com/o/proj", Host: "ann-laptop"}, "A"},
	} {
		vs, err := db.ListViolations(ctx, c.f)
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, v := range vs {
			codes = append(codes, v.Code)
		}
		if got := strings.Join(codes, ","); got != c.want {
			t.Errorf("ListViolations(%+v) = %s, want %s", c.f, got, c.want)
		}
	}
	got, err := db.GetRepository(ctx, cloneB.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "repository with origin", got, &session.Repository{ID: cloneB.ID, Root: "/home/bob/src/proj", Name: "proj", Origin: "github.com/o/proj"})
	if got.Key() != "github.com/o/proj" || local.Key() != "/home/ann/scratch" {
		t.Errorf("keys %q, %q", got.Key(), local.Key())
	}
	s, err := db.GetSession(ctx, sid(2))
	if err != nil {
		t.Fatal(err)
	}
	if s.UserName != "Bob" || s.UserEmail != "bob@example.com" || s.Host != "bob-desk" {
		t.Errorf("identity round trip: %q %q %q", s.UserName, s.UserEmail, s.Host)
	}
	// An update keeps them (UpdateSession writes every field).
	s.Summary = "done"
	update(t, db, func(w session.Writer) error { return w.UpdateSession(ctx, s) })
	if again, _ := db.GetSession(ctx, sid(2)); again == nil || again.Host != "bob-desk" || again.Summary != "done" {
		t.Errorf("after UpdateSession: %+v", again)
	}
	for _, c := range []struct {
		name string
		f    session.SessionFilter
		want []int
	}{
		{"user by email", session.SessionFilter{User: "ann@example.com"}, []int{3, 1}},
		{"user by name", session.SessionFilter{User: "Bob"}, []int{2}},
		{"user is exact", session.SessionFilter{User: "ann"}, nil},
		{"host", session.SessionFilter{Host: "ann-laptop"}, []int{3, 1}},
		{"repo by origin spans clones", session.SessionFilter{Repo: "github.com/o/proj"}, []int{4, 2, 1}},
		{"repo by root without origin", session.SessionFilter{Repo: "/home/ann/scratch"}, []int{3}},
		{"root of a clone with an origin is not its key", session.SessionFilter{Repo: "/home/ann/proj"}, nil},
		{"combined", session.SessionFilter{Repo: "github.com/o/proj", User: "ann@example.com", Host: "ann-laptop"}, []int{1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			list, err := db.ListSessions(ctx, c.f)
			if err != nil {
				t.Fatal(err)
			}
			if g := sessionNums(list); !slices.Equal(g, c.want) {
				t.Errorf("ListSessions = %v, want %v", g, c.want)
			}
			n, err := db.CountSessions(ctx, c.f)
			if err != nil || n != len(c.want) {
				t.Errorf("CountSessions = %d, %v; want %d", n, err, len(c.want))
			}
			page, err := aggregates(t, db).DashboardSessions(ctx, c.f)
			if err != nil {
				t.Fatal(err)
			}
			if g := sessionNums(page.Sessions); !slices.Equal(g, c.want) || page.Total != len(c.want) {
				t.Errorf("DashboardSessions = %v (total %d), want %v", g, page.Total, c.want)
			}
		})
	}
}

func testAgentBindings(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	ar, ok := db.(session.AgentReader)
	if !ok {
		t.Fatalf("%T is no session.AgentReader", db)
	}
	s := newSession(t, db, "/r")
	b := &session.AgentBinding{Agent: "claude", AgentSession: "abc", SessionID: s.ID, Worktree: "/r", StopBlocks: 2, TurnMark: "m1", CreatedAt: t0, UpdatedAt: t0}
	update(t, db, func(w session.Writer) error {
		aw, ok := w.(session.AgentWriter)
		if !ok {
			t.Fatalf("%T is no session.AgentWriter", w)
		}
		if err := aw.PutAgentBinding(ctx, b); err != nil {
			return err
		}
		if err := aw.PutToolStart(ctx, "claude", "tool1", t0); err != nil {
			return err
		}
		return aw.PutToolStart(ctx, "claude", "tool1", t0.Add(time.Second)) // replaces
	})
	got, err := ar.GetAgentBinding(ctx, "claude", "abc")
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "binding", got, b)
	if _, err := ar.GetAgentBinding(ctx, "claude", "nope"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("unbound: %v, want ErrNotFound", err)
	}
	b2 := *b
	b2.StopBlocks, b2.TurnMark, b2.UpdatedAt, b2.CreatedAt = 0, "m2", t0.Add(time.Hour), t0.Add(time.Hour)
	update(t, db, func(w session.Writer) error {
		aw := w.(session.AgentWriter)
		if err := aw.PutAgentBinding(ctx, &b2); err != nil {
			return err
		}
		at, err := aw.TakeToolStart(ctx, "claude", "tool1")
		if err != nil {
			return err
		}
		if !at.Equal(t0.Add(time.Second)) {
			t.Errorf("TakeToolStart = %v, want the replaced start %v", at, t0.Add(time.Second))
		}
		if at, err = aw.TakeToolStart(ctx, "claude", "tool1"); err != nil || !at.IsZero() {
			t.Errorf("second TakeToolStart = %v, %v; want the zero time (taken)", at, err)
		}
		return nil
	})
	got, err = ar.GetAgentBinding(ctx, "claude", "abc")
	if err != nil {
		t.Fatal(err)
	}
	want := b2
	want.CreatedAt = t0 // an upsert keeps when the binding was made
	mustEqual(t, "binding after upsert", got, &want)
	// SessionBoundTo: the agent's, not another agent's or session's.
	sr, ok := db.(session.SessionAgentReader)
	if !ok {
		t.Fatalf("%T is no session.SessionAgentReader", db)
	}
	other := newSession(t, db, "/r2")
	for _, c := range []struct {
		sid, agent string
		want       bool
	}{{s.ID, "claude", true}, {s.ID, "gemini", false}, {other.ID, "claude", false}} {
		if got, err := sr.SessionBoundTo(ctx, c.sid, c.agent); err != nil || got != c.want {
			t.Errorf("SessionBoundTo(%s, %s) = %v, %v; want %v", c.sid, c.agent, got, err, c.want)
		}
	}
}

func testTrustedFiles(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	s := newSession(t, db, "/r")
	fs := []*session.TrustedFile{
		{RepoID: s.RepoID, Path: "SESSION-PROTOCOL.md", SHA256: "aa", Source: session.TrustFirstUse, CreatedAt: t0},
		{RepoID: s.RepoID, Path: "SESSION-PROTOCOL.md", SHA256: "", Source: session.TrustAccept, Who: "ann", Reason: "removed on purpose", Via: "cli", SessionID: s.ID, CreatedAt: t0.Add(time.Second)},
	}
	update(t, db, func(w session.Writer) error {
		for _, f := range fs {
			if err := w.AddTrustedFile(ctx, f); err != nil {
				return err
			}
		}
		return nil
	})
	if fs[0].ID == 0 || fs[1].ID <= fs[0].ID {
		t.Errorf("ids %d, %d: want increasing", fs[0].ID, fs[1].ID)
	}
	got, err := db.TrustedFiles(ctx, s.RepoID)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "TrustedFiles", got, []session.TrustedFile{*fs[0], *fs[1]})
	if other, err := db.TrustedFiles(ctx, s.RepoID+1000); err != nil || len(other) != 0 {
		t.Errorf("another repository's trusted files: %v %v", other, err)
	}
}

// testSecretsRedacted: values that look like secrets never reach the store.
func testSecretsRedacted(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	s := newSession(t, db, "/r")
	update(t, db, func(w session.Writer) error {
		s.Objective = "rotate token=hunter2a"
		if err := w.UpdateSession(ctx, s); err != nil {
			return err
		}
		if err := w.AddEvidence(ctx, &session.Evidence{SessionID: s.ID, Kind: "manual", Ref: "password=hunter2b"}); err != nil {
			return err
		}
		if err := w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "t", Detail: `{"reason":"api_key=hunter2c"}`}); err != nil {
			return err
		}
		return w.AddViolation(ctx, &session.Violation{SessionID: s.ID, Code: "X", Severity: session.SeverityLow, Message: "SESSIONGATE_BYPASS=Bearer hunter2d-abcdef"})
	})
	var texts []string
	got, _ := db.GetSession(ctx, s.ID)
	texts = append(texts, got.Objective)
	evs, _ := db.ListEvidence(ctx, s.ID)
	for _, e := range evs {
		texts = append(texts, e.Ref)
	}
	es, _ := db.ListEvents(ctx, s.ID, 0, 0)
	for _, e := range es {
		texts = append(texts, e.Detail)
	}
	vs, _ := db.ListViolations(ctx, session.ViolationFilter{})
	for _, v := range vs {
		texts = append(texts, v.Message)
	}
	if len(texts) != 4 {
		t.Fatalf("read back %d texts, want 4", len(texts))
	}
	for _, x := range texts {
		if strings.Contains(x, "hunter2") {
			t.Errorf("stored %q: a secret-looking value was kept", x)
		}
	}
}

// testAggregates: the dashboard's reads agree with the interface's.
func testAggregates(t *testing.T, open Opener) {
	db, repoA, _ := seedFilterDB(t, open)
	ctx := context.Background()
	a := aggregates(t, db)
	counts, err := a.CountSessionsByState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "CountSessionsByState", counts, &session.SessionCounts{
		ByState:        map[string]int{"COMPLETE": 3, "ABANDONED": 1, "WORKING": 2, "INIT": 1, "ENDING": 1},
		Total:          8,
		WithViolations: 3,
		Violations:     5,
	})
	// Ended: s1 min 10, s3 min 11 (abandoned), s2 min 12 (violation), s6
	// min 13 (violation): all on t0's day, one compliant.
	days, err := a.ComplianceByDay(ctx, t0.Add(-24*time.Hour), t0.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "ComplianceByDay", days, []session.DayCompliance{{Day: t0.Truncate(24 * time.Hour), Ended: 4, Compliant: 1}})
	if days, err := a.ComplianceByDay(ctx, minute(12), minute(13)); err != nil || len(days) != 1 || days[0].Ended != 1 {
		t.Errorf("ComplianceByDay [min 12, min 13) = %+v, %v; want one ended (To is exclusive)", days, err)
	}
	vc, err := a.ViolationCounts(ctx, []string{sid(2), sid(4), sid(5), sid(999)})
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "ViolationCounts", vc, map[string]int{sid(2): 1, sid(4): 2, sid(5): 0})
	update(t, db, func(w session.Writer) error {
		for range 3 {
			if err := w.AppendEvent(ctx, &session.Event{SessionID: sid(1), Token: "t"}); err != nil {
				return err
			}
		}
		return w.PutProtocol(ctx, &session.Protocol{SHA256: "p1", Name: "SESSION-PROTOCOL.md", Content: []byte("x"), CreatedAt: t0})
	})
	if seq, err := a.LastEventSeq(ctx, sid(1)); err != nil || seq != 3 {
		t.Errorf("LastEventSeq = %d, %v; want 3", seq, err)
	}
	if seq, err := a.LastEventSeq(ctx, sid(2)); err != nil || seq != 0 {
		t.Errorf("LastEventSeq without events = %d, %v; want 0", seq, err)
	}
	update(t, db, func(w session.Writer) error {
		s, err := w.GetSession(ctx, sid(1))
		if err != nil {
			return err
		}
		s.ProtocolSHA = "p1"
		return w.UpdateSession(ctx, s)
	})
	ps, err := a.ListProtocols(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "ListProtocols", ps, []session.ProtocolVersion{{SHA256: "p1", Name: "SESSION-PROTOCOL.md", CreatedAt: t0, Sessions: 1}})
	for _, f := range []session.SessionFilter{
		{},
		{RepoID: repoA},
		{States: []session.State{session.StateComplete}},
		{Query: "login"},
		{Query: "fooXbar"},
		{Limit: 2},
	} {
		page, err := a.DashboardSessions(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		list, _ := db.ListSessions(ctx, f)
		n, _ := db.CountSessions(ctx, f)
		if !slices.Equal(sessionNums(page.Sessions), sessionNums(list)) || (page.TotalExact && page.Total != n) || (!page.TotalExact && page.Total > n) {
			t.Errorf("DashboardSessions(%+v) = %v total %d (exact %v); ListSessions %v, CountSessions %d",
				f, sessionNums(page.Sessions), page.Total, page.TotalExact, sessionNums(list), n)
		}
	}
}

// testViolationSeverities: the dashboard's worst-severity read, which both
// stores have (the server treats it as optional).
func testViolationSeverities(t *testing.T, open Opener) {
	db, _, _ := seedFilterDB(t, open)
	sv, ok := db.(interface {
		ViolationSeverities(ctx context.Context, ids []string) (map[string]map[string]int, error)
	})
	if !ok {
		t.Fatalf("%T lacks ViolationSeverities", db)
	}
	got, err := sv.ViolationSeverities(context.Background(), []string{sid(1), sid(2), sid(4), sid(999)})
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "ViolationSeverities", got, map[string]map[string]int{
		sid(2): {session.SeverityHigh: 1},
		sid(4): {session.SeverityCritical: 1, session.SeverityLow: 1},
	})
}
