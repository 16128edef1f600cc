package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// The dashboard's aggregate reads (Aggregates), moved from the SQLite
// store's tests.

func testComplianceByDay(t *testing.T, open Opener) {
	db := open(t)
	agg := aggregates(t, db)
	ctx := context.Background()
	day := func(d, h int) time.Time { return time.Date(2026, 3, d, h, 0, 0, 0, time.UTC) }
	update(t, db, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		for i, s := range []struct {
			state      session.State
			ended      time.Time
			violations int
		}{
			{session.StateComplete, day(1, 10), 0},  // compliant
			{session.StateComplete, day(1, 23), 1},  // violation
			{session.StateAbandoned, day(1, 12), 0}, // abandoned
			{session.StateComplete, day(3, 0), 0},   // midnight belongs to its day
			{session.StateTerminated, day(3, 5), 0}, // terminated
			{session.StateWorking, time.Time{}, 0},  // still running: not counted
			{session.StateComplete, day(10, 1), 0},  // outside the range
			{session.StateComplete, day(2, 23), 0},  // day 2
		} {
			sess := &session.Session{ID: sid(i + 1), RepoID: repo.ID, Worktree: "/r", State: s.state, CreatedAt: day(1, 0), EndedAt: s.ended}
			if err := w.CreateSession(ctx, sess); err != nil {
				return err
			}
			for range s.violations {
				if err := w.AddViolation(ctx, &session.Violation{SessionID: sess.ID, Severity: session.SeverityHigh, Code: "X"}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	got, err := agg.ComplianceByDay(ctx, day(1, 0), day(4, 0))
	if err != nil {
		t.Fatal(err)
	}
	want := []session.DayCompliance{{Day: day(1, 0), Ended: 3, Compliant: 1}, {Day: day(2, 0), Ended: 1, Compliant: 1}, {Day: day(3, 0), Ended: 2, Compliant: 1}}
	if !slices.Equal(got, want) {
		t.Errorf("ComplianceByDay = %+v\nwant %+v", got, want)
	}
}

// testStateCountsFollowWrites: the overview's counts (per state, sessions
// with a violation, violations), kept by triggers, match counting the rows
// after inserts, state changes, other updates, violations and deletes.
func testStateCountsFollowWrites(t *testing.T, open Opener) {
	db := open(t)
	agg := aggregates(t, db)
	ctx := context.Background()
	check := func(step string) {
		t.Helper()
		c, err := agg.CountSessionsByState(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{}
		total := 0
		for _, st := range session.States {
			n, err := db.CountSessions(ctx, session.SessionFilter{States: []session.State{st}})
			if err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				want[string(st)] = n
			}
			total += n
		}
		if fmt.Sprint(c.ByState) != fmt.Sprint(want) || c.Total != total {
			t.Errorf("%s: counts %v total %d, want %v total %d", step, c.ByState, c.Total, want, total)
		}
		yes := true
		violated, err := db.CountSessions(ctx, session.SessionFilter{HasViolations: &yes})
		if err != nil {
			t.Fatal(err)
		}
		vs, err := db.ListViolations(ctx, session.ViolationFilter{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if c.WithViolations != violated || c.Violations != len(vs) {
			t.Errorf("%s: %d sessions with violations and %d violations, want %d and %d", step, c.WithViolations, c.Violations, violated, len(vs))
		}
	}
	check("empty")
	var repoID int64
	update(t, db, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/r", "r")
		repoID = repo.ID
		for i := range 5 {
			if err := w.CreateSession(ctx, &session.Session{ID: sid(i + 1), RepoID: repo.ID, Worktree: "/r", State: session.StateInit}); err != nil {
				return err
			}
		}
		return err
	})
	check("after inserts")
	update(t, db, func(w session.Writer) error {
		for i, st := range []session.State{session.StateWorking, session.StateComplete, session.StateInit} {
			s, err := w.GetSession(ctx, sid(i+1))
			if err != nil {
				return err
			}
			s.State, s.Objective = st, "changed"
			if err := w.UpdateSession(ctx, s); err != nil {
				return err
			}
		}
		return w.DeleteSession(ctx, sid(5))
	})
	check("after updates and a delete")
	// Violations: two on one session, one on another, one outside any
	// session; then the second session goes (its violation with it).
	update(t, db, func(w session.Writer) error {
		for _, id := range []string{sid(1), sid(1), sid(2), ""} {
			if err := w.AddViolation(ctx, &session.Violation{SessionID: id, RepoID: repoID, Severity: session.SeverityHigh,
				Code: "FORCED_ADVANCE", Window: session.WindowSession}); err != nil {
				return err
			}
		}
		return nil
	})
	check("after violations")
	update(t, db, func(w session.Writer) error { return w.DeleteSession(ctx, sid(2)) })
	check("after deleting a violated session")
	rolled := db.Update(ctx, func(w session.Writer) error {
		if err := w.CreateSession(ctx, &session.Session{ID: sid(9), RepoID: repoID, Worktree: "/r", State: session.StateEnding}); err != nil {
			return err
		}
		return fmt.Errorf("roll back")
	})
	if rolled == nil {
		t.Fatal("Update did not fail")
	}
	check("after a rollback")
}

func testSearchIndexFollowsObjectiveChanges(t *testing.T, open Opener) {
	db := open(t)
	agg := aggregates(t, db)
	seedSearch(t, db)
	ctx := context.Background()
	search := func(q string) int {
		t.Helper()
		p, err := agg.DashboardSessions(ctx, session.SessionFilter{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		return len(p.Sessions)
	}
	if search("needle") != 1 {
		t.Fatal("seeded objective not found")
	}
	update(t, db, func(w session.Writer) error {
		for _, s := range mustList(t, db, "needle") {
			s.Objective = "a haystack now"
			if err := w.UpdateSession(ctx, s); err != nil {
				return err
			}
		}
		return w.DeleteSession(ctx, mustList(t, db, "LOGIN page")[0].ID)
	})
	if n := search("needle"); n != 0 {
		t.Errorf("old objective still found %d times", n)
	}
	if n := search("haystack"); n != 1 {
		t.Errorf("new objective found %d times, want 1", n)
	}
	if n := search("login"); n != 1 {
		t.Errorf("deleted session still searchable: %d matches, want 1", n)
	}
}

func testDashboardSmallReads(t *testing.T, open Opener) {
	db := open(t)
	agg := aggregates(t, db)
	ctx := context.Background()
	update(t, db, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		for i, sha := range []string{"aaa", "aaa", "bbb"} {
			if err := w.CreateSession(ctx, &session.Session{ID: sid(i + 1), RepoID: repo.ID, Worktree: "/r", State: session.StateWorking, ProtocolSHA: sha}); err != nil {
				return err
			}
		}
		for range 3 {
			if err := w.AppendEvent(ctx, &session.Event{SessionID: sid(1), Token: "t"}); err != nil {
				return err
			}
		}
		for range 2 {
			if err := w.AddViolation(ctx, &session.Violation{SessionID: sid(2), Severity: session.SeverityLow, Code: "X"}); err != nil {
				return err
			}
		}
		if err := w.PutProtocol(ctx, &session.Protocol{SHA256: "aaa", Name: "P.md", CreatedAt: t0}); err != nil {
			return err
		}
		return w.PutProtocol(ctx, &session.Protocol{SHA256: "ccc", Name: "Q.md", CreatedAt: t0.Add(time.Hour)})
	})
	if n, err := agg.LastEventSeq(ctx, sid(1)); err != nil || n != 3 {
		t.Errorf("LastEventSeq = %d, %v; want 3", n, err)
	}
	if n, err := agg.LastEventSeq(ctx, sid(2)); err != nil || n != 0 {
		t.Errorf("LastEventSeq without events = %d, %v; want 0", n, err)
	}
	vc, err := agg.ViolationCounts(ctx, []string{sid(1), sid(2), sid(99)})
	if err != nil || fmt.Sprint(vc) != fmt.Sprint(map[string]int{sid(1): 0, sid(2): 2}) {
		t.Errorf("ViolationCounts = %v, %v", vc, err)
	}
	ps, err := agg.ListProtocols(ctx, 10)
	if err != nil || len(ps) != 2 || ps[0].SHA256 != "ccc" || ps[0].Sessions != 0 || ps[1].Sessions != 2 || ps[1].Name != "P.md" {
		t.Errorf("ListProtocols = %+v, %v", ps, err)
	}
	c, err := agg.CountSessionsByState(ctx)
	if err != nil || c.Total != 3 || c.WithViolations != 1 || c.Violations != 2 {
		t.Errorf("CountSessionsByState = %+v, %v", c, err)
	}
}

func mustList(t *testing.T, db session.Store, q string) []*session.Session {
	t.Helper()
	l, err := db.ListSessions(context.Background(), session.SessionFilter{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// seedSearch stores sessions whose objectives the search test looks for:
// many common ones (more than a store's search may probe) and rare ones.
func seedSearch(t *testing.T, db session.Store) {
	t.Helper()
	ctx := context.Background()
	update(t, db, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		n := 0
		add := func(objective, branch string, state session.State) error {
			n++
			return w.CreateSession(ctx, &session.Session{ID: sid(n), RepoID: repo.ID, Worktree: "/r/wt" + fmt.Sprint(n%3), Branch: branch,
				Objective: objective, State: state, CreatedAt: t0.Add(time.Duration(n) * time.Minute)})
		}
		for i := range 620 {
			br := "main"
			if i%4 == 0 {
				br = "feat"
			}
			if err := add(fmt.Sprintf("common task %d", i), br, session.StateComplete); err != nil {
				return err
			}
		}
		for _, o := range []string{"Fix the LOGIN page", "login again", "rare needle here", "100% coverage_x", `say "hi" please`,
			"Ärger mit Umlauten", "ärger klein", "ab"} {
			if err := add(o, "main", session.StateWorking); err != nil {
				return err
			}
		}
		return nil
	})
}
