package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestVerifyAdvCIDepthShapes: the checkout shapes round 22 added (issue
// 25, "CI as the net"), each built with the CI's own git commands and run
// with the CI's own variables, detached as every runner checks out:
//   - GitLab's default GIT_DEPTH 20 (and 50) on a merge request pipeline
//     (the runner fetches refs/pipelines/<id> alone) whose branch holds
//     more commits than the depth, on a merged-results pipeline, and on a
//     push to main of more commits than the depth;
//   - a GitHub force push to main whose before no longer exists anywhere
//     (the remote pruned it), and a push event whose before is its after;
//   - a named range A..A.
//
// Each shape passes honest work (exit 0), fails a hooks-off commit (exit
// 1), and a shape verify cannot judge exits 2 naming what to set.
func TestVerifyAdvCIDepthShapes(t *testing.T) {
	w := newCIWorld(t)
	w.qaCmd = "test ! -f broken.txt" // main's QA command (newCIWorld ends on bad-qa's)
	many := func(prefix string, n int) []string {
		var fs []string
		for i := 1; i <= n; i++ {
			fs = append(fs, fmt.Sprintf("%s-%02d.txt", prefix, i))
		}
		return fs
	}
	// 24 honest commits; a hooks-off commit under 23 honest ones: both
	// deeper than GIT_DEPTH 20 above main.
	w.git(t, w.dev, "checkout", "-q", "-b", "long", w.main)
	w.session(t, many("long", 24)...)
	long := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "checkout", "-q", "-b", "long-bad", w.main)
	w.noHooks(t, "deep-sneak.txt", "sneak a change under a long branch")
	w.session(t, many("lazy", 23)...)
	longBad := w.git(t, w.dev, "rev-parse", "HEAD")
	// A hooks-off commit on top of the 24: a force push's own commit.
	w.git(t, w.dev, "checkout", "-q", "-b", "long-top", long)
	lazyTop := w.noHooks(t, "top-sneak.txt", "sneak a change on top of a force push")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "long", "long-bad", "long-top", "refs/sessiongate/records")
	w.git(t, w.dev, "checkout", "-q", "feature")

	// GitLab's merged-results commits: the target's tip merged with the
	// source branch's head, made by GitLab (no trailer).
	gl := filepath.Join(w.dir, "gitlab-merged")
	w.git(t, w.dir, "clone", "-q", w.remote, gl)
	mergedResult := func(head string) string {
		w.git(t, gl, "-c", "user.name=Administrator", "-c", "user.email=admin@example.com", "-c", "core.hooksPath=/dev/null",
			"checkout", "-q", "--detach", "origin/main")
		w.git(t, gl, "-c", "user.name=Administrator", "-c", "user.email=admin@example.com", "-c", "core.hooksPath=/dev/null",
			"merge", "-q", "--no-ff", "-m", "Merge commit for merged results", head)
		sha := w.git(t, gl, "rev-parse", "HEAD")
		w.git(t, gl, "push", "-q", "origin", "HEAD:refs/heads/mr-"+head[:8])
		return sha
	}
	mergedLong, mergedBad := mergedResult(long), mergedResult(longBad)

	const recs = "+refs/sessiongate/records:refs/sessiongate/records"
	pipeline := 100
	// A GitLab merge request pipeline's fetch: refs/pipelines/<id> alone.
	mrBuild := func(sha string, depth int) func(t *testing.T) string {
		return func(t *testing.T) string {
			pipeline++
			return w.gitlabBuild(t, strconv.Itoa(pipeline), sha, depth, recs)
		}
	}
	// A branch pipeline's: refs/pipelines/<id> and the branch.
	branchBuild := func(sha, branch string, depth int) func(t *testing.T) string {
		return func(t *testing.T) string {
			pipeline++
			return w.gitlabBuild(t, strconv.Itoa(pipeline), sha, depth, "+refs/heads/"+branch+":refs/remotes/origin/"+branch, recs)
		}
	}
	mrEnv := func(iid, head string) []string {
		return []string{"GITLAB_CI=true", "CI_PIPELINE_SOURCE=merge_request_event", "CI_DEFAULT_BRANCH=main",
			"CI_MERGE_REQUEST_IID=" + iid, "CI_MERGE_REQUEST_DIFF_BASE_SHA=" + w.main, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main",
			"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=long", "CI_COMMIT_REF_NAME=long", "CI_COMMIT_BEFORE_SHA=" + zero40, "CI_COMMIT_SHA=" + head}
	}
	mergedEnv := func(iid, merged, head string) []string {
		return append(mrEnv(iid, merged), "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA="+head, "CI_MERGE_REQUEST_TARGET_BRANCH_SHA="+w.main,
			"CI_MERGE_REQUEST_EVENT_TYPE=merged_result")
	}
	pushMainEnv := func(before, head string) []string {
		return []string{"GITLAB_CI=true", "CI_PIPELINE_SOURCE=push", "CI_DEFAULT_BRANCH=main", "CI_COMMIT_BRANCH=main",
			"CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA=" + before, "CI_COMMIT_SHA=" + head}
	}

	// A later push to a branch: before is the branch's earlier tip.
	branchEnv := func(branch, head string) []string {
		return []string{"GITLAB_CI=true", "CI_PIPELINE_SOURCE=push", "CI_DEFAULT_BRANCH=main", "CI_COMMIT_BRANCH=" + branch,
			"CI_COMMIT_REF_NAME=" + branch, "CI_COMMIT_BEFORE_SHA=" + w.git(t, w.dev, "rev-parse", head+"~2"), "CI_COMMIT_SHA=" + head}
	}
	type tc struct {
		name string
		dir  func(t *testing.T) string
		env  []string
		args []string
		code int
		want []string // stdout (exit 0/1) or stderr (exit 2)
	}
	cases := []tc{
		{"gitlab MR pipeline, GIT_DEPTH 20, 24 honest commits", mrBuild(long, 20), mrEnv("5", long), nil, 0,
			[]string{`(?m)^24 commit\(s\)`, `(?m)^fetched: git fetch`}},
		{"gitlab MR pipeline, GIT_DEPTH 20, hooks-off commit 24 deep", mrBuild(longBad, 20), mrEnv("6", longBad), nil, 1,
			[]string{`(?m)^24 commit\(s\)`, `(?m)^FAIL .* sneak a change under a long branch`}},
		{"gitlab MR pipeline, GIT_DEPTH 20, --no-fetch: exit 2 naming GIT_DEPTH", mrBuild(longBad, 20), mrEnv("6", longBad), []string{"--no-fetch"}, 2,
			[]string{`GIT_DEPTH: "0"`}},
		{"gitlab MR pipeline, GIT_DEPTH 50, honest", mrBuild(long, 50), mrEnv("5", long), nil, 0, []string{`(?m)^24 commit\(s\)`}},
		{"gitlab MR pipeline, GIT_DEPTH 50, hooks-off commit", mrBuild(longBad, 50), mrEnv("6", longBad), nil, 1,
			[]string{`(?m)^FAIL .* sneak a change under a long branch`}},
		{"gitlab merged-results pipeline, GIT_DEPTH 20, honest", mrBuild(mergedLong, 20), mergedEnv("5", mergedLong, long), nil, 0,
			[]string{`(?m)^24 commit\(s\)`, `not the merged-results commit`}},
		{"gitlab merged-results pipeline, GIT_DEPTH 20, hooks-off commit", mrBuild(mergedBad, 20), mergedEnv("6", mergedBad, longBad), nil, 1,
			[]string{`(?m)^FAIL .* sneak a change under a long branch`}},
		{"gitlab push to main of 24 commits, GIT_DEPTH 20, honest", branchBuild(long, "main", 20), pushMainEnv(w.main, long), nil, 0,
			[]string{`(?m)^24 commit\(s\)`}},
		{"gitlab push to main of 24 commits, GIT_DEPTH 20, hooks-off commit at the bottom", branchBuild(longBad, "main", 20), pushMainEnv(w.main, longBad), nil, 1,
			[]string{`(?m)^FAIL .* sneak a change under a long branch`}},
		{"gitlab push to a branch of 24 commits, GIT_DEPTH 20, honest", branchBuild(long, "long", 20), branchEnv("long", long), nil, 0,
			[]string{`(?m)^24 commit\(s\)`}},
		{"gitlab push to a branch, GIT_DEPTH 20, hooks-off commit 24 deep", branchBuild(longBad, "long-bad", 20), branchEnv("long-bad", longBad), nil, 1,
			[]string{`(?m)^FAIL .* sneak a change under a long branch`}},
		{"gitlab push to main, GIT_DEPTH 50, hooks-off commit", branchBuild(longBad, "main", 50), pushMainEnv(w.main, longBad), nil, 1,
			[]string{`(?m)^FAIL .* sneak a change under a long branch`}},
	}
	// GitHub: a force push to main whose before is gone from the remote
	// (a commit pushed, then force-pushed away and pruned), checked out by
	// actions/checkout at depth 1, detached.
	hub := filepath.Join(w.dir, "github-force")
	w.git(t, w.dir, "clone", "-q", w.remote, hub)
	w.git(t, hub, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", "pushed, then force-pushed away")
	gone := w.git(t, hub, "rev-parse", "HEAD")
	w.git(t, hub, "push", "-q", "origin", "HEAD:main")
	actions := func(sha string) func(t *testing.T) string {
		return func(t *testing.T) string {
			// The force push itself, then the prune: before exists nowhere.
			w.git(t, hub, "push", "-q", "-f", "origin", sha+":refs/heads/main")
			w.git(t, w.remote, "reflog", "expire", "--expire=now", "--all")
			w.git(t, w.remote, "gc", "-q", "--prune=now")
			ci := w.checkout(t, "force-gone", true, sha, "+"+sha+":refs/remotes/origin/main", recs)
			return ci
		}
	}
	ghPush := func(name, before, after string) []string {
		ev := pushEvent(before, after, "refs/heads/main")
		ev["forced"] = before != after
		return []string{"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push", "GITHUB_EVENT_PATH=" + w.event(t, name, ev)}
	}
	// GitHub lists the push's commits (the compare of before and after,
	// at most 20 in Actions) in the event: where the push started, though
	// before is gone. The top n commits of after are listed.
	ghPushListed := func(name, before, after string, n int) []string {
		ev := pushEvent(before, after, "refs/heads/main")
		ev["forced"] = true
		var commits []map[string]any
		top := after
		if n < 0 { // a list without the tip: the -n commits below it
			top, n = after+"~1", -n
		}
		for _, c := range strings.Fields(w.git(t, w.dev, "rev-list", "--reverse", "--first-parent", "--max-count="+strconv.Itoa(n), top)) {
			commits = append(commits, map[string]any{"id": c, "distinct": true})
		}
		ev["commits"] = commits
		ev["compare"] = "https://github.com/acme/app/compare/" + before[:12] + "..." + after[:12]
		return []string{"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push", "GITHUB_EVENT_PATH=" + w.event(t, name, ev)}
	}
	cases = append(cases,
		tc{"github force push of 3 commits to main, before pruned, main deeper than the window, the event lists them: no --recheck needed", actions(long), ghPushListed("force-listed", gone, long, 3), nil, 0,
			[]string{`is gone from origin`, `the 3 commit\(s\) the event lists end`, `(?m)^3 commit\(s\)`}},
		tc{"github force push to main, before pruned, listed commits, a hooks-off commit among them", actions(lazyTop), ghPushListed("force-listed-bad", gone, lazyTop, 3), nil, 1,
			[]string{`(?m)^FAIL .* sneak a change on top of a force push`}},
		tc{"github force push to main, before pruned, a list without the tip (not this push's): never base..tip of nothing, the window, exit 2", actions(lazyTop), ghPushListed("force-listed-notip", gone, lazyTop, -3), nil, 2,
			[]string{`is gone from origin`, `--recheck all`}},
		tc{"github force push to main, before pruned, 20 commits listed (maybe cut): the window, exit 2 without --recheck", actions(long), ghPushListed("force-listed-20", gone, long, 20), nil, 2,
			[]string{`is gone from origin`, `--recheck all`, `holds at least 20 commits`, `N under 19 cannot cover it`, `compare page https://github.com/acme/app/compare/`}},
		// Round 24: a list of 20 says the push starts at or below its
		// end; the window chosen reaches below the 20, not below the tip
		// (tip + 5 passed the hooks-off commit 24 deep before).
		tc{"github force push to main, before pruned, 20 listed, --recheck 5, hooks-off commit 24 deep: the window starts below the 20", actions(longBad), ghPushListed("force-listed-20-bad", gone, longBad, 20), []string{"--recheck", "5"}, 1,
			[]string{`at or below where they end`, `(?m)^FAIL .* sneak a change under a long branch`}},
		tc{"github force push to main, before pruned, 20 listed, --recheck 0: exit 2 (the 20 may not be all)", actions(longBad), ghPushListed("force-listed-20-zero", gone, longBad, 20), []string{"--recheck", "0"}, 2,
			[]string{`--recheck 0 leaves`}},
		tc{"github force push to main, before pruned, 20 listed, --recheck 5, honest", actions(long), ghPushListed("force-listed-20-ok", gone, long, 20), []string{"--recheck", "5"}, 0,
			[]string{`at or below where they end`, `(?m)^20 commit\(s\)`}},
		tc{"github force push to main, before pruned, honest", actions(long), ghPush("force-long", gone, long), []string{"--recheck", "30"}, 0,
			[]string{`its before [0-9a-f]{12} is gone from origin`, `re-checked the whole first-parent history of main below this push \(24 commits`}},
		tc{"github force push to main, before pruned, deeper than the window, no --recheck: exit 2", actions(long), ghPush("force-long2", gone, long), nil, 2,
			[]string{`is gone from origin`, `--recheck all`, `--recheck N`}},
		tc{"github force push to main, before pruned, hooks-off commit", actions(longBad), ghPush("force-bad", gone, longBad), []string{"--recheck", "30"}, 1,
			[]string{`(?m)^FAIL .* sneak a change under a long branch`}},
		tc{"github push to main whose before is its after, hooks-off tip", actions(w.notrailer), ghPush("same", w.notrailer, w.notrailer), nil, 1,
			[]string{`(?m)^FAIL .* sneak a change`}},
		tc{"gitlab push to main whose CI_COMMIT_BEFORE_SHA was pruned (force push), honest", branchBuild(long, "main", 20), pushMainEnv(gone, long), []string{"--recheck", "30"}, 0,
			[]string{`is gone from origin`}},
		tc{"gitlab push to main whose CI_COMMIT_BEFORE_SHA was pruned, deeper than the window, no --recheck: exit 2 saying what to set", branchBuild(long, "main", 20), pushMainEnv(gone, long), nil, 2,
			[]string{`nothing in git says where the push started`, `--recheck all`, `--recheck N`, `sessiongate verify BASE\.\.` + long, `Activity page`}},
		tc{"gitlab push to main whose CI_COMMIT_BEFORE_SHA was pruned, hooks-off commit", branchBuild(longBad, "main", 20), pushMainEnv(gone, longBad), []string{"--recheck", "30"}, 1,
			[]string{`(?m)^FAIL .* sneak a change under a long branch`}},
		tc{"named range A..A of a hooks-off commit: exit 2", branchBuild(w.notrailer, "main", 0), nil, []string{w.notrailer + ".." + w.notrailer}, 2,
			[]string{`holds no commit`}},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir(t)
			env := append(append([]string{}, w.env...), c.env...)
			code, out, errb := sgBin(t, dir, env, append([]string{"verify"}, c.args...)...)
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errb)
			}
			text := out
			if c.code == 2 {
				text = errb
			}
			for _, re := range c.want {
				if !regexpMatch(re, text) {
					t.Errorf("output does not match %s:\n%s%s", re, out, errb)
				}
			}
		})
	}
}

func regexpMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }

// TestVerifyAdvGitLabScheduleOnMain: a GitLab pipeline on the default
// branch that no push started (a schedule, "Run pipeline" in the web UI,
// the API, a trigger) has an all-zero CI_COMMIT_BEFORE_SHA, which verify
// read as a push creating the branch: every commit of main's history,
// those from before sessiongate was adopted among them. Honest: a
// repository with history before its adoption passes its scheduled
// pipeline (it failed every pre-adoption commit, a false FAIL on each
// run). The push creating main (GitHub or GitLab; a repository moved to a
// new host with its history) checked every commit too and failed the same
// way: it now checks every commit since the adoption. Lazy: a hooks-off
// commit at main's tip fails.
func TestVerifyAdvGitLabScheduleOnMain(t *testing.T) {
	realBinary(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	gitconfig := "[user]\n\tname = Dev\n\temail = dev@example.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	w := &ciWorld{dir: dir, remote: filepath.Join(dir, "remote.git"), dev: filepath.Join(dir, "dev")}
	w.env = []string{"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GITHUB_ACTIONS=", "GITLAB_CI=", "GITHUB_STEP_SUMMARY="}
	w.git(t, dir, "init", "-q", "--bare", w.remote)
	w.git(t, dir, "init", "-q", w.dev)
	w.git(t, w.dev, "remote", "add", "origin", w.remote)
	// The project's history before sessiongate.
	for _, f := range []string{"README.md", "legacy.txt"} {
		w.write(t, f)
		w.git(t, w.dev, "add", f)
		w.git(t, w.dev, "commit", "-q", "-m", "before sessiongate: "+f)
	}
	w.sg(t, w.dev, "init")
	w.setCommand(t, "test -f README.md")
	w.sg(t, w.dev, "install")
	w.session(t, "adopt.txt")
	w.session(t, "work.txt")
	honest := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "checkout", "-q", "-b", "lazy")
	lazy := w.noHooks(t, "sneak.txt", "sneak a change onto main")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "main", "lazy", "refs/sessiongate/records")

	pipeline := 0
	for _, c := range []struct {
		name, source, sha string
		code              int
		want              []string
	}{
		{"schedule, honest history with commits from before the adoption", "schedule", honest, 0, []string{`(?m)^OK .* add work\.txt`}},
		{"web, honest", "web", honest, 0, []string{`(?m)^OK .* add work\.txt`}},
		{"schedule, a hooks-off commit at main's tip", "schedule", lazy, 1, []string{`(?m)^FAIL .* sneak a change onto main`}},
		{"api, a hooks-off commit at main's tip", "api", lazy, 1, []string{`(?m)^FAIL .* sneak a change onto main`}},
		// The push creating main (a repository moved to a new host with its
		// history): every commit since the adoption, not those before it.
		{"gitlab push creating main, honest history with commits from before the adoption", "push", honest, 0, []string{`(?m)^OK .* add work\.txt`, `left out: the adoption`}},
		{"gitlab push creating main whose tip is a hooks-off commit", "push", lazy, 1, []string{`(?m)^FAIL .* sneak a change onto main`}},
		{"github push creating main, honest history with commits from before the adoption", "github", honest, 0, []string{`(?m)^OK .* add work\.txt`, `left out: the adoption`}},
		{"github push creating main whose tip is a hooks-off commit", "github", lazy, 1, []string{`(?m)^FAIL .* sneak a change onto main`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			pipeline++
			ci := w.gitlabBuild(t, strconv.Itoa(pipeline), c.sha, 20, "+refs/heads/main:refs/remotes/origin/main", "+refs/sessiongate/records:refs/sessiongate/records")
			env := append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_PIPELINE_SOURCE="+c.source, "CI_DEFAULT_BRANCH=main",
				"CI_COMMIT_BRANCH=main", "CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA="+zero40, "CI_COMMIT_SHA="+c.sha)
			if c.source == "github" {
				env = append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
					"GITHUB_EVENT_PATH="+w.event(t, "create-main-"+strconv.Itoa(pipeline), pushEvent(zero40, c.sha, "refs/heads/main")))
			}
			verifyWants(t, ci, env, nil, c.code, c.want)
		})
	}
}
