package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store/storetest"
)

// TestOpenCallsCountedAgreesWithProbe is the SQLite store's test of the
// same name on PostgreSQL: OpenCallEvents from open_calls (migration 0014,
// kept by a trigger) answers as round 24's probe did after each step of a
// random session, and a database written before 0014 gets its counts from
// the migration.
func TestOpenCallsCountedAgreesWithProbe(t *testing.T) {
	ctx := context.Background()
	u := newURL(t)
	db := openURL(t, u)
	var s, other *session.Session
	if err := db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		s = &session.Session{RepoID: repo.ID, Worktree: "/r", State: session.StateWorking}
		if err := w.CreateSession(ctx, s); err != nil {
			return err
		}
		other = &session.Session{RepoID: repo.ID, Worktree: "/o", State: session.StateWorking}
		return w.CreateSession(ctx, other)
	}); err != nil {
		t.Fatal(err)
	}
	agents := storetest.CallAgents
	rng := rand.New(rand.NewPCG(25, 26))
	step := func(db *DB) {
		tok, detail, toOther := storetest.RandomCallEvent(rng)
		sid := s.ID
		if toOther {
			sid = other.ID
		}
		if err := db.Update(ctx, func(w session.Writer) error {
			return w.AppendEvent(ctx, &session.Event{SessionID: sid, Token: tok, Detail: detail})
		}); err != nil {
			t.Fatal(err)
		}
	}
	compare := func(db *DB, when string) {
		t.Helper()
		for _, agent := range agents {
			for _, sid := range []string{s.ID, other.ID} {
				got, err := db.OpenCallEvents(ctx, sid, "agent:"+agent+":judged", agent)
				if err != nil {
					t.Fatal(err)
				}
				want, err := db.queryEvents(ctx, sid, openCallEventsProbeSQL, sid, "agent:"+agent+":judged", agent)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, %s: counted %v, probe %v", when, agent, got, want)
				}
				// A gate's read (WalkOpenCallEvents, from the events alone)
				// answers the same.
				walked, err := db.WalkOpenCallEvents(ctx, sid, "agent:"+agent+":judged", agent)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(walked, want) {
					t.Fatalf("%s, %s: walked %v, probe %v", when, agent, walked, want)
				}
			}
		}
	}
	for i := range 450 {
		step(db)
		if i%15 == 14 {
			compare(db, fmt.Sprintf("after %d events", i+1))
		}
	}
	// A database of an older version: no open_calls, events written.
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{`DROP TRIGGER open_calls_count ON events`, `DROP FUNCTION open_calls_count()`, `DROP TABLE open_calls`, `UPDATE schema_version SET version = 13`} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for range 60 {
		step(db)
	}
	db.Close()
	db = openURL(t, u) // migrates 13 -> 14: fills open_calls
	compare(db, "after the migration")
	for i := range 90 {
		step(db)
		if i%15 == 14 {
			compare(db, fmt.Sprintf("after the migration and %d events", i+1))
		}
	}
	// The counts deleted: the counted read answers nothing, the gate's
	// walk still answers the probe's rows.
	if _, err := conn.Exec(ctx, `DELETE FROM open_calls`); err != nil {
		t.Fatal(err)
	}
	lost := 0
	for _, agent := range agents {
		judged := "agent:" + agent + ":judged"
		counted, _ := db.OpenCallEvents(ctx, s.ID, judged, agent)
		walked, err := db.WalkOpenCallEvents(ctx, s.ID, judged, agent)
		want, err2 := db.queryEvents(ctx, s.ID, openCallEventsProbeSQL, s.ID, judged, agent)
		if err != nil || err2 != nil || !reflect.DeepEqual(walked, want) {
			t.Fatalf("counts deleted, %s: walked %v (%v), probe %v (%v)", agent, walked, err, want, err2)
		}
		lost += len(want) - len(counted)
	}
	if lost == 0 {
		t.Fatal("deleting the counts lost no open call: the comparison proved little")
	}
}
