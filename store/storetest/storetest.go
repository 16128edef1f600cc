// Package storetest is the conformance suite of session.Store: one set of
// behaviours every store implementation must have, run against SQLite
// (package store) and PostgreSQL (package postgres) by their own tests:
//
//	func TestConformance(t *testing.T) { storetest.Run(t, openFresh) }
//
// Each case opens its own empty store. What is specific to one engine
// (SQLite's pragmas and query plans, PostgreSQL's server going away) stays
// in that package's tests.
package storetest

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// Opener returns a new, empty, migrated store that is closed when t ends.
type Opener func(t *testing.T) session.Store

// Aggregates are the dashboard's reads beyond session.Reader
// (server/dashboard.go finds them by type assertion); both stores have them.
type Aggregates interface {
	ComplianceByDay(ctx context.Context, from, to time.Time) ([]session.DayCompliance, error)
	CountSessionsByState(ctx context.Context) (*session.SessionCounts, error)
	ViolationCounts(ctx context.Context, ids []string) (map[string]int, error)
	LastEventSeq(ctx context.Context, sessionID string) (int64, error)
	ListProtocols(ctx context.Context, limit int) ([]session.ProtocolVersion, error)
	DashboardSessions(ctx context.Context, f session.SessionFilter) (*session.SessionPage, error)
}

// Run runs every case as a subtest.
func Run(t *testing.T, open Opener) {
	for _, c := range []struct {
		name string
		fn   func(t *testing.T, open Opener)
	}{
		{"SessionRoundTrip", testSessionRoundTrip},
		{"TouchSession", testTouchSession},
		{"CreateSessionDefaults", testCreateSessionDefaults},
		{"Repositories", testRepositories},
		{"Protocols", testProtocols},
		{"PhaseResults", testPhaseResults},
		{"Evidence", testEvidence},
		{"GateEvidence", testGateEvidence},
		{"GateEvidenceAfterEnd", testGateEvidenceAfterEnd},
		{"RecordedCommits", testRecordedCommits},
		{"TeamActivity", testTeamActivity},
		{"Events", testEvents},
		{"Snapshots", testSnapshots},
		{"ViolationRoundTrip", testViolationRoundTrip},
		{"DeleteSessionRemovesEverything", testDeleteSessionRemovesEverything},
		{"UpdateRollsBack", testUpdateRollsBack},
		{"UpdateHonoursContext", testUpdateHonoursContext},
		{"ListSessionsFilters", testListSessionsFilters},
		{"ListSessionsPages", testListSessionsPages},
		{"SessionQueries", testSessionQueries},
		{"ListViolationsFilters", testListViolationsFilters},
		{"Identity", testIdentity},
		{"AgentBindings", testAgentBindings},
		{"TrustedFiles", testTrustedFiles},
		{"SecretsRedacted", testSecretsRedacted},
		{"Aggregates", testAggregates},
		{"ComplianceByDayFollowsChanges", testComplianceByDayFollowsChanges},
		{"SeverityFilter", testSeverityFilter},
		{"ComplianceByDay", testComplianceByDay},
		{"StateCountsFollowWrites", testStateCountsFollowWrites},
		{"SearchFollowsObjectiveChanges", testSearchIndexFollowsObjectiveChanges},
		{"DashboardSmallReads", testDashboardSmallReads},
		{"ViolationSeverities", testViolationSeverities},
		{"SessionVerdictInputs", testSessionVerdictInputs},
		{"ConcurrentAppendEvent", testConcurrentAppendEvent},
	} {
		t.Run(c.name, func(t *testing.T) { c.fn(t, open) })
	}
}

// defaultLimit is both stores' page size when a filter's Limit is 0.
const defaultLimit = 50

var t0 = time.Date(2026, 7, 28, 9, 0, 0, 123456789, time.UTC)

func sid(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }

func minute(n int) time.Time { return t0.Add(time.Duration(n) * time.Minute) }

func mustEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

// update runs fn in db.Update and fails the test on error.
func update(t testing.TB, db session.Store, fn func(w session.Writer) error) {
	t.Helper()
	if err := db.Update(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

// newSession stores a repository and a session in it and returns the session.
func newSession(t testing.TB, db session.Store, root string) *session.Session {
	t.Helper()
	var s *session.Session
	update(t, db, func(w session.Writer) error {
		repo, err := w.EnsureRepository(context.Background(), root, "r")
		if err != nil {
			return err
		}
		s = &session.Session{RepoID: repo.ID, Worktree: root, Branch: "main", State: session.StateInit}
		return w.CreateSession(context.Background(), s)
	})
	return s
}

func aggregates(t *testing.T, db session.Store) Aggregates {
	t.Helper()
	a, ok := db.(Aggregates)
	if !ok {
		t.Fatalf("%T lacks the dashboard's aggregate reads", db)
	}
	return a
}

func violationCount(t *testing.T, db session.Store, id string) int {
	t.Helper()
	m, err := aggregates(t, db).ViolationCounts(context.Background(), []string{id})
	if err != nil {
		t.Fatal(err)
	}
	return m[id]
}

// sessionRows counts what the store holds for a session, by kind.
func sessionRows(t *testing.T, db session.Store, id string) map[string]int {
	t.Helper()
	ctx := context.Background()
	out := map[string]int{}
	if _, err := db.GetSession(ctx, id); err == nil {
		out["session"] = 1
	} else {
		out["session"] = 0
	}
	pr, err1 := db.PhaseResults(ctx, id)
	ev, err2 := db.ListEvidence(ctx, id)
	es, err3 := db.ListEvents(ctx, id, 0, 0)
	vs, err4 := db.ListViolations(ctx, session.ViolationFilter{SessionID: id})
	ss, err5 := db.ListSnapshots(ctx, id)
	for _, err := range []error{err1, err2, err3, err4, err5} {
		if err != nil {
			t.Fatal(err)
		}
	}
	out["phase results"], out["evidence"], out["events"], out["violations"], out["snapshots"] = len(pr), len(ev), len(es), len(vs), len(ss)
	return out
}

// testConcurrentAppendEvent appends from many goroutines at once, each in
// its own Update (on PostgreSQL each on its own pooled connection): every
// event gets a distinct Seq and the Seqs run 1..n without gaps.
func testConcurrentAppendEvent(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	s := newSession(t, db, "/r")
	const workers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	seqs := make(chan int64, workers*each)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				err := db.Update(ctx, func(w session.Writer) error {
					// Read-modify-write of the session too, as the engine does.
					cur, err := w.GetSession(ctx, s.ID)
					if err != nil {
						return err
					}
					var n int
					fmt.Sscan(cur.Summary, &n)
					cur.Summary = fmt.Sprint(n + 1)
					if err := w.UpdateSession(ctx, cur); err != nil {
						return err
					}
					e := &session.Event{SessionID: s.ID, Token: "tick"}
					if err := w.AppendEvent(ctx, e); err != nil {
						return err
					}
					seqs <- e.Seq
					return nil
				})
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	close(seqs)
	for err := range errs {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for q := range seqs {
		if seen[q] {
			t.Errorf("Seq %d given twice", q)
		}
		seen[q] = true
	}
	evs, err := db.ListEvents(ctx, s.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != workers*each {
		t.Fatalf("%d events stored, want %d", len(evs), workers*each)
	}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has Seq %d: want 1..n without gaps", i, e.Seq)
		}
	}
	got, err := db.GetSession(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Every read-modify-write saw the one before: no lost update.
	if want := fmt.Sprint(workers * each); got.Summary != want {
		t.Errorf("counter in Summary = %q, want %s (an update was lost)", got.Summary, want)
	}
}
