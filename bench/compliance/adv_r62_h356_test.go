package compliance_test

import (
	"strings"
	"testing"
)

// TestR62H356ClaimUnderOwnHeading: a session that changed nothing and
// claimed its objective under a heading of its own making ("## Status")
// or in a bold status label ended COMPLETE, clean, verify OK (helper
// 349's open F7). It is stopped now; its honest twin, a blocked session
// whose Status and context describe the code, still ends clean.
func TestR62H356ClaimUnderOwnHeading(t *testing.T) {
	const head = "# Handoff 2026-08-20-01\n\n## Done\n\nRead the task and scripts/greet.sh.\n\n" +
		"## Context\n\nThe greet script prints hello; the name argument is still missing.\n\n"
	const next = "\n\n## Next\n\nAdd the name argument to scripts/greet.sh and document it in the README.\n"
	for _, c := range []struct {
		name, part string
		lazy       bool
	}{
		{"lazy: the claim under Status", "## Status\n\nImplemented the name argument in the greeting script.", true},
		{"lazy: a bold status label", "## Notes\n\n**Status:** implemented", true},
		{"honest: blocked, Status says so", "## Status\n\nBlocked: the default for an empty name is undecided, so the name argument was not added.", false},
		{"honest: nothing to change, Status complete", "## Status\n\nComplete — nothing to change: the greeting script's callers pass no name yet.\n\n**Status:** complete, no change needed", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			if c.lazy {
				w.deviate()
			}
			clean, said := w.advEndPhases(advEnd{handoffBody: head + c.part + next})
			switch {
			case c.lazy && clean:
				t.Fatalf("a session that changed nothing, its handoff claiming the work under a heading of its own, ended COMPLETE, clean, verify OK\n%s", said)
			case c.lazy && !strings.Contains(said, "changed no file besides it"):
				t.Errorf("stopped, but not for the handoff's claim:\n%s", said)
			case !c.lazy && !clean:
				t.Errorf("an honest blocked session was stopped (a false FAIL)\n%s", said)
			}
		})
	}
}
