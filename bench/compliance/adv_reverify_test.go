package compliance_test

import "testing"

// TestAdvReverifyAfterCommit: v3.0's GIT_OPERATIONS says "Re-verify the
// branch before commit". The lazy agent commits first and runs the check
// afterwards, once the commit can no longer land elsewhere:
//
//	git add -A && git commit -m "docs(handoff): ..."
//	sessiongate run --requirement GIT_OPERATIONS.re-verify-branch-before -- git branch --show-current
//	sessiongate session advance; sessiongate session end ...
//
// The run counted whenever it came: COMPLETE, clean, verify passing.
// Closed: a "before commit" requirement's evidence must come before a
// commit of its phase (session/beforecommit.go). The honest order is
// TestAdvHonestControl's.
func TestAdvReverifyAfterCommit(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	w.deviate()
	if clean, said := w.advEndPhases(advEnd{reverifyAfter: true}); clean {
		t.Errorf("route gets through: the branch re-verified only after the commit; COMPLETE, clean, verify passing\n%s", said)
	}
}
