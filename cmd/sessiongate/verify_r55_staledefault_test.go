package main

import (
	"os"
	"path/filepath"
	"testing"
)

// Round 55 (helper 330): a GitLab runner with GIT_STRATEGY: fetch (the
// project default; a self-hosted runner keeps its build folder between
// jobs) fetches only refs/pipelines/<id> and the pipeline's own branch,
// with --prune scoped to those refspecs. refs/remotes/origin/main stays
// where an earlier main pipeline in that folder left it, and verify
// (newBranchRange, verify/cirange.go) fetches the default branch only
// when the ref is missing: the branch's range was taken against a stale
// main.

// reusedBuild is the runner's fetch strategy in one build folder kept
// between jobs: fetch the pipeline ref and branch (depth 20, --prune),
// check sha out, clean, fetch the records as the template does.
func (w *ciWorld) reusedBuild(t *testing.T, dir, id, sha, branch string) {
	t.Helper()
	w.git(t, w.remote, "update-ref", "refs/pipelines/"+id, sha)
	if _, err := os.Stat(filepath.Join(dir, ".git")); os.IsNotExist(err) {
		w.git(t, w.dir, "init", "-q", dir)
		w.git(t, dir, "remote", "add", "origin", "file://"+w.remote)
	}
	w.git(t, dir, "fetch", "-q", "--prune", "--depth=20", "origin",
		"+refs/pipelines/"+id+":refs/pipelines/"+id, "+refs/heads/"+branch+":refs/remotes/origin/"+branch)
	w.git(t, dir, "checkout", "-q", "-f", "--detach", sha)
	w.git(t, dir, "clean", "-q", "-ffdx")
	w.git(t, dir, "fetch", "-q", "--no-tags", "origin", "+"+recsSpec)
}

func gitlabPushEnv(w *ciWorld, sha, before, branch string) []string {
	return append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push",
		"CI_COMMIT_SHA="+sha, "CI_COMMIT_BEFORE_SHA="+before, "CI_COMMIT_BRANCH="+branch, "CI_COMMIT_REF_NAME="+branch)
}

// TestR55StaleDefaultBranchLazy: the agent pushes a hooks-off commit
// straight to main (main's pipeline fails, in the build folder), a
// maintainer rewinds main, and the agent pushes a branch holding that
// commit under a session's commit. A fresh clone fails the branch naming
// the commit; the reused build folder passed it (exit 0, "1 commit(s)").
func TestR55StaleDefaultBranchLazy(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	build := filepath.Join(w.dir, "builds", "group", "project")
	if err := os.MkdirAll(filepath.Dir(build), 0o755); err != nil {
		t.Fatal(err)
	}
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", w.notrailer+":refs/heads/main")
	w.reusedBuild(t, build, "1", w.notrailer, "main")
	verifyWants(t, build, gitlabPushEnv(w, w.notrailer, w.main, "main"), nil, 1, []string{`(?m)^FAIL .* sneak a change`})
	// The maintainer rewinds main past the hooks-off commit.
	w.git(t, w.dev, "push", "-q", "--no-verify", "-f", "origin", w.main+":refs/heads/main")
	// The agent's branch: the hooks-off commit and a session's commit on top.
	w.git(t, w.dev, "checkout", "-q", "bad-notrailer")
	w.qaCmd = "test ! -f broken.txt" // as committed there (the world left bad-qa's)
	w.session(t, "ontop.txt")
	tip := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "origin", "bad-notrailer", "refs/sessiongate/records")

	t.Run("fresh clone", func(t *testing.T) {
		ci := w.gitlabBuild(t, "2", tip, 20, "+refs/heads/bad-notrailer:refs/remotes/origin/bad-notrailer", "+"+recsSpec)
		verifyWants(t, ci, gitlabPushEnv(w, tip, zero40, "bad-notrailer"), nil, 1, []string{`(?m)^FAIL .* sneak a change`})
	})
	t.Run("reused build folder", func(t *testing.T) {
		w.reusedBuild(t, build, "3", tip, "bad-notrailer")
		verifyWants(t, build, gitlabPushEnv(w, tip, zero40, "bad-notrailer"), nil, 1, []string{`(?m)^FAIL .* sneak a change`})
	})
}

