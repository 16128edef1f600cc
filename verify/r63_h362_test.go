package verify

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/snapshot"
)

// TestR63H362AbandonedRecordSayingComplete (helper 362): a record edited on
// a fork's records ref so its final snapshot says COMPLETE while the
// session's state says ABANDONED, with a mandatory phase PENDING, panicked
// verify ("assignment to entry in nil map": exit 2 and a Go stack trace in
// the pull request's job). It is now reported and fails, never trusted; the
// honest shape (an ABANDONED session whose final snapshot is not COMPLETE)
// keeps its liftable gates.
func TestR63H362AbandonedRecordSayingComplete(t *testing.T) {
	const id = "0f0f0f0f-0000-4000-8000-000000000362"
	body := func(final string) []byte {
		rec := snapshot.Record{SessionID: id, Session: &snapshot.SessionMeta{State: "ABANDONED"}}
		p := snapshot.Payload{}
		p.Session.SessionID = id
		p.State.State = final
		p.State.Phases = []snapshot.Phase{{ID: "QA_VALIDATION", Gate: "BLOCKING", Status: "PENDING"}}
		rec.Snapshots = []snapshot.Payload{p}
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct {
		name, final string
		liftable    bool
	}{
		{"lazy: final snapshot edited to COMPLETE", "COMPLETE", false},
		{"honest: abandoned while WORKING", "WORKING", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			rc := checkRecord(&recordCheck{path: "refs/sessiongate/records:sessions/0f/" + id + ".json"}, body(c.final), id, nil)
			var gate string
			for _, p := range rc.problems {
				if strings.Contains(p, "BLOCKING gate QA_VALIDATION is PENDING") {
					gate = p
				}
			}
			if gate == "" {
				t.Fatalf("no problem names the PENDING gate: %q", rc.problems)
			}
			if rc.liftable[gate] != c.liftable {
				t.Errorf("liftable = %v, want %v", rc.liftable[gate], c.liftable)
			}
		})
	}
}
