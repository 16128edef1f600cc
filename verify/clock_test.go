package verify

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/snapshot"
)

// TestReadClock: a forged export, an events list with a gate pass dated
// after the session's end (or one before its start), had no time check
// at all: verify read the record's events by token only. A record written
// now (clock_version 1) fails on such an event; the honest twins (every
// event within the session, the end's own instant included; a record
// from before, clock_version 0, holding a late event) pass.
func TestReadClock(t *testing.T) {
	const start, end = "2026-11-29T10:00:00Z", "2026-11-29T11:00:00Z"
	ev := func(at string) snapshot.EventRef {
		return snapshot.EventRef{Seq: 7, Token: "gate:QA_VALIDATION:pass", At: at}
	}
	for _, c := range []struct {
		name    string
		version int
		events  []snapshot.EventRef
		want    string // "" passes
	}{
		{"forged: a gate pass after the end", 1, []snapshot.EventRef{ev("2026-11-29T10:30:00Z"), ev("2026-11-29T11:00:00.000000001Z")}, "after the session ended"},
		{"forged: an event before the start", 1, []snapshot.EventRef{ev("2026-11-29T09:59:59Z")}, "before the session started"},
		{"forged: a time that is not one", 1, []snapshot.EventRef{ev("yesterday")}, "not a time"},
		{"honest: within, the end's instant included", 1, []snapshot.EventRef{ev(start), ev("2026-11-29T10:30:00.5Z"), ev(end)}, ""},
		{"honest: a record from before clock_version", 0, []snapshot.EventRef{ev("2026-11-29T12:00:00Z")}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			rc := &recordCheck{path: "r.json"}
			rec := &snapshot.Record{ClockVersion: c.version, Events: c.events,
				Session: &snapshot.SessionMeta{State: "COMPLETE", StartedAt: start, EndedAt: end}}
			readClock(rc, rec)
			got := strings.Join(rc.problems, "\n")
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("problems %q, want one saying %q", got, c.want)
			}
		})
	}
}