// TestR55BranchCreatedOnDefault (GitHub's rows; GitLab's new-branch pipeline
// stays open, docs/security.md "Round 55"): a hooks-off commit pushed straight to
// main (main's run fails), then a branch created at it (release/1.0, a
// deploy branch whose pipeline gates the deploy). The tag of that commit
// is checked as a default-branch build and fails (newBranchRange's
// refs/tags/ case); so does GitLab's push to an existing branch
// (onDefaultIsTip). A push creating the branch checked "0 commit(s)" and
// passed, on GitHub and GitLab alike.
func TestR55BranchCreatedOnDefault(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin",
		w.notrailer+":refs/heads/main", w.notrailer+":refs/heads/release/1.0", w.notrailer+":refs/tags/v1.0")
	sneak := []string{`(?m)^FAIL .* sneak a change`}
	gh := func(name, ref string) []string {
		return append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push", "GITHUB_SHA="+w.notrailer, "GITHUB_REF="+ref,
			"GITHUB_EVENT_PATH="+w.event(t, name, pushEvent(zero40, w.notrailer, ref)))
	}
	gl := func(extra ...string) []string {
		return append(append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push",
			"CI_COMMIT_SHA="+w.notrailer), extra...)
	}
	t.Run("honest: GitHub push creating a branch at a clean main commit", func(t *testing.T) {
		w.git(t, w.dev, "push", "-q", "--no-verify", "origin", w.main+":refs/heads/release/0.9")
		ci := w.checkout(t, "gh-branch-clean", true, w.main, "+"+w.main+":refs/remotes/origin/release/0.9", "+"+recsSpec)
		env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push", "GITHUB_SHA="+w.main, "GITHUB_REF=refs/heads/release/0.9",
			"GITHUB_EVENT_PATH="+w.event(t, "gh-branch-clean", pushEvent(zero40, w.main, "refs/heads/release/0.9")))
		verifyWants(t, ci, env, nil, 0, []string{`a commit on the default branch main`})
	})
	t.Run("GitHub tag (control)", func(t *testing.T) {
		ci := w.checkout(t, "gh-tag", true, w.notrailer, "+refs/tags/v1.0:refs/tags/v1.0", "+"+recsSpec)
		verifyWants(t, ci, gh("gh-tag", "refs/tags/v1.0"), nil, 1, sneak)
	})
	t.Run("GitHub push creating the branch", func(t *testing.T) {
		ci := w.checkout(t, "gh-branch", true, w.notrailer, "+"+w.notrailer+":refs/remotes/origin/release/1.0", "+"+recsSpec)
		verifyWants(t, ci, gh("gh-branch", "refs/heads/release/1.0"), nil, 1, sneak)
	})
	t.Run("GitHub push to the existing branch", func(t *testing.T) {
		ci := w.checkout(t, "gh-branch-push", true, w.notrailer, "+"+w.notrailer+":refs/remotes/origin/release/1.0", "+"+recsSpec)
		env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push", "GITHUB_SHA="+w.notrailer, "GITHUB_REF=refs/heads/release/1.0",
			"GITHUB_EVENT_PATH="+w.event(t, "gh-branch-push", pushEvent(w.main, w.notrailer, "refs/heads/release/1.0")))
		verifyWants(t, ci, env, nil, 1, sneak)
	})
	t.Run("GitLab push to the existing branch (control)", func(t *testing.T) {
		ci := w.gitlabBuild(t, "1", w.notrailer, 20, "+refs/heads/release/1.0:refs/remotes/origin/release/1.0", "+"+recsSpec)
		verifyWants(t, ci, gl("CI_COMMIT_BEFORE_SHA="+w.main, "CI_COMMIT_BRANCH=release/1.0", "CI_COMMIT_REF_NAME=release/1.0"), nil, 1, sneak)
	})
}

// TestR55DeepMainTipBuilds: honest. main holds more first-parent
// commits since the adoption than the --recheck window (21 sessions); a
// release branch is fast-forwarded to main's tip and pushed. GitLab's push
// pipeline (CI_COMMIT_BEFORE_SHA names the push's before) exited 2: "the
// build names no commit the push started from ... Name the push's before
// (CircleCI: ...)", which the pipeline did name (onDefaultIsTip makes a
// tip build without the tag's "main's own runs judge how deep" rule).
func TestR55DeepMainTipBuilds(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	w.git(t, w.dev, "checkout", "-q", "main")
	w.qaCmd = "test ! -f broken.txt"
	w.git(t, w.dev, "push", "-q", "origin", "main:refs/heads/release")
	for i := 0; i < 21; i++ {
		w.session(t, "m"+itoa(i)+".txt")
	}
	tip := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "origin", "main", "main:refs/heads/release", "refs/sessiongate/records")
	t.Run("GitLab push to the release branch", func(t *testing.T) {
		ci := w.gitlabBuild(t, "1", tip, 20, "+refs/heads/release:refs/remotes/origin/release", "+"+recsSpec)
		env := append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push",
			"CI_COMMIT_SHA="+tip, "CI_COMMIT_BEFORE_SHA="+w.main, "CI_COMMIT_BRANCH=release", "CI_COMMIT_REF_NAME=release")
		verifyWants(t, ci, env, nil, 0, []string{`already on the default branch main`})
	})
	// A merge request from main into the release branch (a promotion),
	// under the template's GIT_DEPTH "0": GitLab fetches every branch, so
	// origin/main is there and mergeRequestOnDefault makes it a tip build;
	// it exited 2 as above ("the build names no commit the push started
	// from"), though the request names its diff base. At depth 20 (no
	// origin/main) the same request passed.
	t.Run("GitLab merge request main into release, GIT_DEPTH 0", func(t *testing.T) {
		w.git(t, w.remote, "update-ref", "refs/merge-requests/3/head", tip)
		ci := w.gitlabBuild(t, "2", tip, 0, "+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*", "+"+recsSpec)
		env := append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=merge_request_event",
			"CI_COMMIT_SHA="+tip, "CI_MERGE_REQUEST_IID=3", "CI_MERGE_REQUEST_DIFF_BASE_SHA="+w.main, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA="+tip,
			"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=main", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME=release")
		verifyWants(t, ci, env, nil, 0, []string{`already on the default branch main`})
	})
}
