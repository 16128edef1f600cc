package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestDashboardTeamSummarises: /team shows the worst web.TeamShown rows of
// each table and links to the rest; ?all= shows one table whole; a team
// small enough to read whole gets no link.
func TestDashboardTeamSummarises(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name      string
		repos     int
		path      string
		rows      int    // repository rows shown
		bypasses  int    // bypass rows shown
		more, not string // in the page, and not in it
	}{
		{"large team", 15, "/team", 10, 10, `The first 10 of 15. <a href="/team?all=repos">Show all 15 repositories</a>`, "r014"},
		{"large team, every repository", 15, "/team?all=repos", 15, 10, "Show the first 10 only", "Show all 15 repositories"},
		{"large team, every bypass", 15, "/team?all=bypasses", 10, 15, "Show all 15 repositories", "Show all 15 bypasses"},
		{"small team", 4, "/team", 4, 4, "Repositories", "Show all"},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := newDashEnv(t, "")
			ended := env.now.Add(-2 * 24 * time.Hour)
			if err := env.db.Update(ctx, func(w session.Writer) error {
				for i := range c.repos {
					repo, err := w.EnsureRepository(ctx, fmt.Sprintf("/w/r%03d", i), fmt.Sprintf("r%03d", i))
					if err != nil {
						return err
					}
					// Repository i completes i of 20 sessions: r000 is the worst.
					for j := range 20 {
						st := session.StateAbandoned
						if j < i {
							st = session.StateComplete
						}
						s := &session.Session{RepoID: repo.ID, Worktree: repo.Root, State: st, CreatedAt: ended.Add(-time.Hour),
							EndedAt: ended, UserEmail: fmt.Sprintf("dev%d@example.com", i)}
						if err := w.CreateSession(ctx, s); err != nil {
							return err
						}
						if j == 0 {
							if err := w.AddViolation(ctx, &session.Violation{SessionID: s.ID, RepoID: repo.ID, Severity: session.SeverityHigh,
								Code: session.CodeBypass, Window: session.WindowSession, Message: "committed with --no-verify", CreatedAt: ended}); err != nil {
								return err
							}
						}
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			rec := env.get(c.path, false)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s: %d", c.path, rec.Code)
			}
			body := rec.Body.String()
			repos, _, _ := strings.Cut(body[strings.Index(body, `id="repos-h"`):], `id="people-h"`)
			if n := strings.Count(repos, `data-label="Repository"`); n != c.rows {
				t.Errorf("%d repository rows, want %d", n, c.rows)
			}
			bypasses, _, _ := strings.Cut(body[strings.Index(body, `id="bypass-h"`):], `id="repos-h"`)
			if n := strings.Count(bypasses, `data-label="When"`); n != c.bypasses {
				t.Errorf("%d bypass rows, want %d", n, c.bypasses)
			}
			if !strings.Contains(repos, `/sessions?repo=%2Fw%2Fr000`) {
				t.Error("the worst repository is not listed")
			}
			if !strings.Contains(body, c.more) {
				t.Errorf("page lacks %q", c.more)
			}
			if strings.Contains(repos, c.not) {
				t.Errorf("repositories table has %q", c.not)
			}
		})
	}
	env := newDashEnv(t, "")
	if rec := env.get("/team?all=everything", false); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "want one of repos, people, bypasses") {
		t.Errorf("GET /team?all=everything: %d, want 400 naming the choices", rec.Code)
	}
}
