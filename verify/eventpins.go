package verify

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// checkPins re-checks a ref record's events against every event-chain pin
// the session's commits left on the records ref (snapshot.EventPin): the
// whole history of its pin file, not only the tip, and whether or not the
// pinned commit is in the range. A commit dropped from the branch (reset
// --soft, amend, checkout -B) after the database was rewritten takes its
// Session-Events trailer along; its pin stays in the ref's history, which
// a push can only add to (issue 25.8).
func checkPins(ctx context.Context, dir, tip, id string, rc *recordCheck) {
	if len(rc.events) == 0 {
		return
	}
	pins, bad, err := recordref.PinHistory(ctx, dir, tip, id)
	if err != nil {
		rc.problems = append(rc.problems, err.Error())
		return
	}
	for _, b := range bad {
		rc.problems = append(rc.problems, b+" (a pin edited by hand)")
	}
	shed := rc.events[0].Seq != 1
	for _, p := range pins {
		n, _ := snapshot.ParseEventChain(p.Events)
		got, have := snapshot.EventChain(rc.events, n)
		switch {
		case !have && shed:
			rc.notes = append(rc.notes, fmt.Sprintf("%s: the record shed its oldest events, so the event pin of %s is not re-checked", rc.path, session.PinLabel(p)))
			return
		case !have || got != p.Events:
			rc.problems = append(rc.problems, fmt.Sprintf("%s: the session's events differ from the first %d pinned on the records ref at %s (%s, %s): the session database was rewritten after it", rc.path, n, session.PinLabel(p), session.CodeEventsRewritten, p.At))
			return
		}
	}
}
