package server

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// A command sessiongate.yaml sets for a phase is what the session page says
// the phase needs, for sessions of the repository serve runs in; a session
// of another repository (a team database) shows the protocol's checks.
func TestDashboardShowsConfiguredCommands(t *testing.T) {
	env := newDashEnv(t, "")
	env.engine.Config.Commands = map[string]string{"QA_VALIDATION": "make check-all"}
	ctx := context.Background()
	dir := gittest.New(t, nil)
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := env.engine.Start(ctx, session.StartRequest{Repo: repo, Spec: env.spec, Objective: "configured commands"})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	other := env.startLive("another repository")
	for _, tc := range []struct {
		name, id string
		repo     session.Repo
		want     bool
	}{
		{"served repository", res.SessionID, repo, true},
		{"other repository", other, repo, false},
		{"no served repository", res.SessionID, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{Engine: env.engine, ReadModel: env.db, Version: "test",
				LoadSpec: func(context.Context) (*protocolspec.Spec, error) { return env.spec, nil },
				Logger:   slog.New(slog.NewTextHandler(io.Discard, nil))}
			if tc.repo != nil {
				opts.Repo = tc.repo
			}
			env.srv = New(opts)
			rec := env.get("/sessions/"+tc.id, false)
			if rec.Code != 200 {
				t.Fatalf("GET: %d %s", rec.Code, rec.Body)
			}
			body := rec.Body.String()
			if got := strings.Contains(body, "command passes: make check-all"); got != tc.want {
				t.Fatalf("page names the configured command: %v, want %v", got, tc.want)
			}
			if !tc.want && !strings.Contains(body, "tool_output") {
				t.Fatalf("page does not show the protocol's own QA check")
			}
		})
	}
}
