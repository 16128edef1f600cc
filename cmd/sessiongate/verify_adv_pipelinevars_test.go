package main

import (
	"strconv"
	"testing"
)

// TestVerifyAdvGitLabPipelineVariables: on GitLab a pipeline variable
// overrides the predefined ones, and anyone who may push can set one
// (`git push -o ci.variable="CI_COMMIT_SHA=..."`) unless the project
// restricts pipeline variables. An agent with push rights and no CI config
// rights pushed a hooks-off commit to main with one such variable and
// verify passed it (exit 0 on the old code): CI_COMMIT_SHA naming an
// honest commit (that commit was checked, not the checkout),
// CI_DEFAULT_BRANCH naming a branch that holds the hooks-off commit, or
// CI_COMMIT_BRANCH naming another branch (the commit is on main, so "not on
// the default branch" held none). verify now compares them with what git
// says: the checked-out commit, origin's HEAD, and a commit already on the
// default branch is a default-branch build. The honest pushes pass.
func TestVerifyAdvGitLabPipelineVariables(t *testing.T) {
	w := newCIWorld(t)
	const recs = "+refs/sessiongate/records:refs/sessiongate/records"
	pipeline := 700
	build := func(t *testing.T, sha string) string {
		pipeline++
		return w.gitlabBuild(t, strconv.Itoa(pipeline), sha, 20, "+refs/heads/main:refs/remotes/origin/main", recs)
	}
	pushMain := func(before, after string, over ...string) []string {
		env := []string{"GITLAB_CI=true", "CI_PIPELINE_SOURCE=push", "CI_DEFAULT_BRANCH=main", "CI_COMMIT_BRANCH=main",
			"CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA=" + before, "CI_COMMIT_SHA=" + after}
		return append(env, over...) // later wins, as a pipeline variable does
	}
	type tc struct {
		name string
		tip  string
		env  []string
		code int
		want []string
	}
	run := func(t *testing.T, cases []tc) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				verifyWantsAny(t, build(t, c.tip), append(append([]string{}, w.env...), c.env...), c.code, c.want)
			})
		}
	}
	// Honest: the feature's two session commits pushed to main.
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", w.work2+":refs/heads/main")
	run(t, []tc{
		{"honest push to main", w.work2, pushMain(w.main, w.work2), 0, []string{`(?m)^OK .* add work2\.txt`}},
		{"honest: a branch pipeline at main's tip is main's tip and window", w.work2,
			pushMain(w.main, w.work2, "CI_COMMIT_BRANCH=copy-of-main", "CI_COMMIT_REF_NAME=copy-of-main"), 0,
			[]string{`already on the default branch main`, `(?m)^OK .* add work2\.txt`}},
	})
	// Lazy: the hooks-off commit pushed to main, with one variable set.
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", w.notrailer+":refs/heads/main")
	run(t, []tc{
		{"hooks-off push to main, no variable set", w.notrailer, pushMain(w.work2, w.notrailer), 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"CI_COMMIT_SHA set to an honest commit: exit 2", w.notrailer, pushMain(w.work2, w.notrailer, "CI_COMMIT_SHA="+w.work2), 2,
			[]string{`CI_COMMIT_SHA is [0-9a-f]+, but this job checked out`, `Minimum role to use pipeline variables`}},
		{"CI_DEFAULT_BRANCH set to a branch holding the commit: exit 2", w.notrailer, pushMain(w.work2, w.notrailer, "CI_DEFAULT_BRANCH=bad-notrailer"), 2,
			[]string{`CI_DEFAULT_BRANCH is "bad-notrailer", but origin's default branch is "main"`}},
		{"CI_COMMIT_BRANCH set to another branch: the commit on main is checked", w.notrailer,
			pushMain(w.work2, w.notrailer, "CI_COMMIT_BRANCH=zzz"), 1,
			[]string{`already on the default branch main`, `(?m)^FAIL .* sneak a change`}},
		// A diff base named on a push to main (round 31): the hooks-off
		// commit as base and head made an empty range, "0 commit(s)",
		// exit 0 on the old code.
		{"CI_MERGE_REQUEST_DIFF_BASE_SHA set to the pushed commit: the commit on main is checked", w.notrailer,
			pushMain(w.work2, w.notrailer, "CI_PIPELINE_SOURCE=merge_request_event", "CI_MERGE_REQUEST_IID=9",
				"CI_MERGE_REQUEST_DIFF_BASE_SHA="+w.notrailer, "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=main"), 1,
			[]string{`already on the default branch main`, `(?m)^FAIL .* sneak a change`}},
	})
}

// verifyWantsAny is verifyWants reading stderr too (exit 2 says why there).
func verifyWantsAny(t *testing.T, dir string, env []string, wantCode int, want []string) {
	t.Helper()
	code, out, errb := sgBin(t, dir, env, "verify")
	t.Logf("exit %d\n%s%s", code, out, errb)
	if code != wantCode {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, wantCode, out, errb)
	}
	for _, re := range want {
		if !regexpMatch(re, out+errb) {
			t.Errorf("output does not match %s:\n%s%s", re, out, errb)
		}
	}
}
