package store

import (
	"context"
	"testing"
	"time"

	"modernc.org/sqlite"

	"github.com/sessiongate/sessiongate/session"
)

// TestHookStatementsCompileOnce: the statements hooks run are compiled when
// prepared and not again at their first step. SQLite calls the authorizer
// whenever it compiles, a recompilation included, so one that fires during
// the step means the statement was compiled twice (see plusPlaceholders).
func TestHookStatementsCompileOnce(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	conn, err := db.writer.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var compiles int
	if err := conn.Raw(func(dc any) error {
		return dc.(sqlite.AuthorizerRegisterer).RegisterAuthorizer(
			func(sqlite.AuthorizerActionCode, string, string, string, string) sqlite.AuthorizerReturnCode {
				compiles++
				return sqlite.AuthorizerOK
			})
	}); err != nil {
		t.Fatal(err)
	}
	stepCompiles := func(t *testing.T, query string, args ...any) int {
		t.Helper()
		st, err := conn.PrepareContext(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		compiles = 0
		rows, err := st.QueryContext(ctx, args...)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		return compiles
	}

	// The control: a bare ? in such a statement is compiled again.
	if n := stepCompiles(t, `SELECT seq FROM events WHERE session_id = ? ORDER BY seq DESC LIMIT ?`, "s", 5); n == 0 {
		t.Fatal("control: a statement with ORDER BY and bare ? was not compiled again at its step; this test can no longer see a recompilation")
	}
	byWorktree, byWorktreeArgs := listSessionsQuery(session.SessionFilter{RepoID: 1, Worktree: "/r", Limit: 1})
	violated := true
	// Every filter with the worktree: the hooks' path (the dashboard's
	// statements, without a worktree, bind bare ? and plan with the values).
	filtered, filteredArgs := listSessionsQuery(session.SessionFilter{RepoID: 1, Worktree: "/r", States: []session.State{session.StateWorking, session.StateEnding},
		Branch: "main", User: "u", Host: "h", Severity: "high", HasViolations: &violated,
		From: time.Unix(1, 0), To: time.Unix(2, 0), BeforeTime: time.Unix(2, 0), BeforeID: "x"})
	for _, c := range []struct {
		name, query string
		args        []any
	}{
		{"ActiveSession", activeSessionSQL, []any{1, "/r"}},
		{"ListSessions by worktree", byWorktree, byWorktreeArgs},
		{"ListSessions filtered", filtered, filteredArgs},
		{"ListEvents", eventsAfterSQL, []any{"s", 0, -1}},
		{"LastEvents", lastEventsSQL, []any{"s", 200}},
		{"LastEvents with tokens", lastEventsWithSQL(2), []any{"s", 200, "a", "b"}},
		{"EventsWithPrefix", eventsWithPrefixSQL(2), []any{"s", "a", "b", "p ", "p "}},
		{"ListEvidence", evidenceSQL, []any{"s"}},
		{"GateEvidence", gateEvidenceSQL, []any{"s", "P", "s", "P"}},
		{"PhaseResults", phaseResultsSQL, []any{"s"}},
		{"TrustedFiles", trustedFilesSQL, []any{1}},
		{"ListSnapshots", snapshotsSQL, []any{"s"}},
		{"LatestSnapshotID", latestSnapshotSQL, []any{"s"}},
		{"RecentEnded", recentEndedSQL, []any{1, 5}},
		{"SessionsStartedAfter", startedAfterSQL, []any{1, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if n := stepCompiles(t, c.query, c.args...); n != 0 {
				t.Errorf("compiled again at its first step (%d authorizer calls)", n)
			}
		})
	}
}
