package verify

import (
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/snapshot"
)

// A record written since sessions refuse evidence while they end holds
// only events within its session's started_at..ended_at (clock_version
// 1): an event dated after the end, or before the start, was added by hand
// (a forged gate pass after the session ended). Older records
// (clock_version 0) may hold such events and are not judged by time.

// maxClockProblems bounds the problems one record reports.
const maxClockProblems = 5

// readClock adds a problem per event outside its session's time.
func readClock(rc *recordCheck, rec *snapshot.Record) {
	if rec.ClockVersion == 0 || rec.Session == nil {
		return
	}
	start, err := time.Parse(time.RFC3339Nano, rec.Session.StartedAt)
	if err != nil {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: started_at %q is not a time (record edited)", rc.path, rec.Session.StartedAt))
		return
	}
	var end time.Time
	if rec.Session.EndedAt != "" {
		if end, err = time.Parse(time.RFC3339Nano, rec.Session.EndedAt); err != nil {
			rc.problems = append(rc.problems, fmt.Sprintf("%s: ended_at %q is not a time (record edited)", rc.path, rec.Session.EndedAt))
			return
		}
	}
	n := 0
	for _, ev := range rec.Events {
		at, err := time.Parse(time.RFC3339Nano, ev.At)
		why := ""
		switch {
		case err != nil:
			why = fmt.Sprintf("is dated %q, not a time", ev.At)
		case at.Before(start):
			why = fmt.Sprintf("is dated %s, before the session started (%s)", ev.At, rec.Session.StartedAt)
		case !end.IsZero() && at.After(end):
			why = fmt.Sprintf("is dated %s, after the session ended (%s)", ev.At, rec.Session.EndedAt)
		default:
			continue
		}
		if n++; n > maxClockProblems {
			rc.problems = append(rc.problems, fmt.Sprintf("%s: more events outside the session's time", rc.path))
			return
		}
		rc.problems = append(rc.problems, fmt.Sprintf("%s: event %d (%s) %s: a record of clock_version %d holds only the session's own events (record edited)", rc.path, ev.Seq, ev.Token, why, rec.ClockVersion))
	}
}
