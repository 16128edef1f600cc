package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/recordref"
)

// A record is written again on the records ref as the session goes on,
// and the ref's history keeps every version (a push only adds). Two
// launderings read only the tip:
//
// started_at and ended_at are the record's own words: moving ended_at
// past a gate pass added after the end passed the time check of clock.go
// (TestVerifyRecordsRef "ended_at moved past it"). The ref's history
// keeps the record's first versions, so a session's start is what its
// first version said and its end what the first version written with an
// end said; a record that says otherwise was edited.
//
// A violation on one version, rewritten away in a later one with the
// snapshot ids recomputed (they are content hashes anyone can compute),
// passed verify (TestVerifyViolationRewrittenAway). Nothing takes a
// violation away from a session, so every mark a version's final snapshot
// carried must be in the tip's.

// checkHistory adds a problem when rc's started_at or ended_at differ
// from what the ref's history first held for session id, or when rc lacks
// a violation an earlier version carried.
func checkHistory(ctx context.Context, dir, tip, id string, rc *recordCheck) {
	ts, err := recordref.RecordTimes(ctx, dir, tip, id)
	if err != nil {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: %v", rc.path, err))
		return
	}
	var start, end, endState string
	have := map[string]bool{}
	for _, m := range rc.marks {
		have[m] = true
	}
	var lost, split []string
	rc.contentVersions = len(ts)
	for _, t := range ts {
		for seq, tok := range t.ContentEvents {
			if rc.contentSeen == nil {
				rc.contentSeen = map[int64]string{}
			}
			if was, ok := rc.contentSeen[seq]; ok && was != tok {
				rc.contentSplit = true
			}
			rc.contentSeen[seq] = tok
			if rc.contentCount == nil {
				rc.contentCount = map[int64]int{}
			}
			rc.contentCount[seq]++
		}
		for _, m := range t.Violations {
			if !have[m] && !slices.Contains(lost, m) {
				lost = append(lost, m)
			}
		}
		if start == "" {
			start = t.StartedAt
		}
		if end == "" {
			end = t.EndedAt
		}
		// A session ends once: a version written with an end says how.
		// An ABANDONED record rewritten COMPLETE (ids recomputed,
		// end_commit set) passed on the old code. Any such version, not
		// the first: "first" is git's date order, and a fork's copy
		// committed with an old date and merged beside origin's came
		// first (helper 368).
		if t.EndedAt != "" && t.State != "" && (endState == "" || endState == "COMPLETE") {
			endState = t.State
		}
		// A session starts and ends once, so every version says the same:
		// "first" is git's date order, and a side commit dated earlier and
		// merged in (a fast-forward) came first with a moved end.
		if t.StartedAt != "" && !sameTime(t.StartedAt, start) && !slices.Contains(split, "started_at") {
			split = append(split, "started_at")
		}
		if t.EndedAt != "" && !sameTime(t.EndedAt, end) && !slices.Contains(split, "ended_at") {
			split = append(split, "ended_at")
		}
	}
	if len(split) > 0 {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: versions of the record on the records ref say different %s (a session starts and ends once: record edited)", rc.path, strings.Join(split, " and ")))
	}
	if len(lost) > 0 {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: no longer carries %s, which an earlier version of the record on the records ref did (violation rewritten away: record edited)", rc.path, strings.Join(lost, ", ")))
	}
	if start != "" && !sameTime(rc.startedAt, start) {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: started_at %s, but the record's first version on the records ref said %s (record edited)", rc.path, rc.startedAt, start))
	}
	// Only the laundering direction: a COMPLETE session terminated or
	// deleted later by a person is written again in its new state, and
	// fails as not COMPLETE on its own.
	if end != "" && endState != "" && rc.endState == "COMPLETE" && endState != "COMPLETE" {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: says the session ended %s, but a version with an end on the records ref said %s (a session ends once: record edited)", rc.path, orNone(rc.endState), endState))
	}
	if end != "" && !sameTime(rc.endedAt, end) {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: ended_at %s, but the record's first version with an end on the records ref said %s (record edited)", rc.path, orNone(rc.endedAt), end))
	}
}

// sameTime compares two record times as instants (a writer of another
// version may have spelled the same time with other precision).
func sameTime(a, b string) bool {
	x, errA := time.Parse(time.RFC3339Nano, a)
	y, errB := time.Parse(time.RFC3339Nano, b)
	if errA != nil || errB != nil {
		return a == b
	}
	return x.Equal(y)
}
