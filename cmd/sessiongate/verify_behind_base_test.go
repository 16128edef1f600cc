package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
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

// r54PersonRepo is alice's clone, signing, installed, records pulled.
func r54PersonRepo(t *testing.T, sw *signedWorld) (string, func(name, body, msg string) string) {
	t.Helper()
	w := sw.ciWorld
	person := filepath.Join(w.dir, "person")
	w.git(t, w.dir, "clone", "-q", w.remote, person)
	w.git(t, person, "config", "user.signingkey", filepath.Join(sw.keys, "alice"))
	w.git(t, person, "config", "user.email", "alice@example.com")
	w.git(t, person, "config", "commit.gpgsign", "true")
	w.sg(t, person, "install")
	w.sg(t, person, "records", "pull")
	commit := func(name, body, msg string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(person, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		w.git(t, person, "add", "-A")
		w.git(t, person, "commit", "-q", "-m", msg)
		return w.git(t, person, "rev-parse", "HEAD")
	}
	return person, commit
}

const (
	r54WeakTest   = "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {}\n"
	r54StrongTest = r54WeakTest + "\nfunc TestSub(t *testing.T) {}\n"
)

// TestR54RerunGuardCrissCross (helper 327's L6): alice commits a weak
// test (c1); on a side branch she adds TestSub (b); on main an unrelated
// commit (a, after b). The agent branches from a and, in a session,
// merges b keeping a's weak test. Main then merges side. The pull request
// has two merge bases with main (a and b); git merge-base named a, where
// the head's file is a's, and the first cut noted TestSub's loss as the
// base's doing (exit 0) while the merge kept the weak file.
func TestR54RerunGuardCrissCross(t *testing.T) {
	t.Parallel()
	sw := newSignedWorld(t, true)
	w := sw.ciWorld
	w.env = append(w.env, "CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT=")
	person, commit := r54PersonRepo(t, sw)
	c1 := commit("calc_test.go", r54WeakTest, "test: calc")
	w.git(t, person, "checkout", "-q", "-b", "side", c1)
	b := commit("calc_test.go", r54StrongTest, "test: TestSub")
	w.git(t, person, "checkout", "-q", "main")
	time.Sleep(1100 * time.Millisecond) // a newer than b: git merge-base names the newest
	a := commit("NOTES.md", "notes\n", "docs: notes")
	w.git(t, person, "push", "-q", "--no-verify", "origin", "main", "side")
	w.sg(t, person, "records", "push")
	w.git(t, w.dev, "fetch", "-q", "origin")
	w.git(t, w.dev, "checkout", "-q", "-b", "cross", a)
	w.sessionWith(t, func() {
		w.write(t, "cross.txt")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "add cross.txt")
		w.git(t, w.dev, "merge", "-q", "--no-ff", "--no-commit", b)
		w.git(t, w.dev, "checkout", a, "--", "calc_test.go")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "Merge side")
	})
	tip := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "cross")
	w.sg(t, w.dev, "records", "push")
	w.git(t, person, "merge", "-q", "--no-ff", "-m", "Merge side", "side")
	mainTip := commit("MORE.md", "more\n", "docs: more")
	w.git(t, person, "push", "-q", "--no-verify", "origin", "main")
	w.sg(t, person, "records", "push")
	w.git(t, w.dev, "fetch", "-q", "origin")
	if bases := strings.Fields(w.git(t, w.dev, "merge-base", "--all", mainTip, tip)); len(bases) != 2 {
		t.Fatalf("want a criss-cross (two merge bases), got %v", bases)
	}
	merge := w.pullRef(t, "51", w.remote, tip)
	ci := w.checkout(t, "ci-pr-51", false, merge, "+refs/pull/51/merge:refs/remotes/pull/51/merge", recsSpec, "+refs/heads/*:refs/remotes/origin/*")
	env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request",
		"GITHUB_EVENT_PATH="+w.event(t, "pr51", prEvent(51, mainTip, tip)))
	code, out, errb := sgBin(t, ci, env, "verify")
	t.Logf("exit %d\n%s%s", code, out, errb)
	if code != 1 || !strings.Contains(out+errb, "changes calc_test.go: removes the test TestSub") {
		t.Fatalf("exit %d, want 1: the merge lands the weak calc_test.go", code)
	}
}

