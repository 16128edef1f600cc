package verify

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/eventpin"
	"github.com/sessiongate/sessiongate/gitrepo"
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
			rc.notes = append(rc.notes, fmt.Sprintf("%s: the record shed its oldest events, so the event pin of %s is not re-checked", rc.path, eventpin.Label(p)))
			return
		case !have || got != p.Events:
			rc.problems = append(rc.problems, fmt.Sprintf("%s: the session's events differ from the first %d pinned on the records ref at %s (%s, %s): the session database was rewritten after it", rc.path, n, eventpin.Label(p), session.CodeEventsRewritten, p.At))
			return
		}
	}
}

// unheldPins lists the Session-Pin records commits of the range's session
// commits that the records ref does not hold: the pre-commit wrote each
// onto the ref before its commit was made, and a push only adds to the
// ref, so one missing is a ref moved back or deleted before it was pushed
// (its pins and violations lost, RECORDS_REWOUND). One git process for
// the range.
func unheldPins(ctx context.Context, src source, commits []gitrepo.Commit) (map[string]bool, error) {
	if src.ref == "" || src.refTip == "" {
		return nil, nil
	}
	var named []string
	seen := map[string]bool{}
	for _, c := range commits {
		if len(c.Trailers[TrailerSession]) == 0 {
			continue
		}
		if ps := c.Trailers[eventpin.TrailerPinKey]; len(ps) > 0 && !seen[ps[len(ps)-1]] {
			seen[ps[len(ps)-1]] = true
			named = append(named, ps[len(ps)-1])
		}
	}
	if len(named) == 0 {
		return nil, nil
	}
	missing, err := recordref.Unreachable(ctx, src.repo.Root(), src.ref, named)
	if err != nil {
		return nil, fmt.Errorf("check the commits' %s trailers against %s: %w", eventpin.TrailerPinKey, src.ref, err)
	}
	out := make(map[string]bool, len(missing))
	for _, m := range missing {
		out[m] = true
	}
	return out, nil
}
