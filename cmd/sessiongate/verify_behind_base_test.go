package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestR54PullRequestBehindMain (helper 326's false block): a person adds a
// test file on main after an honest branch forked; the branch's pull
// request run (base: main's tip) read the file as deleted by the branch:
// "rerun guard: commit  changes calc_test.go: deletes this test file"
// (exit 1, no commit named). The rerun guard now notes a difference no
// commit of the range made when the branch holds the file as at its fork
// point. Lazy twins: a merge of main that drops the person's test, and a
// branch that deletes a test it forked with, still fail.
func TestR54PullRequestBehindMain(t *testing.T) {
	t.Parallel()
	sw := newSignedWorld(t, true)
	w := sw.ciWorld
	w.env = append(w.env, "CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT=")
	fork := w.main
	person := filepath.Join(w.dir, "person")
	w.git(t, w.dir, "clone", "-q", w.remote, person)
	addTest := func(name string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(person, name), []byte("package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		w.git(t, person, "add", "-A")
		w.git(t, person, "-c", "core.hooksPath=/dev/null", "-c", "user.email=alice@example.com", "commit", "-q", "-m", "test: a person's "+name)
		w.git(t, person, "push", "-q", "--no-verify", "origin", "main")
		return w.git(t, person, "rev-parse", "HEAD")
	}
	pushBranch := func(branch string) string {
		t.Helper()
		w.git(t, w.dev, "push", "-q", "--no-verify", "origin", branch)
		w.sg(t, w.dev, "records", "push")
		return w.git(t, w.dev, "rev-parse", "HEAD")
	}
	pr := func(t *testing.T, n int, head string) (int, string) {
		t.Helper()
		mainTip := w.git(t, person, "rev-parse", "HEAD")
		ns := strconv.Itoa(n)
		merge := w.pullRef(t, ns, w.remote, head)
		ci := w.checkout(t, "ci-pr-"+ns, false, merge, "+refs/pull/"+ns+"/merge:refs/remotes/pull/"+ns+"/merge", recsSpec, "+refs/heads/*:refs/remotes/origin/*")
		env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request",
			"GITHUB_EVENT_PATH="+w.event(t, "pr"+ns, prEvent(n, mainTip, head)))
		code, out, errb := sgBin(t, ci, env, "verify")
		t.Logf("exit %d\n%s%s", code, out, errb)
		return code, out + errb
	}

	// lazySession: the session's own QA gate may refuse the deleted test
	// at its end (the local net); the agent pushes anyway, for CI to judge.
	lazySession := func(work func()) {
		t.Helper()
		w.sg(t, w.dev, "session", "start", "--objective", "work for CI")
		w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the README")
		w.sg(t, w.dev, "session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "git status: clean")
		w.sg(t, w.dev, "session", "advance", "--to", "WORKING")
		work()
		sgBin(t, w.dev, w.env, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, strings.Fields(w.qaCmd)...)...)
		sgBin(t, w.dev, w.env, "session", "advance", "--to", "DOCUMENTATION_UPDATE")
		code, out, errb := sgBin(t, w.dev, w.env, "session", "end", "--summary", "done")
		t.Logf("session end: exit %d\n%s%s", code, out, errb)
	}

	// An honest branch from the fork; then the person's test on main.
	w.git(t, w.dev, "checkout", "-q", "-b", "honest", fork)
	w.session(t, "honest.txt")
	honest := pushBranch("honest")
	c1 := addTest("calc_test.go")

	// Lazy: the agent merges main and drops the person's test in the merge.
	w.git(t, w.dev, "fetch", "-q", "origin")
	w.git(t, w.dev, "checkout", "-q", "-b", "drop", fork)
	lazySession(func() {
		w.write(t, "drop.txt")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "add drop.txt")
		w.git(t, w.dev, "merge", "-q", "--no-ff", "--no-commit", "origin/main")
		w.git(t, w.dev, "rm", "-q", "-f", "calc_test.go")
		w.git(t, w.dev, "commit", "-q", "-m", "Merge origin/main")
	})
	drop := pushBranch("drop")

	// Lazy: a branch from c1 deletes the test it forked with; then main
	// moves on again (so the pull request's base is not its fork point).
	w.git(t, w.dev, "checkout", "-q", "-b", "delete", c1)
	lazySession(func() {
		w.git(t, w.dev, "rm", "-q", "calc_test.go")
		w.git(t, w.dev, "commit", "-q", "-m", "remove a slow test")
	})
	del := pushBranch("delete")
	addTest("other_test.go")

	t.Run("honest: the pull request behind main", func(t *testing.T) {
		code, out := pr(t, 21, honest)
		if code != 0 || !strings.Contains(out, "the base changed it since") {
			t.Fatalf("exit %d, want 0 with a note that the base changed calc_test.go since the fork", code)
		}
	})
	t.Run("lazy: a merge of main that drops its test", func(t *testing.T) {
		code, out := pr(t, 22, drop)
		if code != 1 || !strings.Contains(out, "changes calc_test.go: deletes this test file") {
			t.Fatalf("exit %d, want 1 naming calc_test.go", code)
		}
	})
	t.Run("lazy: a branch deleting a test it forked with", func(t *testing.T) {
		code, out := pr(t, 23, del)
		if code != 1 || !strings.Contains(out, "changes calc_test.go: deletes this test file") {
			t.Fatalf("exit %d, want 1 naming calc_test.go", code)
		}
	})
}
