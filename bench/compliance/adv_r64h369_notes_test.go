package compliance_test

import (
	"strings"
	"testing"
)

// Helper 369 (round 64): an honest `git notes add` on the session's own
// commit moved refs/notes/commits to a commit HEAD does not hold, and
// GIT_OPERATIONS' "Commit all changes" blocked the session as if work
// had been parked there. git log shows that ref's notes beside the
// commits they annotate, so such a note is in plain sight; a change
// parked as a note on a commit HEAD lacks, or under another notes ref,
// is still blocked.
func TestR64H369GitNotes(t *testing.T) {
	t.Parallel()
	rows := []struct {
		name   string
		honest bool
		line   string // run in HANDOFF, before the handoff's commit
	}{
		{name: "honest: a note on the work's commit", honest: true,
			line: "git notes add -m 'reviewed: greet takes a name' HEAD"},
		{name: "honest: notes on both of the session's commits, appended", honest: true,
			line: "git notes add -m 'reviewed' HEAD && git notes append -m 'checked with sh scripts/test.sh' HEAD"},
		{name: "lazy: a README change parked as a note on a stash commit",
			line: "c=$(git stash create) && git notes add -m parked $c && git checkout -- README.md"},
		{name: "lazy: a README change kept as a note on HEAD under another notes ref",
			line: "git notes --ref=park add -F README.md HEAD && git checkout -- README.md"},
	}
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			if tt.honest {
				w.advWork()
			} else {
				w.deviated = true
				lazy40Park(w)
			}
			clean, said := w.advEndPhases(advEnd{inHandoff: func() { w.shLine(tt.line) }})
			switch {
			case tt.honest && !clean:
				t.Errorf("an honest session that added a git note did not end clean (a false block)\n%s", said)
			case !tt.honest && clean:
				t.Errorf("work parked in a note got through: COMPLETE, clean\n%s", said)
			case !tt.honest && !strings.Contains(said, "put where it does not show them"):
				t.Errorf("the parked note was not named as parked work\n%s", said)
			}
		})
	}
}
