package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sessiongate/sessiongate/session"
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
	agents := []string{"claude", "codex", "gemini", "cursor", "copilot"}
	ids := []string{"t1", "t2", "t1x", "cp-k", "t"}
	rng := rand.New(rand.NewPCG(25, 26))
	step := func() {
		agent := agents[rng.IntN(len(agents))]
		id := ids[rng.IntN(len(ids))]
		sid := s.ID
		if rng.IntN(10) == 0 {
			sid = other.ID
		}
		var tok, detail string
		switch rng.IntN(12) {
		case 0, 1, 2, 3:
			tok, detail = "agent:"+agent+":judged", id+" Bash d"
		case 4, 5, 6:
			tok, detail = session.TokenToolResult, agent+" "+id
		case 7:
			tok, detail = session.TokenToolUnreported, agent+" "+id+" missing"
		case 8:
			tok, detail = session.TokenToolUnreported, agent+" "+id+" interrupted"
		case 9:
			tok, detail = session.TokenToolResult, []string{agent, agent + " " + id + " x", agent + " ", "bogus " + id}[rng.IntN(4)]
		case 10:
			tok, detail = session.TokenToolUnreported, []string{agent + "  missing", agent + " missing", "bogus " + id + " missing", agent + " " + id + " x missing"}[rng.IntN(4)]
		case 11:
			tok, detail = "agent:"+agent+":judged", []string{" " + id + " Bash", id, id + "  Bash"}[rng.IntN(3)]
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
}
