package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// verifyAdvCIDeepAndShallow (TestVerifyAdvCIMoreShapes/DeepAndShallow,
// in that test's world): what CI sees of a push deeper than the
// --recheck window, a records ref fetched at depth 1, a workflow_run of a
// deleted fork, and a force push in a shallow clone with --no-fetch (issue
// 25). Each clone is made with the CI's own git commands and the real
// binary runs in it. What got through on the old code:
//   - 25 commits pushed to main at once on a CI whose variables name no
//     "before" (CircleCI, Buildkite): the hooks-off one at position 1 was
//     below the 20-commit window and the run passed (exit 0);
//   - records fetched with --depth=1 made every pinned records commit
//     "missing": RECORDS_REWOUND failed an honest branch (exit 1);
//   - workflow_run with an empty head_repository (a deleted fork) whose
//     head_branch is "main" was checked as this repository's main (exit 0);
//   - a force push to main whose before was fetched at depth 1: git
//     merge-base's "no merge base" carried graft hints on stderr (verify
//     sets GIT_GRAFT_FILE) and was taken for an error (exit 2, a page of
//     hints); with that fixed, before..after ran past the merge base (the
//     cut-off before excluded nothing) and failed main's adoption commit
//     (exit 1, a false block). With --no-fetch an empty merge base dropped
//     the window without a word;
//   - a tag of a commit on main (GitHub push, CircleCI, GitLab tag
//     pipeline) checked "the commits not on main": none, exit 0 over a
//     hooks-off tip main's own run had failed.
func verifyAdvCIDeepAndShallow(t *testing.T, w *ciWorld) {
	w.qaCmd = "test ! -f broken.txt" // main's QA command (newCIWorld ends on bad-qa's)
	// Two pushes of 25 commits each on main: one whose oldest commit was
	// made with hooks off, one all honest.
	many := func(prefix string, n int) []string {
		var fs []string
		for i := 1; i <= n; i++ {
			fs = append(fs, fmt.Sprintf("%s-%02d.txt", prefix, i))
		}
		return fs
	}
	w.git(t, w.dev, "checkout", "-q", "-b", "deep-lazy", w.main)
	w.noHooks(t, "deep-sneak.txt", "sneak a change under a deep push")
	w.session(t, many("lazy", 24)...)
	lazy := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "checkout", "-q", "-b", "deep-honest", w.main)
	w.session(t, many("honest", 25)...)
	honest := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "deep-lazy", "deep-honest", "refs/sessiongate/records",
		w.notrailer+":refs/tags/v9", w.work2+":refs/tags/v8", honest+":refs/tags/v7")
	w.git(t, w.dev, "checkout", "-q", "feature")
	url := "file://" + w.remote
	badURL := "file://" + filepath.Join(w.dir, "no-such-remote.git")

	n := 0
	fresh := func(name string) string {
		n++
		return filepath.Join(w.dir, "deep-"+name+"-"+strconv.Itoa(n))
	}
	// CircleCI: clone, then `checkout --force -B BRANCH SHA`; records fetched.
	circle := func(branch, sha string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("circleci")
			w.git(t, w.dir, "clone", "-q", "--no-checkout", url, dir)
			w.git(t, dir, "checkout", "-q", "--force", "-B", branch, sha)
			w.git(t, dir, "fetch", "-q", "origin", recsSpec)
			return dir
		}
	}
	// Every branch whole, the records ref at depth 1 (a CI step written
	// as `git fetch --depth=1 origin refs/sessiongate/records:...`).
	shallowRecords := func(sha, remote string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("shallow-records")
			w.git(t, w.dir, "init", "-q", dir)
			w.git(t, dir, "remote", "add", "origin", url)
			w.git(t, dir, "fetch", "-q", "--no-tags", "origin", "+refs/heads/*:refs/remotes/origin/*")
			w.git(t, dir, "fetch", "-q", "--no-tags", "--depth=1", "origin", recsSpec)
			w.git(t, dir, "checkout", "-q", "--force", "--detach", sha)
			w.git(t, dir, "remote", "set-url", "origin", remote)
			return dir
		}
	}
	// actions/checkout of main at full depth, then the force push's
	// before fetched at depth 1 (a step that fetched it to diff against).
	forceClone := func(before, remote string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("force")
			w.git(t, w.dir, "init", "-q", dir)
			w.git(t, dir, "remote", "add", "origin", url)
			w.git(t, dir, "fetch", "-q", "--no-tags", "origin", "+refs/heads/main:refs/remotes/origin/main", recsSpec)
			w.git(t, dir, "fetch", "-q", "--no-tags", "--depth=1", "origin", before)
			w.git(t, dir, "checkout", "-q", "--force", "-B", "main", "refs/remotes/origin/main")
			w.git(t, dir, "remote", "set-url", "origin", remote)
			return dir
		}
	}
	actionsMain := func(t *testing.T) string {
		dir := fresh("actions")
		w.git(t, w.dir, "init", "-q", dir)
		w.git(t, dir, "remote", "add", "origin", url)
		w.git(t, dir, "fetch", "-q", "--no-tags", "--depth=1", "origin", "+refs/heads/main:refs/remotes/origin/main")
		w.git(t, dir, "checkout", "-q", "--force", "-B", "main", "refs/remotes/origin/main")
		w.git(t, dir, "fetch", "-q", "origin", recsSpec)
		return dir
	}
	// actions/checkout of a tag: depth 1, detached at the tag.
	actionsTag := func(tag string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("actions-tag")
			w.git(t, w.dir, "init", "-q", dir)
			w.git(t, dir, "remote", "add", "origin", url)
			w.git(t, dir, "fetch", "-q", "--no-tags", "--depth=1", "origin", "+refs/tags/"+tag+":refs/tags/"+tag)
			w.git(t, dir, "checkout", "-q", "--force", "refs/tags/"+tag)
			w.git(t, dir, "fetch", "-q", "origin", recsSpec)
			return dir
		}
	}
	// CircleCI on a tag: clone, then check the tag's commit out detached.
	circleTag := func(tag, sha string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("circleci-tag")
			w.git(t, w.dir, "clone", "-q", "--no-checkout", url, dir)
			w.git(t, dir, "checkout", "-q", "--force", "--detach", sha)
			w.git(t, dir, "fetch", "-q", "origin", recsSpec)
			return dir
		}
	}
	gh := func(event string, ev map[string]any, ref, sha string) func(t *testing.T, dir string) []string {
		return func(t *testing.T, dir string) []string {
			return []string{"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=" + event, "GITHUB_EVENT_PATH=" + w.event(t, filepath.Base(dir), ev),
				"GITHUB_REF=" + ref, "GITHUB_SHA=" + sha}
		}
	}
	plain := func(env ...string) func(t *testing.T, dir string) []string {
		return func(*testing.T, string) []string { return env }
	}
	circleEnv := func(sha string) func(t *testing.T, dir string) []string {
		return plain("CI=true", "CIRCLECI=true", "CIRCLE_BRANCH=main", "CIRCLE_SHA1="+sha)
	}
	workflowRun := func(head, branch, repo string) map[string]any {
		return map[string]any{"workflow_run": map[string]any{"head_sha": head, "head_branch": branch, "event": "pull_request",
			"head_repository": map[string]any{"full_name": repo}}, "repository": map[string]any{"default_branch": "main", "full_name": "dev/app"}}
	}
	cases := []struct {
		name    string
		main    string
		dir     func(t *testing.T) string
		env     func(t *testing.T, dir string) []string
		args    []string
		code    int
		want    []string
		notWant []string
	}{
		// 1. A push deeper than the window on a CI that names no before.
		{"circleci main, 25 commits pushed at once, hooks-off at 1 of 25: exit 2 naming --recheck", lazy, circle("main", lazy), circleEnv(lazy),
			nil, 2, []string{`--recheck all`, `BEFORE\.\.`, `pipeline\.git\.base_revision`}, nil},
		{"buildkite main, 25 commits pushed at once, hooks-off at 1 of 25: exit 2", lazy, circle("main", lazy),
			plain("BUILDKITE=true", "BUILDKITE_BRANCH=main", "BUILDKITE_PIPELINE_DEFAULT_BRANCH=main", "BUILDKITE_COMMIT="+lazy),
			nil, 2, []string{`--recheck all`}, nil},
		{"github schedule on main, 25 commits deep, hooks-off at 1 of 25: exit 2", lazy, actionsMain,
			gh("schedule", map[string]any{"schedule": "17 3 * * *", "repository": map[string]any{"default_branch": "main"}}, "refs/heads/main", lazy),
			nil, 2, []string{`--recheck all`}, nil},
		{"circleci main, hooks-off at 1 of 25, --recheck all: checked", lazy, circle("main", lazy), circleEnv(lazy),
			[]string{"--recheck", "all"}, 1, []string{`(?m)^FAIL .* sneak a change under a deep push`}, nil},
		{"circleci main, hooks-off at 1 of 25, --recheck 30: checked", lazy, circle("main", lazy), circleEnv(lazy),
			[]string{"--recheck", "30"}, 1, []string{`(?m)^FAIL .* sneak a change under a deep push`}, nil},
		{"circleci main, hooks-off at 1 of 25, the push's before named: checked", lazy, circle("main", lazy), circleEnv(lazy),
			[]string{w.main + ".." + lazy}, 1, []string{`(?m)^FAIL .* sneak a change under a deep push`}, nil},
		{"circleci main, 25 honest commits, --recheck all: pass", honest, circle("main", honest), circleEnv(honest),
			[]string{"--recheck", "all"}, 0, []string{`(?m)^OK .* add honest-25\.txt`, `re-checked the whole first-parent`}, nil},
		{"circleci main, 25 honest commits, the push's before named: pass", honest, circle("main", honest), circleEnv(honest),
			[]string{w.main + ".." + honest}, 0, []string{`(?m)^25 commit\(s\)`}, nil},
		{"circleci main, 25 honest commits, --recheck 20 chosen: pass, the window named", honest, circle("main", honest), circleEnv(honest),
			[]string{"--recheck", "20"}, 0, []string{`(?m)^OK .* add honest-25\.txt`, `not re-checked`}, nil},
		{"github push of 25 honest commits to main (before named by the event): pass", honest, actionsMain,
			gh("push", pushEvent(w.main, honest, "refs/heads/main"), "refs/heads/main", honest), nil, 0, []string{`(?m)^25 commit\(s\)`}, nil},
		{"github push of 25 commits to main, hooks-off at 1 of 25: fail", lazy, actionsMain,
			gh("push", pushEvent(w.main, lazy, "refs/heads/main"), "refs/heads/main", lazy), nil, 1, []string{`(?m)^FAIL .* sneak a change under a deep push`}, nil},
		// 5. A tag of a commit on main: its range was "not on main", empty.
		{"github push of a tag on main's hooks-off tip: checked", w.notrailer, actionsTag("v9"),
			gh("push", pushEvent(zero40, w.notrailer, "refs/tags/v9"), "refs/tags/v9", w.notrailer), nil, 1, []string{`(?m)^FAIL .* sneak a change`}, nil},
		{"circleci tag build on main's hooks-off tip: checked", w.notrailer, circleTag("v9", w.notrailer),
			plain("CI=true", "CIRCLECI=true", "CIRCLE_TAG=v9", "CIRCLE_SHA1="+w.notrailer), nil, 1, []string{`(?m)^FAIL .* sneak a change`}, nil},
		{"gitlab tag pipeline on main's hooks-off tip: checked", w.notrailer, circleTag("v9", w.notrailer),
			plain("GITLAB_CI=true", "CI_COMMIT_SHA="+w.notrailer, "CI_COMMIT_BEFORE_SHA="+zero40, "CI_COMMIT_TAG=v9", "CI_COMMIT_REF_NAME=v9", "CI_DEFAULT_BRANCH=main"),
			nil, 1, []string{`(?m)^FAIL .* sneak a change`}, nil},
		{"github push of a tag on main's honest tip: pass", w.work2, actionsTag("v8"),
			gh("push", pushEvent(zero40, w.work2, "refs/tags/v8"), "refs/tags/v8", w.work2), nil, 0, []string{`(?m)^OK .* add work2\.txt`}, nil},
		{"github push of a tag on main's tip 25 honest commits deep: pass, no exit 2", honest, actionsTag("v7"),
			gh("push", pushEvent(zero40, honest, "refs/tags/v7"), "refs/tags/v7", honest), nil, 0, []string{`(?m)^OK .* add honest-25\.txt`, `default branch's own runs`}, nil},
		// 2. The records ref fetched at depth 1.
		{"records ref at depth 1, honest branch: deepened, pass", w.main, shallowRecords(w.work2, url),
			plain("CI=true", "CIRCLECI=true", "CIRCLE_BRANCH=feature", "CIRCLE_SHA1="+w.work2), nil, 0,
			[]string{`(?m)^2 commit\(s\)`, `git fetch --unshallow origin refs/sessiongate/records`}, []string{`RECORDS_REWOUND`}},
		{"records ref at depth 1, --no-fetch: exit 2 naming the fetch", w.main, shallowRecords(w.work2, badURL),
			plain("CI=true", "CIRCLECI=true", "CIRCLE_BRANCH=feature", "CIRCLE_SHA1="+w.work2), []string{"--no-fetch"}, 2,
			[]string{`records ref refs/sessiongate/records was fetched shallow`, `git fetch --unshallow origin refs/sessiongate/records`}, []string{`RECORDS_REWOUND`}},
		{"records ref at depth 1, a hooks-off commit: deepened, still fails", w.main, shallowRecords(w.notrailer, url),
			plain("CI=true", "CIRCLECI=true", "CIRCLE_BRANCH=bad-notrailer", "CIRCLE_SHA1="+w.notrailer), nil, 1,
			[]string{`(?m)^FAIL .* sneak a change`}, nil},
		// 3. workflow_run of a deleted fork: head_repository is null.
		{"github workflow_run, head_repository empty (deleted fork), head_branch main: exit 2", w.main, actionsMain,
			gh("workflow_run", workflowRun(w.work2, "main", ""), "refs/heads/main", w.main), nil, 2,
			[]string{`head_repository`, `deleted fork`}, nil},
		{"github workflow_run, this repository's branch: checked", w.main, actionsMain,
			gh("workflow_run", workflowRun(w.work2, "feature", "dev/app"), "refs/heads/main", w.main), nil, 0,
			[]string{`(?m)^OK .* add work2\.txt`}, nil},
		// 4. A force push to main, its before fetched at depth 1.
		{"force push, before shallow, --no-fetch: exit 2 naming what was not re-checked", w.work2, forceClone(w.copied, badURL),
			gh("push", pushEvent(w.copied, w.work2, "refs/heads/main"), "refs/heads/main", w.work2), []string{"--no-fetch"}, 2,
			[]string{`base \w+ is a shallow cut-off point`, `--no-fetch`, `fetch-depth: 0`}, nil},
		{"force push, before shallow, fetching: the window from the merge base", w.work2, forceClone(w.copied, url),
			gh("push", pushEvent(w.copied, w.work2, "refs/heads/main"), "refs/heads/main", w.work2), nil, 0,
			[]string{`force push`, `(?m)^0 commit\(s\)`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w.git(t, w.remote, "update-ref", "refs/heads/main", c.main)
			dir := c.dir(t)
			env := append(append(append([]string{}, w.env...), "CI=", "GITHUB_REF=", "GITHUB_SHA="), c.env(t, dir)...)
			code, out, errb := sgBin(t, dir, env, append([]string{"verify"}, c.args...)...)
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errb)
			}
			for _, re := range c.want {
				if !regexp.MustCompile(re).MatchString(out + errb) {
					t.Errorf("output does not match %s", re)
				}
			}
			for _, re := range c.notWant {
				if regexp.MustCompile(re).MatchString(out + errb) {
					t.Errorf("output matches %s", re)
				}
			}
		})
	}
}
