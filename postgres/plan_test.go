package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sessiongate/sessiongate/session"
)

// seedSkewed fills a team database with n sessions over the year before
// end, skewed like a large one: nearly all ended (75% COMPLETE, 12.5%
// ABANDONED, 12.5% TERMINATED), the newest 10 running, 100 repositories,
// 50 people, a violation on one in ten (a bypass on one in a hundred),
// two events each; then VACUUM ANALYZE, as autovacuum leaves a database.
func seedSkewed(t *testing.T, ctx context.Context, url string, n int, end time.Time) {
	t.Helper()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var repos, sess, evs, vios [][]any
	for r := 1; r <= 100; r++ {
		repos = append(repos, []any{int64(r), fmt.Sprintf("/srv/r%03d", r), fmt.Sprintf("github.com/o/r%03d", r)})
	}
	states := []string{"COMPLETE", "COMPLETE", "COMPLETE", "COMPLETE", "COMPLETE", "COMPLETE", "ABANDONED", "TERMINATED"}
	year := int64(365 * 24 * time.Hour)
	for i := range n {
		id := fmt.Sprintf("s%07d", i)
		created := end.UnixNano() - year + int64(i)*(year/int64(n))
		state, ended := states[i%len(states)], created+int64(time.Hour)
		if i >= n-10 {
			state, ended = "WORKING", 0
		}
		vc, repo := 0, int64(i%100+1)
		if i%10 == 3 {
			vc = 1
			code := "FORCED_ADVANCE"
			if i%100 == 3 {
				code = session.CodeBypass
			}
			vios = append(vios, []any{id, repo, "HIGH", code, ended})
		}
		sess = append(sess, []any{id, repo, fmt.Sprintf("/srv/r%03d/wt%d", repo, i%8), fmt.Sprintf("feature/%d", i%500), state, created, ended, vc,
			fmt.Sprintf("dev%d@example.com", i%50)})
		for seq := 1; seq <= 2; seq++ {
			evs = append(evs, []any{id, int64(seq), "tool:x", created})
		}
	}
	for _, c := range []struct {
		table string
		cols  []string
		rows  [][]any
	}{
		{"repositories", []string{"id", "root", "origin"}, repos},
		{"sessions", []string{"id", "repo_id", "worktree", "branch", "state", "created_at", "ended_at", "violation_count", "user_email"}, sess},
		{"events", []string{"session_id", "seq", "token", "created_at"}, evs},
		{"violations", []string{"session_id", "repo_id", "severity", "code", "created_at"}, vios},
	} {
		if _, err := conn.CopyFrom(ctx, pgx.Identifier{c.table}, c.cols, pgx.CopyFromRows(c.rows)); err != nil {
			t.Fatalf("seed %s: %v", c.table, err)
		}
	}
	if _, err := conn.Exec(ctx, "VACUUM ANALYZE"); err != nil {
		t.Fatal(err)
	}
}

// planNode is a node of EXPLAIN (FORMAT JSON).
type planNode struct {
	NodeType  string     `json:"Node Type"`
	Relation  string     `json:"Relation Name"`
	IndexName string     `json:"Index Name"`
	Plans     []planNode `json:"Plans"`
}

func (p planNode) walk(fn func(planNode)) {
	fn(p)
	for _, c := range p.Plans {
		c.walk(fn)
	}
}

// big are the tables that grow with sessions: a sequential scan of one is
// a full scan at a million rows.
var big = []string{"sessions", "events", "violations", "evidence", "phase_results", "team_days"}

