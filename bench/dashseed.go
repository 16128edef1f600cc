//go:build ignore

// dashseed fills a sessiongate database for the dashboard benchmark
// (bench/dashboard.sh): n sessions over the year before -now, shaped like
// a team's database: 75% COMPLETE, 12.5% ABANDONED, 12.5% TERMINATED, the
// newest 20 running, 100 repositories, 50 people, 8 worktrees and 500
// branches, 2 events and a phase result each, a violation on one in ten
// (one in a hundred a hook bypass).
//
//	go run bench/dashseed.go -db FILE|postgres://... -n 1000000
//
// The schema comes from the store's own migrations (store.Open,
// postgres.Open); rows go in as prepared inserts in one transaction
// (SQLite, its triggers keeping the counts) or COPY (PostgreSQL), then
// ANALYZE, as a database in use would have statistics. The build tag keeps
// it out of `go install ./...`.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sessiongate/sessiongate/postgres"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

const (
	repos, people = 100, 50
	running       = 20
)

var states = []string{"COMPLETE", "COMPLETE", "COMPLETE", "COMPLETE", "COMPLETE", "COMPLETE", "ABANDONED", "TERMINATED"}

// row is one seeded session.
type row struct {
	id, worktree, branch, objective, state, user, email string
	repo                                                int64
	created, ended                                      int64
	violations                                          int
	code                                                string
}

func sessionRow(i, n int, now time.Time) row {
	year := int64(365 * 24 * time.Hour)
	created := now.UnixNano() - year + int64(i)*(year/int64(n))
	r := row{
		id:   fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", uint32(i)*2654435761, i&0xffff, i%0xfff, (i/7)%0xfff, i),
		repo: int64(i%repos + 1), worktree: fmt.Sprintf("/srv/r%03d/wt%d", i%repos+1, i%8), branch: fmt.Sprintf("feature/%d", i%500),
		objective: fmt.Sprintf("session %d: work on the dashboard", i), state: states[i%len(states)],
		user: fmt.Sprintf("Dev %d", i%people), email: fmt.Sprintf("dev%d@example.com", i%people),
		created: created, ended: created + int64(time.Hour),
	}
	if i >= n-running {
		r.state, r.ended = "WORKING", 0
	}
	if i%10 == 3 {
		r.violations, r.code = 1, "FORCED_ADVANCE"
		if i%100 == 3 {
			r.code = session.CodeBypass
		}
	}
	return r
}

func main() {
	dbArg := flag.String("db", "", "SQLite file or postgres:// URL")
	n := flag.Int("n", 10000, "sessions")
	nowArg := flag.String("now", "", "end of the seeded year (RFC 3339; default now)")
	flag.Parse()
	if *dbArg == "" || *n < running {
		log.Fatalf("dashseed: -db is required and -n at least %d", running)
	}
	now := time.Now().UTC()
	if *nowArg != "" {
		var err error
		if now, err = time.Parse(time.RFC3339, *nowArg); err != nil {
			log.Fatalf("dashseed: -now: %v", err)
		}
	}
	ctx := context.Background()
	start := time.Now()
	var err error
	if postgres.IsURL(*dbArg) {
		err = seedPostgres(ctx, *dbArg, *n, now)
	} else {
		err = seedSQLite(ctx, *dbArg, *n, now)
	}
	if err != nil {
		log.Fatalf("dashseed: %v", err)
	}
	fmt.Printf("seeded %d sessions in %s\n", *n, time.Since(start).Round(time.Second))
}

