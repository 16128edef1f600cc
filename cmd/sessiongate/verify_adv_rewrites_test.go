package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestVerifyAdvGitLabRewrites: GitLab's "rebase, then fast-forward" and a
// squash fast-forwarded land commits no session recorded and leave no
// original in CI's clone. Honest: both pass (both failed on the old code:
// "trailers copied" / "end_commit ... is not a commit", and "no
// Session-Id trailer"), each passing on the change fingerprints the
// post-commit hook recorded (verify/rewrites.go). Lazy, each still fails:
// a rebase that edited a commit's change; a hooks-off commit with copied
// trailers rebased with the rest; (a) a squash over a session that
// cherry-picked a hooks-off commit; (b) a session commit reverted, then
// re-applied with the hooks off and the original's trailers, or without
// any (its original is still in the history); (c) the same hunk placed
// at a second spot with the same context (other blobs).
func TestVerifyAdvGitLabRewrites(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	// Main moves on while the merge request waits: another session.
	w.git(t, w.dev, "checkout", "-q", "main")
	w.qaCmd = "test ! -f broken.txt" // main's command (newCIWorld's last branch changed it)
	w.session(t, "other.txt")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "main")
	main2 := w.git(t, w.dev, "rev-parse", "HEAD")
	onMain2 := func(name string, work func()) string {
		w.git(t, w.dev, "checkout", "-q", "-b", name, main2)
		w.sessionWith(t, work)
		return w.git(t, w.dev, "rev-parse", "HEAD")
	}

	// (c): a file with two equal blocks; the session edits the first.
	block := "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\n"
	dupTip := onMain2("dup", func() {
		w.writeFile(t, "dup.txt", block+"\n"+block)
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "add dup.txt")
		w.writeFile(t, "dup.txt", "alpha\nbeta\ngamma\nINSERTED\ndelta\nepsilon\nzeta\n\n"+block)
		w.git(t, w.dev, "commit", "-q", "-a", "-m", "insert into the first block")
	})
	// (b): a session commit, reverted in the session.
	revertTip := onMain2("revert", func() {
		w.writeFile(t, "undo.txt", "undo me\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "add undo.txt")
		w.git(t, w.dev, "revert", "--no-edit", "HEAD")
	})
	revertX := w.git(t, w.dev, "rev-parse", revertTip+"^")
	// (a): a session that cherry-picks a hooks-off commit.
	w.git(t, w.dev, "checkout", "-q", "-b", "pick", main2)
	w.sg(t, w.dev, "session", "start", "--objective", "pick")
	w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the README")
	w.sg(t, w.dev, "session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "git status: clean")
	w.sg(t, w.dev, "session", "advance", "--to", "WORKING")
	w.writeFile(t, "picked-own.txt", "own\n")
	w.git(t, w.dev, "add", "-A")
	w.git(t, w.dev, "commit", "-q", "-m", "own work")
	w.git(t, w.dev, "update-ref", "refs/remotes/origin/side", w.notrailer)
	w.git(t, w.dev, "cherry-pick", "origin/side")
	sgBin(t, w.dev, w.env, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, strings.Fields(w.qaCmd)...)...)
	sgBin(t, w.dev, w.env, "session", "advance", "--to", "DOCUMENTATION_UPDATE")
	sgBin(t, w.dev, w.env, "session", "end", "--summary", "done")
	w.git(t, w.dev, "push", "-q", "--no-verify", "-f", "origin", "refs/sessiongate/records")

	gl := filepath.Join(w.dir, "gitlab")
	w.git(t, w.dir, "clone", "-q", w.remote, gl)
	asGitLab := []string{"-c", "user.name=Administrator", "-c", "user.email=admin@example.com", "-c", "core.hooksPath=/dev/null"}
	glGit := func(args ...string) string { return w.git(t, gl, append(append([]string{}, asGitLab...), args...)...) }
	glGit("fetch", "-q", w.dev, "+refs/heads/*:refs/remotes/dev/*")
	push := func(branch string) string {
		glGit("push", "-q", "origin", "HEAD:refs/heads/"+branch)
		return glGit("rev-parse", "HEAD")
	}
	// GitLab's rebase: the commits replayed onto the moved main (new ids,
	// the same messages and trailers).
	rebase := func(branch string) {
		glGit("checkout", "-q", "-B", "w", branch)
		glGit("rebase", "-q", "--force-rebase", "origin/main")
	}
	squash := func(branch, title string) {
		glGit("checkout", "-q", "-B", "w", "origin/main")
		glGit("merge", "-q", "--squash", branch)
		glGit("commit", "-q", "-m", title)
	}
	write := func(rel, content string) {
		if err := os.WriteFile(filepath.Join(gl, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rebase("origin/feature")
	rebased := push("gl-rebased")
	// GitLab moves the source branch to the rewritten commits: no ref on
	// the remote keeps the originals.
	glGit("push", "-q", "-f", "origin", "HEAD:refs/heads/feature")
	squash("origin/feature", "Feature")
	squashed := push("gl-squashed")
	// A rebase that edited the last commit's change.
	rebase("origin/feature")
	write("work2.txt", "work2.txt edited in the rebase\n")
	glGit("commit", "-q", "-a", "--amend", "--no-edit")
	edited := push("gl-edited")
	// The hooks-off commit with copied trailers, rebased with the rest.
	rebase("origin/bad-copied")
	copied := push("gl-copied")
	// (a) the squash of the session that picked a hooks-off commit.
	squash("dev/pick", "Pick")
	pickSquash := push("gl-pick-squash")
	// (b) the revert re-applied with the hooks off: with X's trailers, and
	// without any, on top of the session's (fast-forwarded) commits.
	glGit("checkout", "-q", "-B", "w", "dev/revert")
	glGit("cherry-pick", revertX)
	reapplied := push("gl-reapplied")
	glGit("checkout", "-q", "-B", "w", "dev/revert")
	write("undo.txt", "undo me\n")
	glGit("add", "-A")
	glGit("commit", "-q", "-m", "re-apply")
	reappliedBare := push("gl-reapplied-bare")
	// (c) the first commit rebased honestly, the second's hunk placed in
	// the second block (same three lines of context, same patch id).
	rebase("dev/dup")
	glGit("reset", "-q", "--hard", "HEAD^")
	msg := glGit("log", "-1", "--format=%B", dupTip)
	write("dup.txt", block+"\nalpha\nbeta\ngamma\nINSERTED\ndelta\nepsilon\nzeta\n")
	glGit("commit", "-q", "-a", "-m", msg)
	elsewhere := push("gl-elsewhere")

	pipeline := 0
	cases := []struct {
		name string
		tip  string
		code int
		want []string
	}{
		{"rebase, then fast-forward", rebased, 0, []string{`(?m)^OK .* add work1\.txt\n\s+a rewrite of checked work`, `(?m)^OK .* add work2\.txt\n(\s+.*\n)*?\s+a rewrite of checked work`}},
		{"squash, fast-forwarded", squashed, 0, []string{`(?m)^OK .* Feature\n\s+no Session-Id trailer, and\n?\s*.*a squash of checked work`}},
		{"rebase that edited a change", edited, 1, []string{`(?m)^FAIL .* add work2\.txt\n(\s+.*\n)*?\s+no commit session .* has this change`}},
		{"hooks-off commit with copied trailers, rebased", copied, 1, []string{`(?m)^FAIL .* borrowed trailers`}},
		{"(a) squash over a recorded pick of a hooks-off commit", pickSquash, 1, []string{`(?m)^FAIL .* Pick\n`}},
		{"(b) revert re-applied with the original's trailers", reapplied, 1, []string{`(?m)^FAIL .* add undo\.txt\n(\s+.*\n)*?.*whose original is still in this history`}},
		{"(b) revert re-applied without trailers", reappliedBare, 1, []string{`(?m)^FAIL .* re-apply\n`}},
		{"(c) the same hunk at a second spot", elsewhere, 1, []string{`(?m)^FAIL .* insert into the first block\n(\s+.*\n)*?\s+no commit session .* has this change`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pipeline++
			ci := w.gitlabBuild(t, "rw"+strconv.Itoa(pipeline), c.tip, 0, "+refs/heads/main:refs/remotes/origin/main",
				"+refs/sessiongate/records:refs/sessiongate/records")
			env := append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push",
				"CI_COMMIT_BRANCH=main", "CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA="+main2, "CI_COMMIT_SHA="+c.tip)
			verifyWants(t, ci, env, nil, c.code, c.want)
		})
	}
}
