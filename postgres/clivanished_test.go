package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestCLIVanishedCalls (round 30, c11): as the SQLite store's test of the
// same name: the listed sessions' "<agent> <id> cli-vanished" settlements,
// by session and in order, and no other settlement or session's.
func TestCLIVanishedCalls(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	var ss [3]*session.Session
	if err := db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		for i := range ss {
			ss[i] = &session.Session{RepoID: repo.ID, Worktree: "/r", State: session.StateWorking}
			if err := w.CreateSession(ctx, ss[i]); err != nil {
				return err
			}
		}
		for _, e := range []struct {
			n             int
			token, detail string
		}{
			{0, session.TokenToolUnreported, "claude toolu_1 interrupted"},
			{0, session.TokenToolUnreported, "claude toolu_2 cli-vanished"},
			{0, "agent:claude:cli-vanished", "1:2 ended without SessionEnd; its turn continues under 3:4"},
			{0, session.TokenToolUnreported, "codex call_3 cli-vanished"},
			{1, session.TokenToolUnreported, "claude toolu_4 cli-ended"},
			{1, session.TokenToolResult, "claude cli-vanished"},
			{2, session.TokenToolUnreported, "gemini call_6 cli-vanished"},
		} {
			if err := w.AppendEvent(ctx, &session.Event{SessionID: ss[e.n].ID, Token: e.token, Detail: e.detail}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	evs, err := db.CLIVanishedCalls(ctx, []string{ss[0].ID, ss[1].ID})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range evs {
		if e.SessionID != ss[0].ID {
			t.Errorf("event of session %s, want only %s's", e.SessionID, ss[0].ID)
		}
		got = append(got, e.Detail)
	}
	want := []string{"claude toolu_2 cli-vanished", "codex call_3 cli-vanished"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("CLIVanishedCalls = %q, want %q", got, want)
	}
}
