package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sessiongate/sessiongate/postgres"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// BenchmarkDashboardPostgres serves the dashboard's pages from a team
// database on a throwaway PostgreSQL server, seeded with COPY: 100
// repositories, 50 people, sessions ending over a year, 10 events each, a
// violation on one in twenty. SESSIONGATE_PG_SESSIONS sets the number of
// sessions (the scale is 1000000; 20000 by default, so a run is
// quick):
//
//	SESSIONGATE_PG_SESSIONS=1000000 go test ./server -run '^$' -bench DashboardPostgres -benchtime 50x
func BenchmarkDashboardPostgres(b *testing.B) {
	n := 20_000
	if v := os.Getenv("SESSIONGATE_PG_SESSIONS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 100 {
			b.Fatalf("SESSIONGATE_PG_SESSIONS=%q: want a number >= 100", v)
		}
	}
	ctx := context.Background()
	u, err := pgCluster.Get(b).NewDB(ctx)
	if err != nil {
		b.Fatal(err)
	}
	db, err := postgres.Open(ctx, u)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	start := time.Now()
	if err := seedPostgres(ctx, u, n, now); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d sessions, %d events in %v", n, 10*n, time.Since(start).Round(time.Second))
	proto, err := os.ReadFile(filepath.Join("testdata", "dashboard-protocol.md"))
	if err != nil {
		b.Fatal(err)
	}
	spec, err := protocolspec.Parse("SESSION-PROTOCOL.md", proto)
	if err != nil {
		b.Fatal(err)
	}
	engine := session.NewEngine(db, session.Config{}, nil)
	engine.Now = func() time.Time { return now }
	srv := New(Options{Engine: engine, ReadModel: db, Version: "bench",
		LoadSpec: func(context.Context) (*protocolspec.Spec, error) { return spec, nil },
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil))})
	h := srv.Handler()
	mid := benchSessionID(n / 2)
	for _, c := range []struct{ name, path string }{
		{"overview", "/"},
		{"team", "/team"},
		{"sessions", "/sessions"},
		{"sessions-repo", "/sessions?repo=github.com/o/r042"},
		{"sessions-user", "/sessions?user=dev17@example.com"},
		{"sessions-state", "/sessions?state=ABANDONED"},
		{"sessions-violations", "/sessions?violations=yes"},
		{"session", "/sessions/" + mid},
		{"violations", "/violations"},
		{"violations-repo", "/violations?repo=github.com/o/r001"},
		{"protocol", "/protocol"},
		{"api-sessions", "/api/sessions"},
		{"api-team", "/api/team"},
	} {
		b.Run(c.name, func(b *testing.B) { benchRequest(b, h, c.path, false) })
	}
	// The overview's reads one by one, to show where its time goes.
	from, to, lastWeek := session.TeamPeriod(now)
	monthAgo := now.Truncate(24*time.Hour).AddDate(0, 0, -30)
	for _, c := range []struct {
		name string
		read func() error
	}{
		{"read-count-by-state", func() error { _, err := db.CountSessionsByState(ctx); return err }},
		{"read-compliance-30-days", func() error {
			_, err := db.ComplianceByDay(ctx, monthAgo, now.Truncate(24*time.Hour).AddDate(0, 0, 1))
			return err
		}},
		{"read-team-activity", func() error { _, err := db.TeamActivity(ctx, from, to, lastWeek, teamBypassLimit); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var times []time.Duration
			for b.Loop() {
				t := time.Now()
				if err := c.read(); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(t))
			}
			reportQuantiles(b, times)
		})
	}
}

// seedPostgres fills a team database with n sessions through COPY.
func seedPostgres(ctx context.Context, url string, n int, now time.Time) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	const repos, people = 100, 50
	var rows [][]any
	for r := 1; r <= repos; r++ {
		rows = append(rows, []any{int64(r), fmt.Sprintf("/srv/r%03d", r), fmt.Sprintf("r%03d", r), fmt.Sprintf("github.com/o/r%03d", r)})
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"repositories"}, []string{"id", "root", "name", "origin"}, pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("repositories: %w", err)
	}
	year := int64(365 * 24 * time.Hour)
	states := []string{"COMPLETE", "COMPLETE", "COMPLETE", "COMPLETE", "ABANDONED", "TERMINATED"}
	sessionCols := []string{"id", "repo_id", "worktree", "branch", "protocol_sha256", "objective", "state", "phase", "created_at",
		"last_activity", "ended_at", "violation_count", "user_name", "user_email", "host"}
	const chunk = 50_000
	for lo := 0; lo < n; lo += chunk {
		hi := min(n, lo+chunk)
		sess := make([][]any, 0, hi-lo)
		evs := make([][]any, 0, 10*(hi-lo))
		var vios [][]any
		for i := lo; i < hi; i++ {
			created := now.UnixNano() - year + int64(i)*(year/int64(n))
			ended := created + int64(time.Hour)
			state := states[i%len(states)]
			if i >= n-20 { // a few running now
				state, ended = "WORKING", 0
			}
			vc := 0
			if i%20 == 0 {
				vc = 1
			}
			person := i % people
			repo := int64(i%repos + 1)
			sess = append(sess, []any{benchSessionID(i), repo, fmt.Sprintf("/srv/r%03d", repo), fmt.Sprintf("feature/%d", i%500), "abc",
				fmt.Sprintf("session %d: work on the dashboard", i), state, "QA", created, ended, ended, vc,
				fmt.Sprintf("Dev %d", person), fmt.Sprintf("dev%d@example.com", person), "host"})
			for e := range 10 {
				evs = append(evs, []any{benchSessionID(i), int64(e + 1), "tool:x", "", created + int64(e)*int64(time.Minute)})
			}
			if vc > 0 {
				code := "FORCED_ADVANCE"
				if i%100 == 0 {
					code = session.CodeBypass
				}
				vios = append(vios, []any{benchSessionID(i), repo, "QA", "HIGH", code, "forced", ended})
			}
		}
		if _, err := conn.CopyFrom(ctx, pgx.Identifier{"sessions"}, sessionCols, pgx.CopyFromRows(sess)); err != nil {
			return fmt.Errorf("sessions: %w", err)
		}
		if _, err := conn.CopyFrom(ctx, pgx.Identifier{"events"}, []string{"session_id", "seq", "token", "detail", "created_at"}, pgx.CopyFromRows(evs)); err != nil {
			return fmt.Errorf("events: %w", err)
		}
		if _, err := conn.CopyFrom(ctx, pgx.Identifier{"violations"}, []string{"session_id", "repo_id", "phase", "severity", "code", "message", "created_at"}, pgx.CopyFromRows(vios)); err != nil {
			return fmt.Errorf("violations: %w", err)
		}
	}
	// Statistics and the visibility map, as autovacuum would leave them.
	_, err = conn.Exec(ctx, "VACUUM ANALYZE")
	return err
}
