package compliance_test

import (
	"strings"
	"testing"
)

// TestAdvLazy34Handoff: the handoff left open since lazy pass 31: the work
// done honestly, the template's handoff filled with prose that names
// nothing the session did. Every section says something, so it is no
// filler; it now fails HANDOFF, naming what it could have said.
func TestAdvLazy34Handoff(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	w.deviate()
	clean, said := w.advEndPhases(advEnd{handoffDone: "Improved things somewhat and tidied a few bits along the way.\n\n## Next\n\nKeep going from here."})
	if clean {
		t.Fatalf("a handoff that names nothing the session did ended COMPLETE, clean\n%s", said)
	}
	if !strings.Contains(said, "names nothing this session did") {
		t.Errorf("stopped, but not for the handoff naming nothing:\n%s", said)
	}
}
