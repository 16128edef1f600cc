package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store/storetest"
)

// BenchmarkAppendEvent is one Update (BEGIN IMMEDIATE, insert, COMMIT) per
// event: the cost every tool call and hook run pays.
func BenchmarkAppendEvent(b *testing.B) {
	db := openTest(b)
	s := newSession(b, db, "/r")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		err := db.Update(ctx, func(w session.Writer) error {
			return w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "tool_call", Detail: `{"tool":"validate_gate"}`})
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

const seedSessions = 100_000

// seedDashboard fills a new store in dir with seedSessions sessions over 10
// repositories, one transaction, and returns it open. About 10% of the
// sessions have violations; most are COMPLETE.
func seedDashboard(b *testing.B, dir string) *DB {
	b.Helper()
	start := time.Now()
	db := openAt(b, filepath.Join(dir, "seeded.db"))
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	states := []session.State{
		session.StateComplete, session.StateComplete, session.StateComplete, session.StateComplete,
		session.StateComplete, session.StateComplete, session.StateComplete, session.StateAbandoned,
		session.StateAbandoned, session.StateTerminated, session.StateWorking, session.StateInit, session.StateEnding,
	}
	severities := []string{session.SeverityCritical, session.SeverityHigh, session.SeverityMedium, session.SeverityLow}
	update(b, db, func(w session.Writer) error {
		var repos []int64
		for i := range 10 {
			r, err := w.EnsureRepository(ctx, fmt.Sprintf("/src/repo%d", i), fmt.Sprintf("repo%d", i))
			if err != nil {
				return err
			}
			repos = append(repos, r.ID)
		}
		for i := range seedSessions {
			branch := "main"
			if rng.IntN(10) >= 3 {
				branch = fmt.Sprintf("feature/%d", rng.IntN(200))
			}
			repo := rng.IntN(len(repos))
			created := t0.Add(time.Duration(i)*time.Minute + time.Duration(rng.IntN(1000)))
			s := &session.Session{
				ID:           fmt.Sprintf("%08x-0000-4000-8000-%012x", i, rng.Uint64()&0xffffffffffff),
				RepoID:       repos[repo],
				Worktree:     fmt.Sprintf("/src/repo%d/wt%d", repo, rng.IntN(5)),
				Branch:       branch,
				StartCommit:  fmt.Sprintf("%040x", rng.Uint64()),
				ProtocolSHA:  "0123abcd",
				Objective:    fmt.Sprintf("session %d: fix the %s module and update docs", i, []string{"parser", "store", "hooks", "server"}[rng.IntN(4)]),
				State:        states[rng.IntN(len(states))],
				CreatedAt:    created,
				LastActivity: created.Add(time.Duration(rng.IntN(3600)) * time.Second),
			}
			if !s.Active() {
				s.EndedAt = s.LastActivity
			}
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
			if rng.IntN(10) == 0 {
				for range 1 + rng.IntN(3) {
					v := &session.Violation{SessionID: s.ID, Severity: severities[rng.IntN(len(severities))],
						Code: "FORCED_ADVANCE", Phase: "QA_VALIDATION", CreatedAt: created.Add(time.Second)}
					if err := w.AddViolation(ctx, v); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	b.Logf("seeded %d sessions in %v", seedSessions, time.Since(start).Round(time.Millisecond))
	return db
}

// BenchmarkListSessions runs the dashboard's session list on 100,000
// sessions, beside raw queries on the same file as the baseline: the ratio
// shows what the filters and the row decoding cost. The seeded file lives in
// the parent benchmark's temp dir, shared by its sub-benchmarks.
func BenchmarkListSessions(b *testing.B) {
	db := seedDashboard(b, b.TempDir())
	ctx := context.Background()
	yes := true
	// A keyset cursor halfway down the list.
	mid, err := db.ListSessions(ctx, session.SessionFilter{BeforeTime: t0.Add(seedSessions / 2 * time.Minute), Limit: 1})
	if err != nil || len(mid) != 1 {
		b.Fatalf("cursor: %v, %d rows", err, len(mid))
	}
	cursor := mid[0]

	list := func(f session.SessionFilter) func(b *testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ss, err := db.ListSessions(ctx, f)
				if err != nil {
					b.Fatal(err)
				}
				if len(ss) == 0 {
					b.Fatal("no rows")
				}
			}
		}
	}
	b.Run("first_page", list(session.SessionFilter{}))
	b.Run("keyset_page", list(session.SessionFilter{BeforeTime: cursor.CreatedAt, BeforeID: cursor.ID}))
	b.Run("filter_state_branch", list(session.SessionFilter{States: []session.State{session.StateComplete}, Branch: "main"}))
	b.Run("filter_violations_keyset", list(session.SessionFilter{HasViolations: &yes, BeforeTime: cursor.CreatedAt, BeforeID: cursor.ID}))
	b.Run("filter_active_states", list(session.SessionFilter{States: []session.State{session.StateInit, session.StateWorking, session.StateEnding}}))
	b.Run("filter_query", list(session.SessionFilter{Query: "STORE module", BeforeTime: cursor.CreatedAt, BeforeID: cursor.ID}))
	b.Run("count_state", func(b *testing.B) {
		for b.Loop() {
			if _, err := db.CountSessions(ctx, session.SessionFilter{States: []session.State{session.StateComplete}}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline_count_star", func(b *testing.B) {
		for b.Loop() {
			var n int
			if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM sessions`).Scan(&n); err != nil || n != seedSessions {
				b.Fatal(n, err)
			}
		}
	})
	b.Run("baseline_raw_page_ids", func(b *testing.B) {
		for b.Loop() {
			rows, err := db.read.QueryContext(ctx, `SELECT id FROM sessions ORDER BY created_at DESC, id DESC LIMIT 50`)
			if err != nil {
				b.Fatal(err)
			}
			for rows.Next() {
				var id string
				if err := rows.Scan(&id); err != nil {
					b.Fatal(err)
				}
			}
			rows.Close()
		}
	})
	b.Run("violations_page", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := db.ListViolations(ctx, session.ViolationFilter{Severities: []string{session.SeverityCritical}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkStore is the store benchmark shared with the PostgreSQL store
// (store/storetest.Bench), on SQLite.
func BenchmarkStore(b *testing.B) {
	storetest.Bench(b, func(b *testing.B) session.Store { return openTest(b) })
}
