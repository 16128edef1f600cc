package main

import "testing"

// TestR55H332ReleaseRewoundToDeepFailedCommit (helper 332): a hooks-off
// commit X lands on main (main's run fails), 21 sessions land above it,
// release sits at main's tip and is then force-pushed back to X. GitLab's
// push pipeline (before = main's tip, head = X on main) goes through
// onDefaultIsTip and pushedFrom; X must be checked (forcedBase).
func TestR55H332ReleaseRewoundToDeepFailedCommit(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	w.git(t, w.dev, "checkout", "-q", "main")
	w.git(t, w.dev, "reset", "-q", "--hard", w.notrailer)
	w.git(t, w.dev, "push", "-q", "--no-verify", "-f", "origin", "main")
	w.qaCmd = "test ! -f broken.txt"
	for i := 0; i < 21; i++ {
		w.session(t, "m"+itoa(i)+".txt")
	}
	tip := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "origin", "main", "main:refs/heads/release", "refs/sessiongate/records")
	w.git(t, w.dev, "push", "-q", "--no-verify", "-f", "origin", w.notrailer+":refs/heads/release")
	ci := w.gitlabBuild(t, "1", w.notrailer, 20, "+refs/heads/release:refs/remotes/origin/release", "+"+recsSpec)
	verifyWants(t, ci, gitlabPushEnv(w, w.notrailer, tip, "release"), nil, 1, []string{`(?m)^FAIL .* sneak a change`})
}