// TestQueryPlansAtScale: each dashboard query reads the index meant for it,
// never a whole table that grows with sessions, and sorts only what is
// bounded, on a database with statistics of a skewed year of sessions
// (EXPLAIN (FORMAT JSON) after VACUUM ANALYZE). Hooks never read
// PostgreSQL (they record locally).
func TestQueryPlansAtScale(t *testing.T) {
	ctx := context.Background()
	u := newURL(t)
	db := openURL(t, u) // the schema, through the migrations
	end := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	seedSkewed(t, ctx, u, 20000, end)
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// The seed's per-day deltas folded, as the first read does, and
	// analyzed: team_days then holds the year, as in a team's database.
	if err := db.teamFold(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "VACUUM ANALYZE team_days, team_day_deltas"); err != nil {
		t.Fatal(err)
	}
	from, to, lastWeek := session.TeamPeriod(end)
	type planCase struct {
		name    string
		query   string
		args    []any
		indexes []string // each must be read (a|b: either)
		sorts   bool     // a Sort node is fine (its rows are bounded)
	}
	list := func(name string, f session.SessionFilter, sorts bool, indexes ...string) planCase {
		q, a := listSessionsQuery(f)
		return planCase{name: name, query: q, args: a, indexes: indexes, sorts: sorts}
	}
	running := []session.State{session.StateInit, session.StateWorking, session.StateEnding}
	yes := true
	cases := []planCase{
		list("overview: running sessions", session.SessionFilter{States: running, Limit: 21}, true, "sessions_state_created"),
		list("sessions: first page", session.SessionFilter{Limit: 51}, false, "sessions_created"),
		// A common state: the newest sessions walked until a page of it.
		list("sessions: one state", session.SessionFilter{States: []session.State{session.StateAbandoned}, Limit: 51}, false, "sessions_state_created|sessions_created"),
		// A branch's sessions (1 in 500), sorted.
		list("sessions: branch", session.SessionFilter{Branch: "feature/42", Limit: 51}, true, "sessions_branch_created"),
		list("sessions: violated", session.SessionFilter{HasViolations: &yes, Limit: 51}, false, "sessions_violated_created"),
		{name: "team: ended sessions", query: teamCountsSQL, args: []any{nanos(from), weekNanos, nanos(from), nanos(to)}, indexes: []string{"sessions_ended_team"}, sorts: true},
		// /team reads its period's rows of the per-day counts (migration 0009), not the sessions.
		{name: "team: per-day counts", query: teamDaysSQL, args: []any{nanos(from) / dayNanos, nanos(to) / dayNanos}, indexes: []string{"team_days_pkey"}, sorts: true},
		{name: "team: bypass counts", query: teamBypassCountsSQL, args: []any{session.CodeBypass, session.CodeEscapeHatch, nanos(lastWeek)}, indexes: []string{"violations_code_created"}, sorts: true},
		{name: "team: bypasses", query: teamBypassesSQL, args: []any{session.CodeBypass, session.CodeEscapeHatch, nanos(lastWeek), 100}, indexes: []string{"violations_code_created"}, sorts: true},
		{name: "sessions: page violation counts", query: violationCountsSQL, args: []any{[]string{"s0000003", "s0000013"}}, indexes: []string{"sessions_pkey"}},
		{name: "sessions: page severities", query: violationSeveritiesSQL, args: []any{[]string{"s0000003", "s0000013"}}, indexes: []string{"violations_session"}, sorts: true},
	}
	for _, c := range cases {
		var out []byte
		if err := conn.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+c.query, c.args...).Scan(&out); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var plans []struct{ Plan planNode }
		if err := json.Unmarshal(out, &plans); err != nil || len(plans) != 1 {
			t.Fatalf("%s: %v: %s", c.name, err, out)
		}
		var read, steps []string
		plans[0].Plan.walk(func(n planNode) {
			steps = append(steps, strings.TrimSpace(n.NodeType+" "+n.Relation+" "+n.IndexName))
			if n.IndexName != "" {
				read = append(read, n.IndexName)
			}
			if n.NodeType == "Seq Scan" && slices.Contains(big, n.Relation) {
				t.Errorf("%s: reads all of %s: %s", c.name, n.Relation, strings.Join(steps, "; "))
			}
			if !c.sorts && (n.NodeType == "Sort" || n.NodeType == "Incremental Sort") {
				t.Errorf("%s: sorts: %s", c.name, strings.Join(steps, "; "))
			}
		})
		t.Logf("%s: %s", c.name, strings.Join(steps, "; "))
		for _, idx := range c.indexes {
			if !slices.ContainsFunc(strings.Split(idx, "|"), func(i string) bool { return slices.Contains(read, i) }) {
				t.Errorf("%s: plan %s, want a read of %s", c.name, strings.Join(steps, "; "), idx)
			}
		}
	}
}
