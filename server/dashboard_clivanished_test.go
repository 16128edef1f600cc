package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestDashboardCLIVanished (round 30, c11): a session whose agent CLI
// vanished (killed, crashed: no result, no SessionEnd) while a shell call
// ran carries a chip on the sessions list and a line on its page, worded
// for a person. The settlement is written by the engine's own path
// (Engine.SettleVanishedCall, what a resumed CLI's prompt and a gate run).
// Honest twin: a person's Ctrl+C that stopped the CLI mid-call (its
// SessionEnd settles the call, Engine.SettleAtCLIEnd) shows neither; a
// call that reported its result shows neither. Over real HTTP with the
// real SQLite store.
func TestDashboardCLIVanished(t *testing.T) {
	env := newDashEnv(t, "")
	killed, resumedCodex, ctrlC, reported := dashSID(30), dashSID(31), dashSID(32), dashSID(33)
	ctx := context.Background()
	at := env.now.Add(-2 * time.Hour)
	err := env.db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/w/demo", "demo")
		if err != nil {
			return err
		}
		for _, c := range []struct {
			id, branch string
			state      session.State
		}{
			{killed, "feat/killed", session.StateAbandoned},
			{resumedCodex, "feat/codex-killed", session.StateWorking},
			{ctrlC, "feat/ctrl-c", session.StateComplete},
			{reported, "feat/reported", session.StateComplete},
		} {
			s := &session.Session{ID: c.id, RepoID: repo.ID, Worktree: "/w/" + c.branch, Branch: c.branch, StartCommit: strings.Repeat("7", 40),
				ProtocolSHA: env.spec.SHA256, Objective: "work on " + c.branch, State: c.state, CreatedAt: at,
				LastActivity: at.Add(time.Hour), ExpiresAt: env.now.Add(48 * time.Hour)}
			if !s.Active() {
				s.EndedAt = at.Add(time.Hour)
			}
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	digest := strings.Repeat("ab", 32)
	for _, id := range []string{killed, ctrlC, reported} {
		if err := env.engine.KeepJudgedInput(ctx, id, "toolu_01Sleep", "Bash", digest, ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := env.engine.KeepOwedReport(ctx, resumedCodex, "codex", "call_7", "Bash"); err != nil {
		t.Fatal(err)
	}
	if err := env.engine.SettleVanishedCall(ctx, killed, "claude"); err != nil {
		t.Fatal(err)
	}
	if err := env.engine.SettleVanishedCall(ctx, resumedCodex, "codex"); err != nil {
		t.Fatal(err)
	}
	if err := env.engine.SettleAtCLIEnd(ctx, ctrlC, "claude"); err != nil {
		t.Fatal(err)
	}
	if err := env.engine.RecordToolResult(ctx, reported, "claude", "toolu_01Sleep", false); err != nil {
		t.Fatal(err)
	}

	srv := httptest.NewServer(env.srv.Handler())
	defer srv.Close()
	const chip = "agent CLI vanished</span>"
	for _, c := range []struct {
		name, path string
		want, not  []string
	}{
		{"killed: session page", "/sessions/" + killed,
			[]string{chip, "Agent CLI vanished during a tool call: Claude Code was killed or crashed while call toolu_01Sleep ran"}, nil},
		{"killed: sessions list", "/sessions?branch=feat/killed",
			[]string{chip + " during a tool call (Claude Code)"}, nil},
		{"codex killed, running: session page", "/sessions/" + resumedCodex,
			[]string{chip, "call call_7 ran"}, nil},
		{"codex killed, running: sessions list", "/sessions?branch=feat/codex-killed",
			[]string{chip + " during a tool call (Codex"}, nil},
		{"whole list: each chip on its own row", "/sessions",
			[]string{"work on feat/killed", "work on feat/ctrl-c"}, nil},
		{"honest Ctrl+C: session page", "/sessions/" + ctrlC, []string{"work on feat/ctrl-c"}, []string{"vanished"}},
		{"honest Ctrl+C: sessions list", "/sessions?branch=feat/ctrl-c", []string{"work on feat/ctrl-c"}, []string{"vanished"}},
		{"honest reported call: session page", "/sessions/" + reported, []string{"work on feat/reported"}, []string{"vanished"}},
		{"honest reported call: sessions list", "/sessions?branch=feat/reported", []string{"work on feat/reported"}, []string{"vanished"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := dashGet(t, srv, c.path)
			for _, w := range c.want {
				if !strings.Contains(body, w) {
					t.Errorf("GET %s: missing %q", c.path, w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(body, n) {
					t.Errorf("GET %s: should not contain %q", c.path, n)
				}
			}
		})
	}
	// On the whole list the chips sit on the killed sessions' rows only.
	body := dashGet(t, srv, "/sessions")
	if n := strings.Count(body, chip); n != 2 {
		t.Errorf("/sessions shows %d vanished-CLI chips, want 2 (the killed Claude Code and Codex sessions)", n)
	}
	for _, id := range []string{ctrlC, reported} {
		row := rowOf(body, id)
		if row == "" || strings.Contains(row, "vanished") {
			t.Errorf("/sessions row of honest session %s: %q", id, row)
		}
	}
}

// dashGet GETs path from the test server as the dashboard's own loopback
// host and returns the body, with &#39; as '.
func dashGet(t *testing.T, srv *httptest.Server, path string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "127.0.0.1:7400" // the DNS rebinding guard
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", path, resp.StatusCode, b)
	}
	return strings.ReplaceAll(string(b), "&#39;", "'")
}

// rowOf is the <tr> of the sessions table that links session id, "" when
// none does.
func rowOf(body, id string) string {
	for _, row := range strings.Split(body, "<tr>") {
		if strings.Contains(row, "/sessions/"+id) {
			row, _, _ = strings.Cut(row, "</tr>")
			return row
		}
	}
	return ""
}
