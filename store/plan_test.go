package store

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestHookQueriesStayInTheWorktree: the session lookups every hook makes
// read the worktree's own index entries. Left to the planner, both walked
// every session of the repository (sessions_repo_created, to skip a sort)
// when the worktree had no active or recent session, so a hook's cost grew
// with the database.
func TestHookQueriesStayInTheWorktree(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	list, listArgs := listSessionsQuery(session.SessionFilter{RepoID: 1, Worktree: "/r", Limit: 1})
	for _, c := range []struct {
		name, query, index string
		args               []any
	}{
		{"ActiveSession", activeSessionSQL, "sessions_worktree_state", []any{1, "/r"}},
		{"ListSessions by worktree", list, "sessions_worktree_created", listArgs},
		// Commit evidence only, not every command an agent ran.
		{"RecordedCommits", `SELECT ref FROM evidence WHERE session_id = ? AND ` + commitEvidence, "evidence_commits", []any{"s"}},
		// The CLI in a hooks-off agent's shell asks it at each session
		// call (agenthook.ShellCommitsJudge): the session's rows only.
		{"SessionBoundTo", sessionBoundSQL, "agent_bindings_session", []any{"s", "gemini"}},
		// A gate's evidence, not every command an agent ran.
		{"GateEvidence of the phase", gateEvidenceSQL, "evidence_phase", []any{"s", "P", "s", "P"}},
		{"GateEvidence content hashes", gateEvidenceSQL, "evidence_content_hash", []any{"s", "P", "s", "P"}},
		// The same with the other phases' file_path rows, which a gate call
		// judges again (GateAndFileEvidence): never the session's every row
		// through a scan of the table.
		{"GateAndFileEvidence of the phase", gateFileEvidenceSQL, "evidence_phase", []any{"s", "P", "s", "P", "s", "P"}},
		{"GateAndFileEvidence content hashes", gateFileEvidenceSQL, "evidence_content_hash", []any{"s", "P", "s", "P", "s", "P"}},
		// The accepted contents' stamp read with the session: the
		// repository's rows on their index, never the table.
		{"GetSessionTrusted", sessionTrustedSQL, "trusted_files_repo_path", []any{"s"}},
		{"RecordedCommits of two", `SELECT ref FROM evidence WHERE session_id = ? AND ` + commitEvidence + ` AND ref IN (?, ?)`, "evidence_commits", []any{"s", "a", "b"}},
		// A listing's verdicts (SessionVerdictInputs): a page's rows on
		// their indexes, never a table; the marks alone, not every command
		// a session observed.
		{"SessionVerdictInputs phase results", verdictPhasesSQL, "sqlite_autoindex_phase_results_1", []any{`["a","b","c"]`}},
		{"SessionVerdictInputs violations", verdictViolationsSQL, "violations_session", []any{`["a","b","c"]`}},
		{"SessionVerdictInputs marks", verdictMarksSQL, "evidence_na_marks", []any{`["a","b","c"]`}},
	} {
		rows, err := db.writer.QueryContext(ctx, "EXPLAIN QUERY PLAN "+c.query, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		p := strings.Join(plan, "; ")
		if strings.Contains(p, "SCAN evidence") && !strings.Contains(p, "USING") {
			t.Errorf("%s: plan %q scans the evidence table", c.name, p)
		}
		t.Logf("%s: %s", c.name, p)
		if !strings.Contains(p, "USING INDEX "+c.index) && !strings.Contains(p, "USING COVERING INDEX "+c.index) || strings.Contains(p, "sessions_repo_created") {
			t.Errorf("%s: plan %q, want a search of %s", c.name, p, c.index)
		}
	}
}

// TestEventsWithSearchesInOrder: the agent hooks' read of a few tokens'
// events (EventsWith, on every tool call) is one search of the session's
// primary key in its order: no scan of the table, no sort in a temporary
// b-tree (LastEvents with tokens sorts, its inner query reading backwards).
func TestEventsWithSearchesInOrder(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	rows, err := db.writer.QueryContext(ctx, "EXPLAIN QUERY PLAN "+eventsWithSQL(3), "s", "a", "b", "c")
	if err != nil {
		t.Fatal(err)
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
	p := strings.Join(plan, "; ")
	if !strings.Contains(p, "SEARCH events USING PRIMARY KEY (session_id=?)") || strings.Contains(p, "TEMP B-TREE") || len(plan) != 1 {
		t.Errorf("EventsWith: plan %q, want one search of the primary key", p)
	}
}

// TestOpenCallEventsPlan: a prompt's and a Stop's read of the calls still
// open (OpenCallEvents) reads events only through events_calls (migration
// 0019) and, for the rows it returns, the primary key by (session, seq):
// never the session's every event through the primary key (what the
// planner chose without CROSS JOIN, on the same index), never a scan.
func TestOpenCallEventsPlan(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	rows, err := db.writer.QueryContext(ctx, "EXPLAIN QUERY PLAN "+openCallEventsSQL, "s", session.TokenJudgedInput, "claude")
	if err != nil {
		t.Fatal(err)
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
	p := strings.Join(plan, "; ")
	t.Log(p)
	searches := 0
	for _, step := range plan {
		f := strings.Fields(step)
		if len(f) < 2 || f[0] != "SEARCH" && f[0] != "SCAN" || f[1] != "events" && f[1] != "e" && f[1] != "r" {
			continue
		}
		searches++
		// A call's range of details, never the session's every judged
		// call (the round 24 probe walked them all on this index).
		ok := strings.Contains(step, "INDEX events_calls (session_id=? AND token=? AND detail>? AND detail<?)") ||
			strings.Contains(step, "USING PRIMARY KEY (session_id=? AND seq=?)")
		if !ok {
			t.Errorf("plan step %q reads events otherwise than by events_calls or one row's key; plan %s", step, p)
		}
	}
	if searches == 0 {
		t.Errorf("no read of events in the plan %s", p)
	}
	// The open calls from their kept counts (migration 0020), by key.
	if !strings.Contains(p, "SEARCH open_calls USING PRIMARY KEY (session_id=? AND token=?)") {
		t.Errorf("open_calls not searched by its key: plan %s", p)
	}
}

// TestCallTokensMatchSession: events_calls' condition (callTokens, the
// queries' literal) names every call token the engine writes; a token
// added to one and not the other would leave its events out of the
// open-call reads.
func TestCallTokensMatchSession(t *testing.T) {
	var want []string
	for _, tok := range session.CallTokens {
		want = append(want, "'"+tok+"'")
	}
	if got := "token IN (" + strings.Join(want, ", ") + ")"; got != callTokens {
		t.Errorf("callTokens = %s, session.CallTokens gives %s", callTokens, got)
	}
	for _, m := range []string{"0019_events_open_calls.sql"} {
		b, err := migrationFS.ReadFile("migrations/" + m)
		if err != nil || !strings.Contains(string(b), callTokens) {
			t.Errorf("migration %s does not hold the condition %s (%v)", m, callTokens, err)
		}
	}
}

// TestHasJudgedCallPlan: Copilot's post asks whether the tool was ever
// judged (HasJudgedCall) in one range of events_calls, the id prefix's:
// never the session's events through the primary key, never a scan.
func TestHasJudgedCallPlan(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	rows, err := db.writer.QueryContext(ctx, "EXPLAIN QUERY PLAN "+hasJudgedCallSQL, "s", session.TokenCopilotJudged, "cp-bash-", "cp-bash.", "bash")
	if err != nil {
		t.Fatal(err)
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
	p := strings.Join(plan, "; ")
	t.Log(p)
	if !strings.Contains(p, "SEARCH events USING COVERING INDEX events_calls (session_id=? AND token=? AND detail>? AND detail<?)") || strings.Contains(p, "SCAN events") {
		t.Errorf("HasJudgedCall: plan %q, want one range of events_calls", p)
	}
}