func seedSQLite(ctx context.Context, path string, n int, now time.Time) (err error) {
	db, err := store.Open(ctx, path) // the schema, through the real migrations
	if err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(OFF)&_pragma=foreign_keys(0)&_pragma=cache_size(-524288)&_pragma=temp_store(MEMORY)")
	if err != nil {
		return err
	}
	defer func() {
		if cerr := raw.Close(); err == nil {
			err = cerr
		}
	}()
	// A 512 MiB page cache keeps the indexes' pages in memory through the
	// one transaction: with the default 2 MiB a million rows spill and
	// re-read pages from disk, which made the 1,000,000 seed take hours.
	raw.SetMaxOpenConns(1)
	tx, err := raw.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The objective search index (migration 0003) is built once at the end
	// rather than by its trigger row by row, which is most of a seed's
	// time; the other triggers keep the counts as they would in use.
	var ftsTrigger string
	if err := tx.QueryRow(`SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = 'sessions_fts_insert'`).Scan(&ftsTrigger); err != nil {
		return fmt.Errorf("search index trigger: %w", err)
	}
	if _, err := tx.Exec(`DROP TRIGGER sessions_fts_insert`); err != nil {
		return err
	}
	for r := 1; r <= repos; r++ {
		if _, err := tx.Exec(`INSERT INTO repositories (id, root, name, origin) VALUES (?, ?, ?, ?)`,
			r, fmt.Sprintf("/srv/r%03d", r), fmt.Sprintf("r%03d", r), fmt.Sprintf("github.com/o/r%03d", r)); err != nil {
			return err
		}
	}
	insS, err := tx.Prepare(`INSERT INTO sessions (id, repo_id, worktree, branch, protocol_sha256, objective, state, phase,
		created_at, last_activity, expires_at, ended_at, violation_count, user_name, user_email, host)
		VALUES (?, ?, ?, ?, 'abc', ?, ?, 'QA', ?, ?, ?, ?, 0, ?, ?, 'host')`)
	if err != nil {
		return err
	}
	insE, err := tx.Prepare(`INSERT INTO events (session_id, seq, token, detail, created_at) VALUES (?, ?, 'tool:x', '', ?)`)
	if err != nil {
		return err
	}
	insP, err := tx.Prepare(`INSERT INTO phase_results (session_id, phase_id, status, level, started_at, ended_at) VALUES (?, 'QA', 'PASSED', 'BLOCKING', ?, ?)`)
	if err != nil {
		return err
	}
	// Violations through the columns AddViolation keeps (violation_count).
	insV, err := tx.Prepare(`INSERT INTO violations (session_id, repo_id, phase, severity, code, message, state_window, created_at)
		VALUES (?, ?, 'QA', 'HIGH', ?, 'forced', 'session', ?)`)
	if err != nil {
		return err
	}
	bump, err := tx.Prepare(`UPDATE sessions SET violation_count = violation_count + 1 WHERE id = ?`)
	if err != nil {
		return err
	}
	for i := range n {
		r := sessionRow(i, n, now)
		if _, err := insS.Exec(r.id, r.repo, r.worktree, r.branch, r.objective, r.state, r.created, r.created+int64(time.Minute),
			r.created+int64(24*time.Hour), r.ended, r.user, r.email); err != nil {
			return fmt.Errorf("session %d: %w", i, err)
		}
		for seq := 1; seq <= 2; seq++ {
			if _, err := insE.Exec(r.id, seq, r.created+int64(seq)*int64(time.Minute)); err != nil {
				return err
			}
		}
		if _, err := insP.Exec(r.id, r.created, r.created+int64(time.Minute)); err != nil {
			return err
		}
		if r.violations > 0 {
			if _, err := insV.Exec(r.id, r.repo, r.code, r.ended); err != nil {
				return err
			}
			if _, err := bump.Exec(r.id); err != nil {
				return err
			}
		}
	}
	if _, err := tx.Exec(`INSERT INTO sessions_fts (sessions_fts) VALUES ('rebuild')`); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	if _, err := tx.Exec(ftsTrigger); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = raw.Exec(`ANALYZE`)
	return err
}

func seedPostgres(ctx context.Context, url string, n int, now time.Time) error {
	db, err := postgres.Open(ctx, url) // the schema, through the real migrations
	if err != nil {
		return err
	}
	db.Close()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var rows [][]any
	for r := 1; r <= repos; r++ {
		rows = append(rows, []any{int64(r), fmt.Sprintf("/srv/r%03d", r), fmt.Sprintf("r%03d", r), fmt.Sprintf("github.com/o/r%03d", r)})
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"repositories"}, []string{"id", "root", "name", "origin"}, pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("repositories: %w", err)
	}
	cols := []string{"id", "repo_id", "worktree", "branch", "protocol_sha256", "objective", "state", "phase", "created_at",
		"last_activity", "expires_at", "ended_at", "violation_count", "user_name", "user_email", "host"}
	const chunk = 50_000
	for lo := 0; lo < n; lo += chunk {
		hi := min(n, lo+chunk)
		var sess, evs, prs, vios [][]any
		for i := lo; i < hi; i++ {
			r := sessionRow(i, n, now)
			sess = append(sess, []any{r.id, r.repo, r.worktree, r.branch, "abc", r.objective, r.state, "QA", r.created,
				r.created + int64(time.Minute), r.created + int64(24*time.Hour), r.ended, r.violations, r.user, r.email, "host"})
			for seq := 1; seq <= 2; seq++ {
				evs = append(evs, []any{r.id, int64(seq), "tool:x", "", r.created + int64(seq)*int64(time.Minute)})
			}
			prs = append(prs, []any{r.id, "QA", "PASSED", "BLOCKING", r.created, r.created + int64(time.Minute)})
			if r.violations > 0 {
				vios = append(vios, []any{r.id, r.repo, "QA", "HIGH", r.code, "forced", "session", r.ended})
			}
		}
		for _, c := range []struct {
			table string
			cols  []string
			rows  [][]any
		}{
			{"sessions", cols, sess},
			{"events", []string{"session_id", "seq", "token", "detail", "created_at"}, evs},
			{"phase_results", []string{"session_id", "phase_id", "status", "level", "started_at", "ended_at"}, prs},
			{"violations", []string{"session_id", "repo_id", "phase", "severity", "code", "message", "state_window", "created_at"}, vios},
		} {
			if _, err := conn.CopyFrom(ctx, pgx.Identifier{c.table}, c.cols, pgx.CopyFromRows(c.rows)); err != nil {
				return fmt.Errorf("%s: %w", c.table, err)
			}
		}
	}
	// Statistics and the visibility map, as autovacuum would leave them.
	_, err = conn.Exec(ctx, "VACUUM ANALYZE")
	return err
}
