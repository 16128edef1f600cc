package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// BenchOpener returns a new, empty, migrated store closed when b ends.
type BenchOpener func(b *testing.B) session.Store

// benchSessions is how many sessions the list benchmarks seed.
const benchSessions = 10_000

// Bench runs the stores' hot paths with one body for every store, so
// their figures compare:
//   - append_event: one Update per event, what every hook run and tool
//     call pays at least;
//   - tool_call: one Update reading the session, touching it and appending
//     an event, the engine's common write;
//   - get_session, list_events: the reads of a tool call;
//   - list_first_page, list_filtered, list_keyset, count_filtered: the
//     dashboard's session list over benchSessions sessions.
func Bench(b *testing.B, open BenchOpener) {
	ctx := context.Background()
	b.Run("append_event", func(b *testing.B) {
		db := open(b)
		s := newSession(b, db, "/r")
		b.ReportAllocs()
		for b.Loop() {
			if err := db.Update(ctx, func(w session.Writer) error {
				return w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "tool_call", Detail: `{"tool":"validate_gate"}`})
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tool_call", func(b *testing.B) {
		db := open(b)
		s := newSession(b, db, "/r")
		b.ReportAllocs()
		for b.Loop() {
			if err := db.Update(ctx, func(w session.Writer) error {
				cur, err := w.GetSession(ctx, s.ID)
				if err != nil {
					return err
				}
				cur.LastActivity = time.Now().UTC()
				if err := w.UpdateSession(ctx, cur); err != nil {
					return err
				}
				return w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "tool:validate_gate"})
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reads", func(b *testing.B) {
		db := open(b)
		s := newSession(b, db, "/r")
		update(b, db, func(w session.Writer) error {
			for range 200 {
				if err := w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "t"}); err != nil {
					return err
				}
			}
			return nil
		})
		b.Run("get_session", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := db.GetSession(ctx, s.ID); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("list_events_last_20", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if evs, err := db.LastEvents(ctx, s.ID, 20); err != nil || len(evs) != 20 {
					b.Fatal(len(evs), err)
				}
			}
		})
	})
	b.Run("lists", func(b *testing.B) {
		db := open(b)
		start := time.Now()
		seedBench(b, db)
		b.Logf("seeded %d sessions in %v", benchSessions, time.Since(start).Round(time.Millisecond))
		mid, err := db.ListSessions(ctx, session.SessionFilter{BeforeTime: t0.Add(benchSessions / 2 * time.Minute), Limit: 1})
		if err != nil || len(mid) != 1 {
			b.Fatalf("cursor: %v, %d rows", err, len(mid))
		}
		list := func(f session.SessionFilter) func(b *testing.B) {
			return func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if ss, err := db.ListSessions(ctx, f); err != nil || len(ss) == 0 {
						b.Fatal(len(ss), err)
					}
				}
			}
		}
		b.Run("list_first_page", list(session.SessionFilter{}))
		b.Run("list_keyset", list(session.SessionFilter{BeforeTime: mid[0].CreatedAt, BeforeID: mid[0].ID}))
		b.Run("list_filtered", list(session.SessionFilter{States: []session.State{session.StateComplete}, Branch: "main", User: "dev3@example.com"}))
		b.Run("list_repo_identity", list(session.SessionFilter{Repo: "github.com/o/repo3"}))
		b.Run("count_filtered", func(b *testing.B) {
			for b.Loop() {
				if _, err := db.CountSessions(ctx, session.SessionFilter{States: []session.State{session.StateComplete}, Host: "host2"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// seedBench stores benchSessions sessions over 10 repositories (with
// origins), 10 people and 5 hosts, ~10% with a violation, in one Update.
func seedBench(b *testing.B, db session.Store) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	states := []session.State{session.StateComplete, session.StateComplete, session.StateComplete, session.StateComplete,
		session.StateAbandoned, session.StateWorking}
	update(b, db, func(w session.Writer) error {
		var repos []int64
		for i := range 10 {
			r, err := w.EnsureRepository(ctx, fmt.Sprintf("/src/repo%d", i), fmt.Sprintf("repo%d", i))
			if err != nil {
				return err
			}
			if err := w.SetRepositoryOrigin(ctx, r.ID, fmt.Sprintf("github.com/o/repo%d", i)); err != nil {
				return err
			}
			repos = append(repos, r.ID)
		}
		for i := range benchSessions {
			branch := "main"
			if rng.IntN(10) >= 3 {
				branch = fmt.Sprintf("feature/%d", rng.IntN(200))
			}
			created := t0.Add(time.Duration(i)*time.Minute + time.Duration(rng.IntN(1000)))
			dev := rng.IntN(10)
			s := &session.Session{
				ID:       fmt.Sprintf("%08x-0000-4000-8000-%012x", i, rng.Uint64()&0xffffffffffff),
				RepoID:   repos[rng.IntN(len(repos))],
				Worktree: "/src/wt", Branch: branch, State: states[rng.IntN(len(states))],
				Objective: fmt.Sprintf("session %d", i), CreatedAt: created, LastActivity: created,
				UserName: fmt.Sprintf("Dev %d", dev), UserEmail: fmt.Sprintf("dev%d@example.com", dev), Host: fmt.Sprintf("host%d", rng.IntN(5)),
			}
			if !s.Active() {
				s.EndedAt = created.Add(time.Hour)
			}
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
			if rng.IntN(10) == 0 {
				if err := w.AddViolation(ctx, &session.Violation{SessionID: s.ID, Severity: session.SeverityHigh, Code: "FORCED_ADVANCE", CreatedAt: created}); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
