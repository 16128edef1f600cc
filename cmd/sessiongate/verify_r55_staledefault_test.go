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
