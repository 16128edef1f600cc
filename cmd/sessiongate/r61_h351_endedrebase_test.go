package main

import "testing"

// TestR61RebaseOfEndedSessionsCommits (round 61, helper 351, F1): day one
// an agent's session commits on its branch and ENDS clean; main moves on;
// day two a new session runs `git fetch && git rebase origin/main`, which
// copies the ended session's commit onto main. Before: the replay was a
// CRITICAL BYPASS ("commit work through the hooks"), the session's next
// commit a HIGH FOREIGN_AMEND (the start commit was the copied one), and
// verify failed it ("does not descend from its start commit"). Now the
// copy, patch and message whole, is carried: the earlier session's record
// vouches for it in verify (rewrites.go), the new session ends clean.
// Lazy twins: the copied commit amended with --no-verify after day one
// ended, a hooks-off commit added before the rebase, and a reword during
// the rebase, each still fail verify. The play (playEndedRebase) is in
// r61_h354_revertlaunder_test.go; "honest" is verified in the working
// clone and in a fresh clone of the pushed branch, as CI does.
func TestR61RebaseOfEndedSessionsCommits(t *testing.T) {
	for _, twist := range []string{"honest", "amended-no-verify", "hooks-off-commit", "reworded"} {
		t.Run(twist, func(t *testing.T) { playEndedRebase(t, twist) })
	}
}
