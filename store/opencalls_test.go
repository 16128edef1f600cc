package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store/storetest"
)

// TestOpenCallsCountedAgreesWithProbe: OpenCallEvents from the counts the
// triggers keep (open_calls, migration 0020) answers exactly as round 24's
// probe over every judged call did, for every agent, after each step of a
// random session: judgments, reports, missing and interrupted settlements,
// a key judged many times, ids that are prefixes of others, reports of
// calls never judged, another agent's reports and details that name no
// call ("<agent>", "<agent> <id> x", " <id> ..."). Then for a database
// written before 0020: the migration fills open_calls from the events, and
// the triggers keep it from there.
func TestOpenCallsCountedAgreesWithProbe(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sg.db")
	db := openAt(t, path)
	s := newSession(t, db, "/r")
	other := newSession(t, db, "/o")
	agents := storetest.CallAgents
	rng := rand.New(rand.NewPCG(25, 26))
	step := func() {
		tok, detail, toOther := storetest.RandomCallEvent(rng)
		sid := s.ID
		if toOther {
			sid = other.ID
		}
		update(t, db, func(w session.Writer) error {
			return w.AppendEvent(ctx, &session.Event{SessionID: sid, Token: tok, Detail: detail})
		})
	}
	compare := func(when string) {
		t.Helper()
		for _, agent := range agents {
			for _, sid := range []string{s.ID, other.ID} {
				got, err := db.OpenCallEvents(ctx, sid, "agent:"+agent+":judged", agent)
				if err != nil {
					t.Fatal(err)
				}
				want, err := db.reader.queryEvents(ctx, sid, openCallEventsProbeSQL, sid, "agent:"+agent+":judged", agent)
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
	open := 0
	for i := range 600 {
		step()
		if i%15 == 14 {
			compare(fmt.Sprintf("after %d events", i+1))
		}
	}
	for _, agent := range agents {
		evs, _ := db.OpenCallEvents(ctx, s.ID, "agent:"+agent+":judged", agent)
		open += len(evs)
	}
	if open == 0 {
		t.Fatal("no call left open: the comparison proved little")
	}
	// A database of an older version: no open_calls, events written.
	for _, q := range []string{`DROP TRIGGER open_calls_judged`, `DROP TRIGGER open_calls_closed`, `DROP TABLE open_calls`, `PRAGMA user_version = 19`} {
		if _, err := db.writer.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for range 60 {
		step()
	}
	db.Close()
	db = openAt(t, path) // migrates 19 -> 20: fills open_calls
	compare("after the migration")
	for i := range 120 {
		step()
		if i%15 == 14 {
			compare(fmt.Sprintf("after the migration and %d events", i+1))
		}
	}
	// The counts deleted, as a lazy agent with sqlite3 could: the counted
	// read answers nothing, the gate's walk still answers the probe's rows.
	if _, err := db.writer.ExecContext(ctx, `DELETE FROM open_calls`); err != nil {
		t.Fatal(err)
	}
	lost := 0
	for _, agent := range agents {
		judged := "agent:" + agent + ":judged"
		counted, _ := db.OpenCallEvents(ctx, s.ID, judged, agent)
		walked, err := db.WalkOpenCallEvents(ctx, s.ID, judged, agent)
		want, err2 := db.reader.queryEvents(ctx, s.ID, openCallEventsProbeSQL, s.ID, judged, agent)
		if err != nil || err2 != nil || !reflect.DeepEqual(walked, want) {
			t.Fatalf("counts deleted, %s: walked %v (%v), probe %v (%v)", agent, walked, err, want, err2)
		}
		lost += len(want) - len(counted)
	}
	if lost == 0 {
		t.Fatal("deleting the counts lost no open call: the comparison proved little")
	}
}
