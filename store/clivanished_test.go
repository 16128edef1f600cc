package store

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestCLIVanishedCalls (round 30, c11): the sessions list's one read of a
// page's vanished-CLI settlements returns each listed session's
// "<agent> <id> cli-vanished" settlements, by session and in order, and
// nothing else: not another settlement (interrupted, cli-ended, missing),
// not an unlisted session's, not a detail that only holds the word. Its
// plan reads events through events_calls alone, one range a session,
// never a session's every event.
func TestCLIVanishedCalls(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	update(t, db, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		for n := 1; n <= 3; n++ {
			if err := w.CreateSession(ctx, &session.Session{ID: sid(n), RepoID: repo.ID, Worktree: "/r", State: session.StateWorking, CreatedAt: t0}); err != nil {
				return err
			}
		}
		for _, e := range []struct {
			n             int
			token, detail string
		}{
			{1, session.TokenToolUnreported, "claude toolu_1 interrupted"},
			{1, session.TokenToolUnreported, "claude toolu_2 cli-vanished"},
			{1, "agent:claude:cli-vanished", "1:2 ended without SessionEnd; its turn continues under 3:4"},
			{1, session.TokenToolUnreported, "codex call_3 cli-vanished"},
			{2, session.TokenToolUnreported, "claude toolu_4 cli-ended"},
			{2, session.TokenToolUnreported, "claude toolu_5 missing"},
			{2, session.TokenToolResult, "claude cli-vanished"},
			{3, session.TokenToolUnreported, "gemini call_6 cli-vanished"},
		} {
			if err := w.AppendEvent(ctx, &session.Event{SessionID: sid(e.n), Token: e.token, Detail: e.detail, CreatedAt: t0}); err != nil {
				return err
			}
		}
		return nil
	})
	evs, err := db.CLIVanishedCalls(ctx, []string{sid(1), sid(2)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range evs {
		got = append(got, e.SessionID[len(e.SessionID)-1:]+" "+e.Detail)
	}
	want := []string{"1 claude toolu_2 cli-vanished", "1 codex call_3 cli-vanished"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("CLIVanishedCalls = %q, want %q", got, want)
	}
	if evs, err := db.CLIVanishedCalls(ctx, nil); err != nil || len(evs) != 0 {
		t.Errorf("no ids: %v, %v", evs, err)
	}

	rows, err := db.writer.QueryContext(ctx, "EXPLAIN QUERY PLAN "+cliVanishedCallsSQL(2), "a", "b")
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
	t.Logf("plan %s", p)
	if !strings.Contains(p, "INDEX events_calls (session_id=? AND token=?)") || strings.Contains(p, "SCAN events") || strings.Contains(p, "PRIMARY KEY") {
		t.Errorf("CLIVanishedCalls: plan %q, want searches of events_calls by session and token", p)
	}
}
