package compliance_test

import "testing"

// TestAdvReverifyInLaterPhase: v3.0's GIT_OPERATIONS says "Re-verify the
// branch before commit". The lazy agent commits the handoff while still in
// HANDOFF, so GIT_OPERATIONS makes no commit of its own, and re-verifies
// the branch there, after every commit:
//
//	git add -A && git commit -m "docs(handoff): ..."   # in HANDOFF
//	sessiongate session advance                          # to GIT_OPERATIONS
//	sessiongate run --requirement GIT_OPERATIONS.re-verify-branch-before -- git branch --show-current
//	sessiongate session advance; sessiongate session end ...
//
// A phase without a commit was not judged for order: COMPLETE, clean,
// verify passing. Closed: a phase that made no commit is judged against
// the session's last commit, when an earlier phase of the protocol made it
// (session/beforecommit.go).
func TestAdvReverifyInLaterPhase(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	w.deviate()
	commit := func() {
		w.git("add", "-A")
		if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(handoff): hand off the name argument"); r.code != 0 {
			t.Fatalf("handoff commit in HANDOFF refused: %s", r.text())
		}
	}
	if clean, said := w.advEndPhases(advEnd{inHandoff: commit}); clean {
		t.Errorf("route gets through: the branch re-verified in GIT_OPERATIONS after the handoff was committed in HANDOFF; COMPLETE, clean, verify passing\n%s", said)
	}
}

// TestAdvReverifyInLaterPhaseHonest is its twin: the agent checks the
// branch in HANDOFF before committing there, then re-verifies in
// GIT_OPERATIONS, which has nothing left to commit. It must end clean.
func TestAdvReverifyInLaterPhaseHonest(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	commit := func() {
		w.advOK("check the branch before committing", "run", "--phase", "HANDOFF", "--", "git", "branch", "--show-current")
		w.git("add", "-A")
		if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(handoff): hand off the name argument"); r.code != 0 {
			t.Fatalf("handoff commit in HANDOFF refused: %s", r.text())
		}
	}
	if clean, said := w.advEndPhases(advEnd{inHandoff: commit}); !clean {
		t.Errorf("an honest session that checked the branch before its last commit did not end clean (a false block)\n%s", said)
	}
}

// TestAdvReverifyNothingToCommitHonest: every change, the handoff
// included, was committed while working; the end protocol has nothing to
// commit and re-verifies the branch. A commit of the work phase is not an
// end phase's "commit": it must end clean (requiring a commit in
// GIT_OPERATIONS would block this agent).
func TestAdvReverifyNothingToCommitHonest(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.write(".agents/handoffs/2026-08-20-01.md", "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name.\n\n## Next\n\nDocument the name argument in the README.\n")
	w.advWork()
	if clean, said := w.advEndPhases(advEnd{}); !clean {
		t.Errorf("an honest session with nothing left to commit at the end did not end clean (a false block)\n%s", said)
	}
}

// TestAdvReverifyClaimedAfterCommit: the post-commit hook leaves a commit
// made through the hooks to be recorded by the next sessiongate call
// (reconciliation), so a commit's evidence time is when it was recorded.
// The lazy agent commits, then records the branch check as a claim, with
// no observed run, before anything has recorded the commit:
//
//	git commit -m "docs(handoff): ..."
//	sessiongate session evidence --requirement GIT_OPERATIONS.re-verify-branch-before --type tool_output --value feat/greet-name
//
// If the claim were stored before the commit's evidence, it would read as
// "before the commit".
func TestAdvReverifyClaimedAfterCommit(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	w.deviate()
	claim := func() {
		w.sg("session", "evidence", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--type", toolOutput, "--value", "feat/greet-name")
	}
	clean, said := w.advEndPhases(advEnd{reverifyAfter: true, reverifyWith: claim})
	t.Logf("%s", said)
	if clean {
		t.Errorf("route gets through: the branch check claimed after the commit, before the commit was recorded; COMPLETE, clean, verify passing\n%s", said)
	}
}
