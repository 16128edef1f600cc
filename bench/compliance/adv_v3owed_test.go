package compliance_test

import "testing"

// TestAdvV3TaskNeverRead: CONTEXT_RETRIEVAL of the v3.0-style protocol has
// three requirements; "Read the issue or task you were given" (a MUST)
// owes nothing, because the built-in content_hash check of the handoff
// replaces the per-requirement evidence check (protocol show: no OWES).
// The lazy agent records the handoff's hash only and passes the phase.
func TestAdvV3TaskNeverRead(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advOK("hash the handoff", "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", contentHash, "--value", ".agents/HANDOFF.md")
	w.deviate()
	if r := w.sg("session", "advance"); r.code == 0 {
		t.Errorf("route gets through: CONTEXT_RETRIEVAL passed with \"Read the issue or task you were given\" never evidenced:\n%s", r.text())
	}
}

// TestAdvV3BranchNotReverified: GIT_OPERATIONS' "Re-verify the branch
// before commit" (a MUST) owes nothing: the phase's built-in
// commit_since_start replaces the per-requirement evidence check. The lazy
// agent never re-checks the branch and ends COMPLETE, clean, verify passing.
func TestAdvV3BranchNotReverified(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	w.deviate()
	if clean, said := w.advEndPhases(advEnd{skipReverify: true}); clean {
		t.Errorf("route gets through: GIT_OPERATIONS passed with \"Re-verify the branch before commit\" never done\n%s", said)
	}
}
