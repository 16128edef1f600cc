package store

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// seedSkewed fills db with n sessions shaped like a real database, only
// smaller: nearly all ended (75% COMPLETE, 12.5% ABANDONED, 12.5%
// TERMINATED), the newest 10 running, 8 worktrees, 500 branches, 50
// people, a violation on one in ten, events and evidence per session.
// ANALYZE then writes statistics with the same skew as a million rows:
// the planner's choices at this size are the ones it makes at 1M.
func seedSkewed(t *testing.T, db *DB, n int) {
	t.Helper()
	ctx := context.Background()
	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT INTO repositories (id, root, name, origin) VALUES (1, '/src/demo', 'demo', 'github.com/o/demo')`); err != nil {
		t.Fatal(err)
	}
	insS, err := tx.Prepare(`INSERT INTO sessions (id, repo_id, worktree, branch, protocol_sha256, objective, state, created_at,
		last_activity, ended_at, violation_count, user_name, user_email, host) VALUES (?, 1, ?, ?, 'p', ?, ?, ?, ?, ?, ?, ?, ?, 'h')`)
	if err != nil {
		t.Fatal(err)
	}
	insE, err := tx.Prepare(`INSERT INTO events (session_id, seq, token, created_at) VALUES (?, ?, 'tool:x', ?)`)
	if err != nil {
		t.Fatal(err)
	}
	insEv, err := tx.Prepare(`INSERT INTO evidence (session_id, phase, kind, sha256, created_at) VALUES (?, ?, ?, 'x', ?)`)
	if err != nil {
		t.Fatal(err)
	}
	insV, err := tx.Prepare(`INSERT INTO violations (session_id, repo_id, severity, code, created_at) VALUES (?, 1, ?, ?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	states := []session.State{session.StateComplete, session.StateComplete, session.StateComplete, session.StateComplete,
		session.StateComplete, session.StateComplete, session.StateAbandoned, session.StateTerminated}
	base := seedStart.UnixNano()
	const year = 365 * 24 * time.Hour
	for i := range n {
		id := fmt.Sprintf("s%07d", i)
		created := base + int64(i)*int64(year)/int64(n) // a year of sessions
		state, ended := states[i%len(states)], created+int64(time.Hour)
		if i >= n-10 {
			state, ended = session.StateWorking, 0
		}
		vc := 0
		if i%10 == 3 {
			vc = 1
		}
		person := i % 50
		if _, err := insS.Exec(id, fmt.Sprintf("/src/demo/wt%d", i%8), fmt.Sprintf("feature/%d", i%500), fmt.Sprintf("session %d", i),
			state, created, created, ended, vc, fmt.Sprintf("Dev %d", person), fmt.Sprintf("dev%d@example.com", person)); err != nil {
			t.Fatal(err)
		}
		for seq := 1; seq <= 2; seq++ {
			if _, err := insE.Exec(id, seq, created); err != nil {
				t.Fatal(err)
			}
		}
		for _, kind := range []string{session.EvidenceToolOutput, session.EvidenceContentHash, session.EvidenceCommitSHA} {
			if _, err := insEv.Exec(id, "QA", kind, created); err != nil {
				t.Fatal(err)
			}
		}
		if vc > 0 {
			code := "FORCED_ADVANCE"
			if i%100 == 3 {
				code = session.CodeBypass
			}
			if _, err := insV.Exec(id, session.SeverityHigh, code, ended); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// seedStart is when seedSkewed's year begins.
var seedStart = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// explain returns SQLite's plan of query, its lines joined by "; ".
func explain(t *testing.T, db *DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.writer.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatalf("explain: %v\n%s", err, query)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return strings.Join(plan, "; ")
}

// fullScan matches a plan step that reads a whole table: SCAN without an
// index ("SCAN sessions"), not an ordered walk of one
// ("SCAN sessions USING INDEX sessions_created", which a LIMIT stops).
var fullScan = regexp.MustCompile(`SCAN (\w+)(?: LEFT-JOIN)?(?:; |$)`)

// TestQueryPlansAtScale: every dashboard and hook query searches the index
// meant for it, without a temporary b-tree for its ORDER BY or a scan of
// a whole table, both on a fresh database (no statistics) and after
// Optimize of a skewed one (the statistics `serve` keeps). The running
// sessions of the overview written with +? placeholders walked every
// session at 1M (802 ms): that plan fails here.
func TestQueryPlansAtScale(t *testing.T) {
	now := seedStart.AddDate(1, 0, 0) // the seed's last day: /team's four weeks are the newest 8%
	from, to, lastWeek := session.TeamPeriod(now)
	yes := true
	type planCase struct {
		name, query, index string
		args               []any
		sorts              bool     // a temporary b-tree is fine (its rows are bounded)
		scans              []string // tables a whole scan of is fine (a handful of rows)
	}
	list := func(name, index string, f session.SessionFilter) planCase {
		q, args := listSessionsQuery(f)
		return planCase{name: name, query: q, index: index, args: args}
	}
	withSort := func(c planCase) planCase { c.sorts = true; return c }
	running := []session.State{session.StateInit, session.StateWorking, session.StateEnding}
	ended := []session.State{session.StateComplete, session.StateAbandoned}
	viol := func(name, index string, f session.ViolationFilter) planCase {
		q, args := listViolationsQuery(f)
		return planCase{name: name, query: q, index: index, args: args}
	}
	list3 := []any{"s0000001", "s0000002", "s0000003"}
	cases := []planCase{
		// The overview.
		list("overview: running sessions", "sessions_state_created", session.SessionFilter{States: running, Limit: 21}),
		{name: "overview: counts by state", query: `SELECT state, n FROM session_state_counts WHERE n <> 0`, index: "", scans: []string{"session_state_counts"}},
		{name: "overview: violation counts", query: `SELECT key, n FROM overview_counts`, index: "", scans: []string{"overview_counts"}},
		{name: "overview: chart", query: dayCountsSQL, index: "INTEGER PRIMARY KEY", args: []any{1, 31}},
		viol("overview: latest violations", "violations_created", session.ViolationFilter{Limit: 8}),
		{name: "overview: a running session's events", query: lastEventsSQL, index: "PRIMARY KEY", args: []any{"s0000001", 50}},
		{name: "overview: a running session's phases", query: phaseResultsSQL, index: "sqlite_autoindex_phase_results_1", args: []any{"s0000001"}, sorts: true}, // one session's phases
		// /sessions and its filters.
		list("sessions: first page", "sessions_created", session.SessionFilter{Limit: 51}),
		list("sessions: deep page", "sessions_created", session.SessionFilter{Limit: 51, BeforeTime: now, BeforeID: "s0000500"}),
		list("sessions: one ended state", "sessions_state_created", session.SessionFilter{States: []session.State{session.StateAbandoned}, Limit: 51}),
		list("sessions: two ended states", "sessions_state_created", session.SessionFilter{States: ended, Limit: 51}),
		list("sessions: two states, deep page", "sessions_state_created", session.SessionFilter{States: ended, Limit: 51, BeforeTime: now, BeforeID: "s0000500"}),
		list("sessions: running now", "sessions_state_created", session.SessionFilter{States: running, Limit: 500}),
		// Running sessions within another filter: the IN list, and its
		// sort of the (few) running rows.
		withSort(list("sessions: running now in a repository", "sessions_state_created", session.SessionFilter{States: running, RepoID: 1, Limit: 500})),
		list("sessions: branch", "sessions_branch_created", session.SessionFilter{Branch: "feature/42", Limit: 51}),
		list("sessions: violated", "sessions_violated_created", session.SessionFilter{HasViolations: &yes, Limit: 51}),
		list("sessions: host", "sessions_host_created", session.SessionFilter{Host: "elsewhere", Limit: 51}),
		list("sessions: last week", "sessions_created", session.SessionFilter{From: now.AddDate(0, 0, -7), To: now, Limit: 51}),
		{name: "sessions: page violation counts", query: violationCountsSQL(3), index: "sqlite_autoindex_sessions_1", args: list3},
		{name: "sessions: page severities", query: violationSeveritiesSQL(3), index: "violations_session", args: list3, sorts: true}, // the page's violations
		{name: "session page: last event", query: lastEventSeqSQL, index: "PRIMARY KEY", args: []any{"s0000001"}},
		viol("violations: first page", "violations_created", session.ViolationFilter{Limit: 51}),
		viol("violations: code", "violations_code_created", session.ViolationFilter{Code: session.CodeBypass, Limit: 51}),
		viol("violations: of a session", "violations_session", session.ViolationFilter{SessionID: "s0000003", Limit: 1000}),
		// /team.
		// The last week's bypasses: by code, or by time (a week's violations).
		{name: "team: bypasses", query: teamBypassesSQL, index: "violations_code_created|violations_created",
			args: []any{session.CodeBypass, session.CodeEscapeHatch, nanos(lastWeek), 100}, sorts: true, scans: []string{"r"}},
		{name: "team: bypass counts", query: teamBypassCountsSQL, index: "violations_code_created|violations_created",
			args:  []any{session.CodeBypass, session.CodeEscapeHatch, nanos(lastWeek), session.CodeBypass, session.CodeEscapeHatch, nanos(lastWeek)},
			sorts: true, scans: []string{"r"}},
		{name: "team: ended sessions", query: teamCountsSQL, index: "sessions_ended_compliance|sessions_repo_ended",
			args: []any{nanos(from), weekNanos, nanos(from), nanos(to), nanos(from), weekNanos, nanos(from), nanos(to)}, sorts: true, scans: []string{"r"}},
		// The hooks'.
		{name: "hooks: active session", query: activeSessionSQL, index: "sessions_worktree_state", args: []any{1, "/src/demo/wt1"}, sorts: true},
		list("hooks: latest of a worktree", "sessions_worktree_created", session.SessionFilter{RepoID: 1, Worktree: "/src/demo/wt1", Limit: 1}),
		{name: "hooks: session", query: `SELECT ` + sessionCols + ` FROM sessions WHERE id = ?`, index: "sqlite_autoindex_sessions_1", args: []any{"s0000001"}},
		{name: "hooks: recent ended", query: recentEndedSQL, index: "sessions_repo_ended", args: []any{1, 5}},
		{name: "hooks: started after", query: startedAfterSQL, index: "sessions_repo_created", args: []any{1, nanos(now)}},
		{name: "hooks: events after", query: eventsAfterSQL, index: "PRIMARY KEY", args: []any{"s0000001", 0, -1}},
		{name: "hooks: evidence", query: evidenceSQL, index: "evidence_session", args: []any{"s0000001"}},
		{name: "hooks: gate evidence", query: gateEvidenceSQL, index: "evidence_phase", args: []any{"s0000001", "QA", "s0000001", "QA"}},
		{name: "hooks: recorded commits", query: `SELECT ref FROM evidence WHERE session_id = ? AND ` + commitEvidence, index: "evidence_commits", args: []any{"s0000001"}},
		{name: "hooks: latest snapshot", query: latestSnapshotSQL, index: "sqlite_autoindex_snapshots_1", args: []any{"s0000001"}},
		{name: "hooks: trusted files", query: trustedFilesSQL, index: "trusted_files_repo_path", args: []any{1}, sorts: true}, // one repository's accepted files
	}
	db := openTest(t)
	seedSkewed(t, db, 5000)
	check := func(t *testing.T, stats string) {
		for _, c := range cases {
			plan := explain(t, db, c.query, c.args...)
			what := fmt.Sprintf("%s (%s): plan %q", c.name, stats, plan)
			t.Log(what)
			found := c.index == ""
			for _, idx := range strings.Split(c.index, "|") {
				found = found || strings.Contains(plan, "USING INDEX "+idx) || strings.Contains(plan, "USING COVERING INDEX "+idx) ||
					strings.Contains(plan, "USING "+idx)
			}
			if !found {
				t.Errorf("%s: want a search of %s", what, c.index)
			}
			if !c.sorts && strings.Contains(plan, "TEMP B-TREE") {
				t.Errorf("%s: sorts in a temporary b-tree", what)
			}
			for _, m := range fullScan.FindAllStringSubmatch(plan, -1) {
				ok := false
				for _, s := range c.scans {
					ok = ok || m[1] == s
				}
				if !ok {
					t.Errorf("%s: reads all of %s", what, m[1])
				}
			}
		}
	}
	t.Run("no statistics", func(t *testing.T) { check(t, "no statistics") })
	// What `serve` runs (optimizeLoop): ANALYZE of a sample.
	if err := db.Optimize(context.Background()); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.writer.QueryRow(`SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'sessions'`).Scan(&n); err != nil || n == 0 {
		t.Fatalf("Optimize wrote no statistics of sessions (%d, %v)", n, err)
	}
	t.Run("statistics", func(t *testing.T) { check(t, "statistics") })
}