// TestR54RerunGuardForcePushMain (helper 327's L1): alice strengthens a
// test on main (c1 weak, c2 strong); the agent runs a session on a branch
// from c1 and force-pushes it over main. The push's merge base with its
// before is c1, where the tip holds the weak file, and the first cut
// noted TestSub's loss as the base's doing (exit 0): but a push replaces
// main, it does not merge into it.
func TestR54RerunGuardForcePushMain(t *testing.T) {
	t.Parallel()
	sw := newSignedWorld(t, true)
	w := sw.ciWorld
	w.env = append(w.env, "CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT=")
	person, commit := r54PersonRepo(t, sw)
	c1 := commit("calc_test.go", r54WeakTest, "test: calc")
	c2 := commit("calc_test.go", r54StrongTest, "test: TestSub")
	w.git(t, person, "push", "-q", "--no-verify", "origin", "main")
	w.sg(t, person, "records", "push")
	w.git(t, w.dev, "fetch", "-q", "origin")
	w.git(t, w.dev, "checkout", "-q", "-b", "rewind", c1)
	w.session(t, "rewind.txt")
	rewind := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "-f", "--no-verify", "origin", "rewind:main")
	w.sg(t, w.dev, "records", "push")
	for _, shape := range []string{"github", "gitlab"} {
		t.Run(shape, func(t *testing.T) {
			ci := w.checkout(t, "ci-rewind-"+shape, false, rewind, "+refs/heads/*:refs/remotes/origin/*", recsSpec)
			env := append([]string{}, w.env...)
			if shape == "github" {
				env = append(env, "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push", "GITHUB_REF=refs/heads/main", "GITHUB_SHA="+rewind,
					"GITHUB_EVENT_PATH="+w.event(t, "rewind-push", pushEvent(c2, rewind, "refs/heads/main")))
			} else {
				env = append(env, "GITLAB_CI=true", "CI_PIPELINE_SOURCE=push", "CI_COMMIT_BEFORE_SHA="+c2, "CI_COMMIT_SHA="+rewind,
					"CI_COMMIT_BRANCH=main", "CI_COMMIT_REF_NAME=main", "CI_DEFAULT_BRANCH=main")
			}
			code, out, errb := sgBin(t, ci, env, "verify")
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code != 1 || !strings.Contains(out+errb, "changes calc_test.go: removes the test TestSub") {
				t.Fatalf("exit %d, want 1: the push takes TestSub off main", code)
			}
		})
	}
}

// TestR54HookConfigBehindMain: the CI job's file as the hook-config check
// reads it (verify/hookconfigs.go), on a pull request behind main. The
// fork's job runs `sessiongate verify --recheck 0`; alice drops the
// `--recheck 0` on main after the branch forked. The pull request's base
// is main's tip, so the honest branch read as adding it back: "CI job:
// commit  changes .github/workflows/ci.yml" (exit 1, no commit named).
func TestR54HookConfigBehindMain(t *testing.T) {
	t.Parallel()
	lenient := strings.Replace(ciWorkflow, "sessiongate verify", "sessiongate verify --recheck 0", 1)
	sw := newSignedWorld(t, true, func(w *ciWorld) {
		w.writeFile(t, ".github/workflows/ci.yml", lenient)
	})
	w := sw.ciWorld
	w.env = append(w.env, "CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT=")
	fork := w.main
	if got := w.git(t, w.dev, "show", fork+":.github/workflows/ci.yml"); !strings.Contains(got, "--recheck 0") {
		t.Fatalf("the fork's CI job is not the lenient one:\n%s", got)
	}
	w.git(t, w.dev, "checkout", "-q", "-b", "honest-ci", fork)
	w.session(t, "honestci.txt")
	honest := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "honest-ci")
	w.sg(t, w.dev, "records", "push")
	person, commit := r54PersonRepo(t, sw)
	mainTip := commit(".github/workflows/ci.yml", ciWorkflow, "ci: verify re-checks main's window")
	w.git(t, person, "push", "-q", "--no-verify", "origin", "main")
	merge := w.pullRef(t, "61", w.remote, honest)
	ci := w.checkout(t, "ci-pr-61", false, merge, "+refs/pull/61/merge:refs/remotes/pull/61/merge", recsSpec, "+refs/heads/*:refs/remotes/origin/*")
	env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request",
		"GITHUB_EVENT_PATH="+w.event(t, "pr61", prEvent(61, mainTip, honest)))
	code, out, errb := sgBin(t, ci, env, "verify")
	t.Logf("exit %d\n%s%s", code, out, errb)
	if code != 0 || !strings.Contains(out+errb, ".github/workflows/ci.yml") || !strings.Contains(out+errb, "the base changed it since") {
		t.Fatalf("exit %d, want 0 with a note that the base changed ci.yml since the fork", code)
	}
}
