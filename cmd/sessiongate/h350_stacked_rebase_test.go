package main

import (
	"testing"
)

// TestH350StackedSessionsRebased: two sessions one after the other on a
// topic branch (the second started on the first's end commit), the
// branch then rebased onto a main that changed other files (`git pull
// --rebase` of a teammate's push, GitLab's rebase before a fast-forward).
// The first session's commit passed as a rewrite of checked work, but the
// second failed: "start_commit ... is not a commit of this repository",
// its start being the first's end commit, rewritten. The rewrite standing
// in for the first session's end stands in for the second's start. A
// second session whose recorded start no session ended on still fails.
func TestH350StackedSessionsRebased(t *testing.T) {
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
	for _, f := range []string{"a.txt", "b.txt"} {
		w.sessionWith(t, func() {
			w.writeFile(t, f, f+"\n")
			w.git(t, w.dev, "add", "-A")
			w.git(t, w.dev, "commit", "-q", "-m", "add "+f)
		})
	}
	w.git(t, w.dev, "rebase", "-q", main2)
	tip := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "HEAD:refs/heads/topic")
	w.git(t, w.dev, "push", "-q", "--no-verify", "-f", "origin", "refs/sessiongate/records")
	w.git(t, w.remote, "update-ref", "refs/heads/main", tip)
	ci := w.gitlabBuild(t, "h350", tip, 0, "+refs/heads/main:refs/remotes/origin/main",
		"+refs/sessiongate/records:refs/sessiongate/records")
	env := append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push",
		"CI_COMMIT_BRANCH=main", "CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA="+main2, "CI_COMMIT_SHA="+tip)
	verifyWants(t, ci, env, nil, 0, []string{
		`(?m)^OK .* add a\.txt\n\s+a rewrite of checked work`,
		`(?m)^OK .* add b\.txt\n\s+a rewrite of checked work`,
	})
	// Lazy twin: the session started on a hooks-off commit, no session's
	// end; rebased, its start has no stand-in and still fails.
	w.git(t, w.dev, "checkout", "-q", "-b", "lazy", base)
	w.noHooks(t, "x.txt", "unchecked start")
	w.sessionWith(t, func() {
		w.writeFile(t, "c.txt", "c\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "add c.txt")
	})
	w.git(t, w.dev, "rebase", "-q", main2)
	lazy := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "HEAD:refs/heads/lazy")
	w.git(t, w.dev, "push", "-q", "--no-verify", "-f", "origin", "refs/sessiongate/records")
	w.git(t, w.remote, "update-ref", "refs/heads/main", lazy)
	ci = w.gitlabBuild(t, "h350-lazy", lazy, 0, "+refs/heads/main:refs/remotes/origin/main",
		"+refs/sessiongate/records:refs/sessiongate/records")
	env = append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push",
		"CI_COMMIT_BRANCH=main", "CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA="+main2, "CI_COMMIT_SHA="+lazy)
	verifyWants(t, ci, env, nil, 1, []string{
		`(?m)^FAIL .* add c\.txt\n(\s+.*\n)*?\s+.*start_commit \S+ is not a commit of this repository`,
	})
}
