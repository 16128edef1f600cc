package verify

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
)

// Unchecked stops on the records ref (recordref.StopDir): a stop the agent
// hook let through without a decision (the database locked, the time
// limit passed) is written onto the ref at that moment, beside the note
// the next sessiongate process folds into the database. The note is a
// file the agent can delete by a path only run time knows (a background
// shell started before the stop), and the database with it; the ref's
// history, pushed, is not. So verify judges every stop any version of the
// ref held against the sessions of its range by their conversations:
//
//   - a stop after the session ended (it was COMPLETE, then locked and
//     stopped) or before it started is another session's, or none;
//   - a stop a local fold judged "unchanged" (the turn changed nothing) or
//     "complete" is allowed, as the fold allowed it;
//   - "recorded" must be backed by END_PROTOCOL_SKIPPED in the record
//     (the record's own violations then fail the commit);
//   - a stop no fold judged is END_PROTOCOL_SKIPPED here, also one still
//     on a ref of its own (recordref.StopRefPrefix) in this clone.

// uncheckedStops fails the commits of the range's sessions whose agent
// stopped unchecked with the end protocol undone.
func (t *protocolTrust) uncheckedStops(ctx context.Context, rep *Report, records map[string]*recordCheck, opts Options) error {
	type bound struct {
		id string
		rc *recordCheck
	}
	byKey := map[string][]bound{}
	for id, rc := range records {
		if rc == nil || rc.ids == nil {
			continue
		}
		for _, cv := range rc.conversations {
			k := recordref.StopKey(cv.Agent, cv.ID)
			byKey[k] = append(byKey[k], bound{id, rc})
		}
	}
	if len(byKey) == 0 {
		return nil
	}
	stops, err := recordref.ReadStops(ctx, t.repo.Root(), t.recordsTip)
	if err != nil {
		return err
	}
	// A stop still on a ref of its own (no fold carried it onto the
	// records ref yet) counts as well: unjudged there.
	own, _, err := recordref.ReadStopRefs(ctx, t.repo.Root(), t.recordsRef)
	if err != nil {
		return err
	}
	where := map[string]string{}
	for _, f := range stops {
		where[f.Path] = t.recordsTipName()
	}
	for _, f := range own {
		if _, on := where[f.Path]; !on {
			stops = append(stops, f)
			where[f.Path] = "its own ref under " + recordref.StopRefPrefix(t.recordsRef)
		}
	}
	problems := map[string][]string{} // session -> problems
	for _, f := range stops {
		for _, b := range byKey[recordref.StopKey(f.Stop.Agent, f.Stop.Conversation)] {
			if !within(f.Stop.At, b.rc.startedAt, b.rc.endedAt) {
				continue
			}
			what := fmt.Sprintf("%s stopped at %s while sessiongate could not check the stop (%s; %s on %s)",
				f.Stop.Agent, f.Stop.At.Format(time.RFC3339), f.Stop.Why, f.Path, where[f.Path])
			switch {
			case f.Outcome == nil:
				problems[b.id] = append(problems[b.id], fmt.Sprintf("%s: %s, and no sessiongate process recorded it (the note beside the database was deleted, or the database)", session.CodeEndProtocolSkipped, what))
			case f.Outcome.Outcome == recordref.StopUnchanged || f.Outcome.Outcome == recordref.StopComplete:
			case f.Outcome.Outcome == recordref.StopRecorded && carries(b.rc, session.CodeEndProtocolSkipped):
			default:
				problems[b.id] = append(problems[b.id], fmt.Sprintf("%s: %s; judged %q at %s, yet session %s's record carries no %s", session.CodeEndProtocolSkipped, what,
					f.Outcome.Outcome, f.Outcome.At.Format(time.RFC3339), b.id, session.CodeEndProtocolSkipped))
			}
		}
	}
	for i := range rep.Commits {
		cr := &rep.Commits[i]
		ps := problems[cr.SessionID]
		if len(ps) == 0 {
			continue
		}
		if opts.Violations == "warn" {
			if cr.Status == "ok" {
				cr.Status = "warn"
			}
			cr.Problems = append(cr.Problems, ps[0]+" (verify.violations: warn lets it pass)")
			continue
		}
		cr.Status = "fail"
		cr.Problems = append(cr.Problems, ps...)
		rep.OK = false
	}
	return nil
}

// within reports whether at falls in the session's time: from its start to
// its end (open while it has none). Times that do not parse count as
// open, so a record without them is judged.
func within(at time.Time, started, ended string) bool {
	if s, err := time.Parse(time.RFC3339Nano, started); err == nil && at.Before(s) {
		return false
	}
	if e, err := time.Parse(time.RFC3339Nano, ended); err == nil && at.After(e) {
		return false
	}
	return true
}

// carries reports whether the record's final violations hold code.
func carries(rc *recordCheck, code string) bool {
	for _, v := range rc.violations {
		if c, _, _ := strings.Cut(v, ":"); c == code {
			return true
		}
	}
	return false
}
