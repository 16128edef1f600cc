package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

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
