package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestVerifyAdvGitLabRewritten: GitLab rewrites a merge request's commits on
// the server and keeps no ref to the originals: "rebase, then fast-forward"
// (the request's head moves to the rebased commits) and "squash" with the
// fast-forward method (one commit titled after the request, no trailer, no
// merge commit naming the request). Both failed verify on the push to main
// before the hooks recorded patch ids ("trailers copied"; "no Session-Id
// trailer"): false blocks of honest work. Honest: each passes because its
// change is, byte for byte, a commit (or the span from the session's start
// to a commit) the session recorded. Lazy: a rebased hooks-off commit with
// copied trailers, a rebase that edited a commit's change (the session's
// end commit then has no rewrite in the range either: all its commits
// fail), a squash with an extra change, and a squash that takes a hooks-off
// commit along still fail.
func TestVerifyAdvGitLabRewritten(t *testing.T) {
	w := newCIWorld(t)
	// main moves after the request was opened: another honest session.
	w.git(t, w.dev, "checkout", "-q", "main")
	w.qaCmd = "test ! -f broken.txt" // main's QA command (bad-qa changed it on its branch)
	w.session(t, "other.txt")
	w.git(t, w.dev, "push", "-q", "origin", "main", "+refs/sessiongate/records:refs/sessiongate/records")
	moved := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "checkout", "-q", "feature")

	gl := filepath.Join(w.dir, "gitlab")
	w.git(t, w.dir, "clone", "-q", w.remote, gl)
	asGitLab := []string{"-c", "user.name=Administrator", "-c", "user.email=admin@example.com", "-c", "core.hooksPath=/dev/null"}
	glGit := func(args ...string) string { return w.git(t, gl, append(append([]string{}, asGitLab...), args...)...) }
	glFile := func(name, body string) {
		if err := os.WriteFile(filepath.Join(gl, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		glGit("add", name)
	}
	// rebase lands head's commits rebased onto main on branch (what main
	// fast-forwards to) and, as GitLab does, moves the request's source
	// branch to them: no ref of the remote keeps the originals. edit, when
	// set, changes the last commit's change during the rebase.
	rebase := func(branch, head string, edit func()) string {
		glGit("checkout", "-q", "-B", branch, head)
		glGit("rebase", "-q", "origin/main")
		if edit != nil {
			edit()
			glGit("commit", "-q", "--amend", "--no-edit")
		}
		glGit("push", "-q", "-f", "origin", "HEAD:refs/heads/"+branch, "HEAD:refs/heads/feature")
		return glGit("rev-parse", "HEAD")
	}
	// squash lands head's change since its merge base as one commit on
	// main (GitLab's squash with a fast-forward merge: titled after the
	// request, no trailer).
	squash := func(branch, head, title string, extra func()) string {
		start := glGit("merge-base", "origin/main", head)
		glGit("checkout", "-q", "-B", branch, head)
		glGit("reset", "-q", "--soft", start)
		glGit("commit", "-q", "-m", title)
		tree := glGit("rev-parse", "HEAD^{tree}")
		glGit("checkout", "-q", "-B", branch, "origin/main")
		glGit("read-tree", "-m", "-u", start, "origin/main", tree) // a three-way merge of the change onto main
		if extra != nil {
			extra()
		}
		glGit("commit", "-q", "-m", title)
		glGit("push", "-q", "origin", "HEAD:refs/heads/"+branch)
		return glGit("rev-parse", "HEAD")
	}
	honestRebase := rebase("gl-rebase", w.work2, nil)
	copiedRebase := rebase("gl-rebase-copied", w.copied, nil)
	editedRebase := rebase("gl-rebase-edited", w.work2, func() { glFile("work2.txt", "work2.txt edited in the rebase\n") })
	honestSquash := squash("gl-squash", w.work2, "Feature", nil)
	extraSquash := squash("gl-squash-extra", w.work2, "Feature", func() { glFile("extra.txt", "extra\n") })
	sneakSquash := squash("gl-squash-sneak", w.notrailer, "Sneak", nil)
	pipeline := 0
	cases := []struct {
		name string
		tip  string
		code int
		want []string
	}{
		{"rebased before a fast-forward", honestRebase, 0, []string{`(?m)^OK .* add work1\.txt\n\s+a rewrite of checked work`, `(?m)^OK .* add work2\.txt$`, `(?s)a rewrite of checked work.*a rewrite of checked work`, `end_commit \S+ is not in this clone: rewritten`}},
		{"squash fast-forwarded", honestSquash, 0, []string{`(?m)^OK .* Feature\n\s+no Session-Id trailer, and\n\s+a squash of checked work`}},
		{"rebased hooks-off commit with copied trailers", copiedRebase, 1, []string{`(?m)^FAIL .* borrowed trailers\n`, `no commit session \S+ recorded has this change`}},
		{"rebase that edited the change", editedRebase, 1, []string{`(?m)^FAIL .* add work2\.txt\n`, `not a rewrite of its work, or a rewrite that changed it`, `end_commit \S+ is not a commit of this repository`}},
		{"squash with an extra change", extraSquash, 1, []string{`(?m)^FAIL .* Feature\n`, `no session record holds this change`}},
		{"squash with a hooks-off commit", sneakSquash, 1, []string{`(?m)^FAIL .* Sneak\n`, `no session record holds this change`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pipeline++
			ci := w.gitlabBuild(t, strconv.Itoa(pipeline), c.tip, 20, "+refs/heads/main:refs/remotes/origin/main",
				"+refs/sessiongate/records:refs/sessiongate/records")
			env := append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push",
				"CI_COMMIT_BRANCH=main", "CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA="+moved, "CI_COMMIT_SHA="+c.tip)
			verifyWants(t, ci, env, nil, c.code, c.want)
		})
	}
}
