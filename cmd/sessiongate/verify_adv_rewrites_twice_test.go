package main

import (
	"path/filepath"
	"strconv"
	"testing"
)

// TestVerifyAdvRewriteTwice: a recorded commit vouches for one copy. A
// session adds once.txt and deletes it (both gated); GitLab rebases the
// two and fast-forwards main (push 1: honest, passes). Another session
// adds once.txt back through its hooks (honest); push 2 then re-applies
// the rewrite of the first session's delete with the hooks off (a
// cherry-pick keeps its trailers; it stands in for that session's end
// commit); and a second squash of a one-commit session lands after an
// honest session deleted its file. The original commits are
// gone (rebased or squashed away), so "the original is still in this
// history" did not hold: both passed on the old code (as a rewrite of the
// add, as a squash of the session). Honest twins: push 1, the first
// squash, and a session that re-adds a reverted file through its hooks.
func TestVerifyAdvRewriteTwice(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	w.git(t, w.dev, "checkout", "-q", "main")
	w.qaCmd = "test ! -f broken.txt"
	w.git(t, w.dev, "checkout", "-q", "-b", "twice", w.main)
	w.sessionWith(t, func() {
		w.writeFile(t, "once.txt", "once\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "add once.txt")
		w.git(t, w.dev, "rm", "-q", "once.txt")
		w.git(t, w.dev, "commit", "-q", "-m", "drop once.txt")
	})
	w.git(t, w.dev, "checkout", "-q", "-b", "single", w.main)
	w.session(t, "single.txt")
	// Main moves on while the requests wait: the rebase makes new ids.
	w.git(t, w.dev, "checkout", "-q", "main")
	w.session(t, "other.txt")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "main", "refs/sessiongate/records")
	main2 := w.git(t, w.dev, "rev-parse", "HEAD")

	gl := filepath.Join(w.dir, "gitlab")
	w.git(t, w.dir, "clone", "-q", w.remote, gl)
	asGitLab := []string{"-c", "user.name=Administrator", "-c", "user.email=admin@example.com", "-c", "core.hooksPath=/dev/null"}
	glGit := func(args ...string) string { return w.git(t, gl, append(append([]string{}, asGitLab...), args...)...) }
	glGit("fetch", "-q", w.dev, "+refs/heads/*:refs/remotes/dev/*")
	toMain := func() string {
		glGit("push", "-q", "-f", "origin", "HEAD:refs/heads/main")
		return glGit("rev-parse", "HEAD")
	}
	// Push 1: the session's two commits rebased and fast-forwarded.
	glGit("checkout", "-q", "-B", "w", "dev/twice")
	glGit("rebase", "-q", "--force-rebase", "origin/main")
	push1 := toMain()
	// Push 3: "single" squashed and fast-forwarded (honest), an honest
	// session deletes single.txt, then the same squash lands again.
	squash := func() string {
		glGit("merge", "-q", "--squash", "dev/single")
		glGit("commit", "-q", "-m", "Single")
		return toMain()
	}
	glGit("reset", "-q", "--hard", push1)
	squash1 := squash()
	w.git(t, w.dev, "fetch", "-q", "origin")
	w.git(t, w.dev, "checkout", "-q", "-B", "main", squash1)
	w.sessionWith(t, func() {
		w.git(t, w.dev, "rm", "-q", "single.txt")
		w.git(t, w.dev, "commit", "-q", "-m", "drop single.txt")
	})
	deleted := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "main", "refs/sessiongate/records")
	glGit("fetch", "-q", "origin")
	glGit("reset", "-q", "--hard", deleted)
	squash2 := squash()
	// Honest twin: a session re-adds once.txt through its hooks (the
	// revert reverted): its change equals the first add's, which names
	// another session.
	w.git(t, w.dev, "checkout", "-q", "-B", "again", push1)
	w.sessionWith(t, func() {
		w.writeFile(t, "once.txt", "once\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "add once.txt again")
	})
	readded := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "again", "refs/sessiongate/records")
	// Push 2: on top of it, the rewrite of the first session's end commit
	// (the delete) picked again with the hooks off: a delete no session
	// gated, standing in for that session's end commit.
	glGit("fetch", "-q", "origin")
	glGit("checkout", "-q", "-B", "w", readded)
	glGit("cherry-pick", push1)
	push2 := toMain()

	pipeline := 0
	for _, c := range []struct {
		name        string
		before, tip string
		code        int
		want        []string
	}{
		{"push 1: the session's run rebased (honest)", main2, push1, 0, []string{`(?m)^OK .* add once\.txt\n\s+a rewrite of checked work`, `(?m)^OK .* drop once\.txt\n(\s+.*\n)*?\s+a rewrite of checked work`}},
		{"push 2: the delete's rewrite picked again, hooks off", readded, push2, 1, []string{`(?m)^FAIL .* drop once\.txt\n(\s+.*\n)*?.*already in this history before the range, is a copy`}},
		{"the first squash (honest)", push1, squash1, 0, []string{`(?m)^OK .* Single\n`}},
		{"the same squash landed again", deleted, squash2, 1, []string{`(?m)^FAIL .* Single\n(\s+.*\n)*?.*already in this history before the range, is a copy`}},
		{"a session re-adds a reverted file (honest)", push1, readded, 0, []string{`(?m)^OK .* add once\.txt again\n`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			pipeline++
			ci := w.gitlabBuild(t, "tw"+strconv.Itoa(pipeline), c.tip, 0, "+refs/heads/main:refs/remotes/origin/main",
				"+refs/sessiongate/records:refs/sessiongate/records")
			env := append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push",
				"CI_COMMIT_BRANCH=main", "CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA="+c.before, "CI_COMMIT_SHA="+c.tip)
			verifyWants(t, ci, env, nil, c.code, c.want)
		})
	}
}
