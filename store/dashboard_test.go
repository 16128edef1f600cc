package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

func TestComplianceByDay(t *testing.T) {
	db := openTest(t)
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
	got, err := db.ComplianceByDay(ctx, day(1, 0), day(4, 0))
	if err != nil {
		t.Fatal(err)
	}
	want := []DayCompliance{{Day: day(1, 0), Ended: 3, Compliant: 1}, {Day: day(2, 0), Ended: 1, Compliant: 1}, {Day: day(3, 0), Ended: 2, Compliant: 1}}
	if !slices.Equal(got, want) {
		t.Errorf("ComplianceByDay = %+v\nwant %+v", got, want)
	}
}

// TestStateCountsFollowWrites: session_state_counts, kept by triggers,
// matches a GROUP BY after inserts, state changes, other updates and deletes.
func TestStateCountsFollowWrites(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	check := func(step string) {
		t.Helper()
		c, err := db.CountSessionsByState(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{}
		total := 0
		rows, err := db.read.Query(`SELECT state, count(*) FROM sessions GROUP BY state`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			var n int
			rows.Scan(&s, &n)
			want[s] = n
			total += n
		}
		rows.Close()
		if fmt.Sprint(c.ByState) != fmt.Sprint(want) || c.Total != total {
			t.Errorf("%s: counts %v total %d, want %v total %d", step, c.ByState, c.Total, want, total)
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

// seedSearch stores sessions whose objectives the search tests look for:
// common ones ("common task", more than searchProbe) and rare ones.
func seedSearch(t *testing.T, db *DB) {
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
		for i := range searchProbe + 120 {
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

// TestDashboardSessionsMatchesListAndCount: every path of DashboardSessions
// (state counts, trigram index, dense walk, short LIKE) returns what
// ListSessions and CountSessions say, page by page.
func TestDashboardSessionsMatchesListAndCount(t *testing.T) {
	db := openTest(t)
	seedSearch(t, db)
	ctx := context.Background()
	yes := true
	for _, c := range []struct {
		name  string
		f     session.SessionFilter
		exact bool
	}{
		{"all", session.SessionFilter{}, true},
		{"states", session.SessionFilter{States: []session.State{session.StateWorking}}, true},
		{"branch", session.SessionFilter{Branch: "feat"}, true},
		{"violations", session.SessionFilter{HasViolations: &yes}, true},
		{"rare word", session.SessionFilter{Query: "needle"}, true},
		{"case", session.SessionFilter{Query: "login"}, true},
		{"like wildcards are literal", session.SessionFilter{Query: "100%"}, true},
		{"underscore", session.SessionFilter{Query: "e_x"}, true},
		{"quotes", session.SessionFilter{Query: `"hi"`}, true},
		{"non-ASCII like LIKE", session.SessionFilter{Query: "ärger"}, true},
		{"rare with branch", session.SessionFilter{Query: "login", Branch: "main", States: []session.State{session.StateWorking}}, true},
		{"no match", session.SessionFilter{Query: "zzzz"}, true},
		{"dense", session.SessionFilter{Query: "common"}, false},
		{"dense narrowed", session.SessionFilter{Query: "task 1", Branch: "feat"}, true},
		{"short", session.SessionFilter{Query: "ab"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantTotal, err := db.CountSessions(ctx, c.f)
			if err != nil {
				t.Fatal(err)
			}
			f := c.f
			f.Limit = 40
			pages := 0
			for {
				want, err := db.ListSessions(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				got, err := db.DashboardSessions(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				if ids(got.Sessions) != ids(want) {
					t.Fatalf("page %d: got %s\nwant %s", pages, ids(got.Sessions), ids(want))
				}
				if got.TotalExact != c.exact {
					t.Errorf("TotalExact = %v, want %v", got.TotalExact, c.exact)
				}
				if got.TotalExact && got.Total != wantTotal {
					t.Errorf("Total = %d, want %d", got.Total, wantTotal)
				}
				if !got.TotalExact && got.Total > wantTotal {
					t.Errorf("Total = %d is more than the %d matches", got.Total, wantTotal)
				}
				pages++
				if len(want) < f.Limit || pages > 30 {
					break
				}
				last := want[len(want)-1]
				f.BeforeTime, f.BeforeID = last.CreatedAt, last.ID
			}
		})
	}
}

func ids(ss []*session.Session) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.ID[len(s.ID)-4:]
	}
	return strings.Join(out, ",")
}

func TestSearchIndexFollowsObjectiveChanges(t *testing.T) {
	db := openTest(t)
	seedSearch(t, db)
	ctx := context.Background()
	search := func(q string) int {
		t.Helper()
		p, err := db.DashboardSessions(ctx, session.SessionFilter{Query: q})
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

func mustList(t *testing.T, db *DB, q string) []*session.Session {
	t.Helper()
	l, err := db.ListSessions(context.Background(), session.SessionFilter{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestDashboardSmallReads(t *testing.T) {
	db := openTest(t)
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
	if n, err := db.LastEventSeq(ctx, sid(1)); err != nil || n != 3 {
		t.Errorf("LastEventSeq = %d, %v; want 3", n, err)
	}
	if n, err := db.LastEventSeq(ctx, sid(2)); err != nil || n != 0 {
		t.Errorf("LastEventSeq without events = %d, %v; want 0", n, err)
	}
	vc, err := db.ViolationCounts(ctx, []string{sid(1), sid(2), sid(99)})
	if err != nil || fmt.Sprint(vc) != fmt.Sprint(map[string]int{sid(1): 0, sid(2): 2}) {
		t.Errorf("ViolationCounts = %v, %v", vc, err)
	}
	ps, err := db.ListProtocols(ctx, 10)
	if err != nil || len(ps) != 2 || ps[0].SHA256 != "ccc" || ps[0].Sessions != 0 || ps[1].Sessions != 2 || ps[1].Name != "P.md" {
		t.Errorf("ListProtocols = %+v, %v", ps, err)
	}
	c, err := db.CountSessionsByState(ctx)
	if err != nil || c.Total != 3 || c.WithViolations != 1 || c.Violations != 2 {
		t.Errorf("CountSessionsByState = %+v, %v", c, err)
	}
}

// TestDashboardQueryPlans: the dashboard's own queries use indexes, never a
// scan of the sessions table or a sort of all of it.
func TestDashboardQueryPlans(t *testing.T) {
	db := openTest(t)
	yes := true
	search, searchArgs := searchFrom(session.SessionFilter{Query: "login", Branch: "main", BeforeTime: t0, BeforeID: sid(1)}, true)
	for _, c := range []struct {
		name  string
		query string
		args  []any
		want  string
	}{
		{"compliance", `SELECT ended_at / ?, count(*) FROM sessions WHERE ended_at > 0 AND ended_at >= ? AND ended_at < ? GROUP BY 1`,
			[]any{dayNanos, 1, 2}, "COVERING INDEX sessions_ended_compliance"},
		{"with violations", `SELECT count(*) FROM sessions WHERE violation_count > 0`, nil, "sessions_violated_created"},
		{"worktree", listQuery(session.SessionFilter{Worktree: "/w"}), []any{"/w", 50}, "sessions_worktree_created"},
		{"violations by code", listVQuery(session.ViolationFilter{Code: "X"}), []any{"X", 50}, "violations_code_created"},
		{"violations by phase", listVQuery(session.ViolationFilter{Phase: "P"}), []any{"P", 50}, "violations_phase_created"},
		{"search", `SELECT s.id` + search + ` ORDER BY s.created_at DESC LIMIT 5`, searchArgs, "VIRTUAL TABLE"},
		{"has violations", listQuery(session.SessionFilter{HasViolations: &yes}), []any{50}, "sessions_violated_created"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows, err := db.read.Query("EXPLAIN QUERY PLAN "+c.query, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var plan []string
			for rows.Next() {
				var id, parent, notused int
				var detail string
				if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
					t.Fatal(err)
				}
				plan = append(plan, detail)
			}
			p := strings.Join(plan, "; ")
			if !strings.Contains(p, c.want) || strings.Contains(p, "SCAN sessions;") || strings.HasSuffix(p, "SCAN sessions") {
				t.Errorf("plan %q: want %s and no table scan", p, c.want)
			}
			t.Log(p)
		})
	}
}

func listQuery(f session.SessionFilter) string {
	q, _ := listSessionsQuery(f)
	return q
}

func listVQuery(f session.ViolationFilter) string {
	q, _ := listViolationsQuery(f)
	return q
}
