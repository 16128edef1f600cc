package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

func minute(n int) time.Time { return t0.Add(time.Duration(n) * time.Minute) }

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
func seedFilterDB(t *testing.T) (db *DB, repoA, repoB int64) {
	db = openTest(t)
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

func TestListSessionsFilters(t *testing.T) {
	db, repoA, repoB := seedFilterDB(t)
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
func TestListSessionsPages(t *testing.T) {
	db, _, _ := seedFilterDB(t)
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
	db2 := openTest(t)
	repo := newSession(t, db2, "/r").RepoID
	update(t, db2, func(w session.Writer) error {
		for i := range DefaultLimit + 5 {
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
	if len(got) != DefaultLimit {
		t.Errorf("default page: %d rows, want %d", len(got), DefaultLimit)
	}
}

func TestSessionQueries(t *testing.T) {
	db, repoA, repoB := seedFilterDB(t)
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

func TestListViolationsFilters(t *testing.T) {
	db, repoA, repoB := seedFilterDB(t)
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

// TestQueryPlans checks that the dashboard's queries walk an index in
// order instead of scanning the table or sorting in a temp b-tree.
func TestQueryPlans(t *testing.T) {
	db := openTest(t)
	yes := true
	sess := func(f session.SessionFilter) func() (string, []any) {
		return func() (string, []any) { return listSessionsQuery(f) }
	}
	viol := func(f session.ViolationFilter) func() (string, []any) {
		return func() (string, []any) { return listViolationsQuery(f) }
	}
	raw := func(q string, args ...any) func() (string, []any) {
		return func() (string, []any) { return q, args }
	}
	for _, c := range []struct {
		name  string
		query func() (string, []any)
	}{
		{"sessions page", sess(session.SessionFilter{})},
		{"sessions keyset", sess(session.SessionFilter{BeforeTime: t0, BeforeID: sid(1)})},
		{"sessions by state", sess(session.SessionFilter{States: []session.State{session.StateComplete}, BeforeTime: t0})},
		{"sessions by branch", sess(session.SessionFilter{Branch: "main"})},
		{"sessions by repo", sess(session.SessionFilter{RepoID: 1})},
		{"sessions with violations", sess(session.SessionFilter{HasViolations: &yes})},
		{"active session", raw(`SELECT id FROM sessions WHERE repo_id = ? AND worktree = ? AND state IN `+activeStates+`
			ORDER BY created_at DESC, id DESC LIMIT 1`, 1, "/w")},
		{"recent ended", raw(`SELECT id FROM sessions WHERE repo_id = ? AND ended_at > 0 ORDER BY ended_at DESC, id DESC LIMIT ?`, 1, 5)},
		{"violations page", viol(session.ViolationFilter{BeforeTime: t0, BeforeID: 9})},
		{"violations by severity", viol(session.ViolationFilter{Severities: []string{session.SeverityHigh}})},
		{"violations by session", viol(session.ViolationFilter{SessionID: sid(1)})},
		{"events", raw(`SELECT seq FROM events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`, sid(1), 0, -1)},
		{"last events", raw(`SELECT seq FROM events WHERE session_id = ? ORDER BY seq DESC LIMIT ?`, sid(1), 5)},
	} {
		t.Run(c.name, func(t *testing.T) {
			query, args := c.query()
			rows, err := db.read.Query("EXPLAIN QUERY PLAN "+query, args...)
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
			if strings.Contains(p, "TEMP B-TREE") || (strings.Contains(p, "SCAN") && !strings.Contains(p, "INDEX")) {
				t.Errorf("plan %q: sorts or scans without an index", p)
			}
			t.Log(p)
		})
	}
}
