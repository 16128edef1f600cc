package verify

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/recordref"
)

// started_at and ended_at are the record's own words: moving ended_at
// past a gate pass added after the end passed the time check of clock.go
// (TestVerifyRecordsRef "ended_at moved past it"). The ref's history
// keeps the record's first versions, so a session's start is what its
// first version said and its end what the first version written with an
// end said; a record that says otherwise was edited.

// checkTimes adds a problem when rc's started_at or ended_at differ from
// what the ref's history first held for session id.
func checkTimes(ctx context.Context, dir, tip, id string, rc *recordCheck) {
	if rc.startedAt == "" && rc.endedAt == "" {
		return
	}
	ts, err := recordref.RecordTimes(ctx, dir, tip, id)
	if err != nil {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: %v", rc.path, err))
		return
	}
	var start, end string
	for _, t := range ts {
		if start == "" {
			start = t.StartedAt
		}
		if end == "" {
			end = t.EndedAt
		}
	}
	if start != "" && rc.startedAt != start {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: started_at %s, but the record's first version on the records ref said %s (record edited)", rc.path, rc.startedAt, start))
	}
	if end != "" && rc.endedAt != end {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: ended_at %s, but the record's first version with an end on the records ref said %s (record edited)", rc.path, orNone(rc.endedAt), end))
	}
}
