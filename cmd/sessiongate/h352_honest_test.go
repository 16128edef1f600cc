package main

import (
	"strings"
	"testing"
)

func (w *ciWorld) sessionLog(t *testing.T, work func()) string {
	t.Helper()
	w.sg(t, w.dev, "session", "start", "--objective", "work for CI")
	w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the README")
	w.sg(t, w.dev, "session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "git status: clean")
	w.sg(t, w.dev, "session", "advance", "--to", "WORKING")
	work()
	w.sg(t, w.dev, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, strings.Fields(w.qaCmd)...)...)
	w.sg(t, w.dev, "session", "advance", "--to", "DOCUMENTATION_UPDATE")
	out := w.sg(t, w.dev, "session", "end", "--summary", "done")
	t.Logf("end: %s", out)
	return out
}

// TestH352MidSessionPullRebaseThenCommit: an earlier session's commit,
// unpushed; the next session starts on it, pulls --rebase mid-session
// (4d4b2568 made the replay no BYPASS) and then commits. Every commit
// after the rebase was a FOREIGN_AMEND (it does not descend from the
// start, which the rebase copied): "COMPLETE, not clean" and verify FAIL.
// A copy of the start with its change intact is no foreign amend.
func TestH352MidSessionPullRebaseThenCommit(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	w.git(t, w.dev, "checkout", "-q", "main")
	w.qaCmd = "test ! -f broken.txt"
	base := w.git(t, w.dev, "rev-parse", "HEAD")
	w.sessionWith(t, func() {
		w.writeFile(t, "other.txt", "main's\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "main adds other.txt")
	})
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "main")
	main2 := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "checkout", "-q", "-b", "topic", base)
	w.sessionWith(t, func() {
		w.writeFile(t, "a.txt", "a\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "add a.txt")
	})
	end := w.sessionLog(t, func() {
		w.git(t, w.dev, "rebase", "-q", main2)
		w.writeFile(t, "c.txt", "c\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "add c.txt")
	})
	if !strings.Contains(end, "COMPLETE: clean") {
		t.Fatalf("an honest mid-session pull --rebase then a commit did not end clean:\n%s", end)
	}
	tip := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "HEAD:refs/heads/topic")
	w.git(t, w.dev, "push", "-q", "--no-verify", "-f", "origin", "refs/sessiongate/records")
	w.git(t, w.remote, "update-ref", "refs/heads/main", tip)
	ci := w.gitlabBuild(t, "h352h", tip, 0, "+refs/heads/main:refs/remotes/origin/main",
		"+refs/sessiongate/records:refs/sessiongate/records")
	env := append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push",
		"CI_COMMIT_BRANCH=main", "CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA="+main2, "CI_COMMIT_SHA="+tip)
	verifyWants(t, ci, env, nil, 0, []string{
		`(?m)^OK .* add a\.txt\n\s+a rewrite of checked work`,
		`(?m)^OK .* add c\.txt`,
	})
}
