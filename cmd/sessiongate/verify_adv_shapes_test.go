package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestVerifyAdvCIMoreShapes: checkouts and CI environments the other CI
// tests do not make, each built with that CI's own git commands. What got
// through on the old code (exit 0, "0 commit(s)"): a checkout on a branch
// with an upstream (actions/checkout on workflow_dispatch or schedule:
// `checkout -B B refs/remotes/origin/B`; Bitbucket's `clone --branch`;
// CircleCI's cloned main; any CI's `git clone`) made @{upstream}..HEAD
// the range, empty in CI, so a hooks-off commit at the tip passed
// unchecked. Jenkins and Buildkite on the default branch exited 2 though
// their environment names the commits. Each shape has an honest twin
// that must pass and a lazy one (a hooks-off commit) that must fail; an
// unknown CI on its default branch exits 2 naming what to pass.
//
// The deep-push suite runs as its subtest DeepAndShallow in the same
// world: each adds only its own branches and tags, and a world is the
// costliest part of either (some 60 real sessiongate runs).
func TestVerifyAdvCIMoreShapes(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	verifyAdvCIMoreShapes(t, w)
	t.Run("DeepAndShallow", func(t *testing.T) { verifyAdvCIDeepAndShallow(t, w) })
}

func verifyAdvCIMoreShapes(t *testing.T, w *ciWorld) {
	w.pullRef(t, "1", w.remote, w.work2)
	w.pullRef(t, "2", w.remote, w.notrailer)
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", w.notrailer+":refs/tags/v2")
	// Others' work on main after the branch started: a person's hooks-off
	// hotfix. The branch merges it: that merge must not charge the
	// hotfix to the branch, and a merge of an unchecked side branch must
	// not launder its commit.
	w.git(t, w.dev, "checkout", "-q", "-b", "hotfix", w.main)
	hotfix := w.noHooks(t, "hotfix.txt", "a person's hotfix on main")
	w.git(t, w.dev, "checkout", "-q", "-b", "merged-main", w.work2)
	w.git(t, w.dev, "-c", "core.hooksPath=/dev/null", "merge", "-q", "--no-edit", hotfix)
	mergedMain := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "checkout", "-q", "-b", "merged-side", w.work2)
	w.git(t, w.dev, "-c", "core.hooksPath=/dev/null", "merge", "-q", "--no-edit", hotfix)
	w.git(t, w.dev, "-c", "core.hooksPath=/dev/null", "merge", "-q", "--no-edit", w.notrailer)
	mergedSide := w.git(t, w.dev, "rev-parse", "HEAD")
	// Two honest sessions on a hooks-off commit: a force push of main from
	// one to the other keeps the hooks-off commit under both.
	w.qaCmd = "test ! -f broken.txt" // main's QA command (newCIWorld ends on bad-qa's)
	w.git(t, w.dev, "checkout", "-q", "-b", "on-bad-1", w.notrailer)
	w.session(t, "on-bad-1.txt")
	onBad1 := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "checkout", "-q", "-b", "on-bad-2", w.notrailer)
	w.session(t, "on-bad-2.txt")
	onBad2 := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "merged-main", "merged-side", "hotfix", "on-bad-1", "on-bad-2", "refs/sessiongate/records")
	w.git(t, w.dev, "checkout", "-q", "feature")
	url := "file://" + w.remote
	// GitHub serves partial clones; a bare repository does when told to.
	w.git(t, w.remote, "config", "uploadpack.allowFilter", "true")
	w.git(t, w.remote, "config", "uploadpack.allowAnySHA1InWant", "true")

	n := 0
	fresh := func(name string) string {
		n++
		return filepath.Join(w.dir, "shape-"+name+"-"+strconv.Itoa(n))
	}
	records := func(t *testing.T, dir string) { w.git(t, dir, "fetch", "-q", "origin", recsSpec) }
	// actions/checkout of a branch (workflow_dispatch, schedule, ...):
	// fetch it at depth 1, `checkout -B B refs/remotes/origin/B`.
	actionsBranch := func(branch string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("actions")
			w.git(t, w.dir, "init", "-q", dir)
			w.git(t, dir, "remote", "add", "origin", url)
			w.git(t, dir, "fetch", "-q", "--no-tags", "--depth=1", "origin", "+refs/heads/"+branch+":refs/remotes/origin/"+branch)
			w.git(t, dir, "checkout", "-q", "--force", "-B", branch, "refs/remotes/origin/"+branch)
			records(t, dir) // the documented step after actions/checkout
			return dir
		}
	}
	actionsTag := func(tag string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("actions-tag")
			w.git(t, w.dir, "init", "-q", dir)
			w.git(t, dir, "remote", "add", "origin", url)
			w.git(t, dir, "fetch", "-q", "--no-tags", "--depth=1", "origin", "+refs/tags/"+tag+":refs/tags/"+tag)
			w.git(t, dir, "checkout", "-q", "--force", "refs/tags/"+tag)
			records(t, dir)
			return dir
		}
	}
	// actions/checkout with fetch-depth: 0 and filter: blob:none (a
	// partial clone: blobs fetched when read) of a pull request's merge.
	actionsPartial := func(pr, sha string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("partial")
			w.git(t, w.dir, "init", "-q", dir)
			w.git(t, dir, "remote", "add", "origin", url)
			w.git(t, dir, "fetch", "-q", "--no-tags", "--filter=blob:none", "origin",
				"+refs/heads/*:refs/remotes/origin/*", "+refs/pull/"+pr+"/merge:refs/remotes/pull/"+pr+"/merge", recsSpec)
			w.git(t, dir, "checkout", "-q", "--force", "--detach", sha)
			// Partial indeed: blobs outside the checkout are not here.
			if w.git(t, dir, "rev-list", "--objects", "--missing=print", "--all") == "" ||
				!strings.Contains(w.git(t, dir, "rev-list", "--objects", "--missing=print", "--all"), "\n?") {
				t.Fatal("the clone holds every blob: the remote ignored --filter=blob:none")
			}
			return dir
		}
	}
	noFetch := func(checkout func(t *testing.T) string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := checkout(t)
			w.git(t, dir, "remote", "set-url", "origin", "file://"+filepath.Join(w.dir, "no-such-remote.git"))
			return dir
		}
	}
	// Bitbucket Pipelines: clone --branch at depth 50, reset to the commit.
	bitbucket := func(branch, sha string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("bitbucket")
			w.git(t, w.dir, "clone", "-q", "--branch="+branch, "--depth", "50", url, dir)
			w.git(t, dir, "reset", "-q", "--hard", sha)
			records(t, dir)
			return dir
		}
	}
	// CircleCI: clone, then `checkout --force -B BRANCH SHA`.
	circle := func(branch, sha string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("circleci")
			w.git(t, w.dir, "clone", "-q", "--no-checkout", url, dir)
			w.git(t, dir, "checkout", "-q", "--force", "-B", branch, sha)
			records(t, dir)
			return dir
		}
	}
	// Jenkins' git plugin, Buildkite, Azure Pipelines: init (or clone),
	// fetch the heads, check the commit out detached. No origin/HEAD.
	detached := func(sha string, extra ...string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("detached")
			w.git(t, w.dir, "init", "-q", dir)
			w.git(t, dir, "remote", "add", "origin", url)
			w.git(t, dir, append([]string{"fetch", "-q", "--no-tags", "origin", "+refs/heads/*:refs/remotes/origin/*", recsSpec}, extra...)...)
			w.git(t, dir, "checkout", "-q", "--force", "--detach", sha)
			return dir
		}
	}
	// A clone of any CI that says only CI=true.
	cloned := func(branch string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("clone")
			w.git(t, w.dir, "clone", "-q", "--branch="+branch, url, dir)
			records(t, dir)
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
	dispatch := map[string]any{"inputs": map[string]any{}, "repository": map[string]any{"default_branch": "main"}}
	schedule := map[string]any{"schedule": "17 3 * * *", "repository": map[string]any{"default_branch": "main"}}
	workflowRun := func(head, branch, repo string) map[string]any {
		return map[string]any{"workflow_run": map[string]any{"head_sha": head, "head_branch": branch, "event": "pull_request",
			"head_repository": map[string]any{"full_name": repo}}, "repository": map[string]any{"default_branch": "main", "full_name": "dev/app"}}
	}
	azurePR := func(n, head string) []string {
		return []string{"TF_BUILD=True", "BUILD_SOURCEBRANCH=refs/pull/" + n + "/merge", "SYSTEM_PULLREQUEST_PULLREQUESTNUMBER=" + n,
			"SYSTEM_PULLREQUEST_TARGETBRANCH=refs/heads/main", "SYSTEM_PULLREQUEST_SOURCECOMMITID=" + head, "BUILD_SOURCEVERSION=" + head}
	}
	cases := []struct {
		name string
		main string // where the remote's main points for this case
		dir  func(t *testing.T) string
		env  func(t *testing.T, dir string) []string
		args []string
		code int
		want []string
	}{
		// GitHub events that carry no commits: GITHUB_REF and GITHUB_SHA.
		{"github workflow_dispatch on a branch, honest", w.main, actionsBranch("feature"),
			gh("workflow_dispatch", dispatch, "refs/heads/feature", w.work2), nil, 0, []string{`(?m)^2 commit\(s\) in origin/main\.\.`, `GITHUB_REF`}},
		{"github workflow_dispatch on a branch with a hooks-off commit", w.main, actionsBranch("bad-notrailer"),
			gh("workflow_dispatch", dispatch, "refs/heads/bad-notrailer", w.notrailer), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"github workflow_dispatch on a tag of a hooks-off commit", w.main, actionsTag("v2"),
			gh("workflow_dispatch", dispatch, "refs/tags/v2", w.notrailer), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"github schedule on the default branch, honest", w.work2, actionsBranch("main"),
			gh("schedule", schedule, "refs/heads/main", w.work2), nil, 0, []string{`(?m)^OK .* add work2\.txt`, `re-checked the (last \d+|whole) first-parent`}},
		{"github schedule on the default branch whose tip is a hooks-off commit", w.notrailer, actionsBranch("main"),
			gh("schedule", schedule, "refs/heads/main", w.notrailer), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		// workflow_run (a fork pull request's status posted from the base
		// repository): about workflow_run.head_sha, not main's tip.
		{"github workflow_run about a branch, honest", w.main, actionsBranch("main"),
			gh("workflow_run", workflowRun(w.work2, "feature", "dev/app"), "refs/heads/main", w.main), nil, 0, []string{`(?m)^OK .* add work2\.txt`, `workflow_run\.head_sha`}},
		{"github workflow_run about a fork's branch with a hooks-off commit", w.main, actionsBranch("main"),
			gh("workflow_run", workflowRun(w.notrailer, "main", "fork/app"), "refs/heads/main", w.main), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		// Partial clone: the blobs verify reads are fetched as read.
		{"github pull_request, filter: blob:none, honest", w.main, actionsPartial("1", w.work2),
			gh("pull_request", prEvent(1, w.main, w.work2), "refs/pull/1/merge", w.work2), nil, 0, []string{`(?m)^2 commit\(s\)`}},
		{"github pull_request, filter: blob:none, a hooks-off commit", w.main, actionsPartial("2", w.notrailer),
			gh("pull_request", prEvent(2, w.main, w.notrailer), "refs/pull/2/merge", w.notrailer), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		// ... and with persist-credentials: false on a private repository:
		// the blobs cannot be fetched when read.
		{"github pull_request, filter: blob:none, no credentials, honest", w.main, noFetch(actionsPartial("1", w.work2)),
			gh("pull_request", prEvent(1, w.main, w.work2), "refs/pull/1/merge", w.work2), nil, 2, []string{`from promisor remote`, `partial clone .*persist-credentials: false`}},
		{"github pull_request, filter: blob:none, no credentials, a hooks-off commit", w.main, noFetch(actionsPartial("2", w.notrailer)),
			gh("pull_request", prEvent(2, w.main, w.notrailer), "refs/pull/2/merge", w.notrailer), nil, 2, []string{`partial clone`}},
		// A branch that merged main: main's commits are not the branch's;
		// a merged side branch's are.
		{"github pull_request of a branch that merged main's hooks-off hotfix", hotfix, detached(mergedMain),
			gh("pull_request", prEvent(3, hotfix, mergedMain), "refs/pull/3/merge", mergedMain), nil, 0, []string{`(?m)^OK .*add work2\.txt`}},
		{"github push of a branch that merged main and a hooks-off side branch", hotfix, actionsBranch("merged-side"),
			gh("push", pushEvent(mergedMain, mergedSide, "refs/heads/merged-side"), "refs/heads/merged-side", mergedSide), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		// A force push to main: the window starts at the merge base, not
		// below commits the push took off main.
		{"github force push rewinding main past a failed commit", w.work2, actionsBranch("main"),
			gh("push", pushEvent(w.notrailer, w.work2, "refs/heads/main"), "refs/heads/main", w.work2), nil, 0, []string{`force push`, `(?m)^0 commit\(s\)`}},
		{"github force push replacing main's tip, a failed commit under both", onBad2, actionsBranch("main"),
			gh("push", pushEvent(onBad1, onBad2, "refs/heads/main"), "refs/heads/main", onBad2), nil, 1, []string{`(?m)^OK .* add on-bad-2\.txt`, `(?m)^FAIL .* sneak a change`, `force push`}},
		// Bitbucket Pipelines.
		{"bitbucket branch pipeline, honest", w.main, bitbucket("feature", w.work2),
			plain("CI=true", "BITBUCKET_BUILD_NUMBER=7", "BITBUCKET_BRANCH=feature", "BITBUCKET_COMMIT="+w.work2), nil, 0, []string{`(?m)^2 commit\(s\)`, `Bitbucket`}},
		{"bitbucket branch pipeline with a hooks-off commit", w.main, bitbucket("bad-notrailer", w.notrailer),
			plain("CI=true", "BITBUCKET_BUILD_NUMBER=8", "BITBUCKET_BRANCH=bad-notrailer", "BITBUCKET_COMMIT="+w.notrailer), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"bitbucket pull request pipeline with a hooks-off commit", w.main, bitbucket("bad-notrailer", w.notrailer),
			plain("CI=true", "BITBUCKET_BUILD_NUMBER=9", "BITBUCKET_BRANCH=bad-notrailer", "BITBUCKET_COMMIT="+w.notrailer, "BITBUCKET_PR_ID=2",
				"BITBUCKET_PR_DESTINATION_BRANCH=main"), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		// CircleCI.
		{"circleci on the default branch, honest", w.work2, circle("main", w.work2),
			plain("CI=true", "CIRCLECI=true", "CIRCLE_BRANCH=main", "CIRCLE_SHA1="+w.work2), nil, 0, []string{`(?m)^OK .* add work2\.txt`}},
		{"circleci on the default branch whose tip is a hooks-off commit", w.notrailer, circle("main", w.notrailer),
			plain("CI=true", "CIRCLECI=true", "CIRCLE_BRANCH=main", "CIRCLE_SHA1="+w.notrailer), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"circleci on the default branch, --recheck 0: exit 2, not the tip alone", w.work2, circle("main", w.work2),
			plain("CI=true", "CIRCLECI=true", "CIRCLE_BRANCH=main", "CIRCLE_SHA1="+w.work2), []string{"--recheck", "0"}, 2, []string{`--recheck 0 leaves its tip alone`, `sessiongate verify BASE\.\.HEAD`}},
		{"circleci on a branch with a hooks-off commit", w.main, circle("bad-notrailer", w.notrailer),
			plain("CI=true", "CIRCLECI=true", "CIRCLE_BRANCH=bad-notrailer", "CIRCLE_SHA1="+w.notrailer), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		// Jenkins: GIT_PREVIOUS_SUCCESSFUL_COMMIT..GIT_COMMIT on the default branch.
		{"jenkins on the default branch, honest", w.work2, detached(w.work2),
			plain("JENKINS_URL=https://jenkins.example/", "BRANCH_NAME=main", "GIT_BRANCH=origin/main", "GIT_COMMIT="+w.work2, "GIT_PREVIOUS_SUCCESSFUL_COMMIT="+w.main),
			nil, 0, []string{`(?m)^OK .* add work1\.txt`, `GIT_PREVIOUS_SUCCESSFUL_COMMIT`}},
		{"jenkins on the default branch with a hooks-off commit", w.notrailer, detached(w.notrailer),
			plain("JENKINS_URL=https://jenkins.example/", "BRANCH_NAME=main", "GIT_BRANCH=origin/main", "GIT_COMMIT="+w.notrailer, "GIT_PREVIOUS_SUCCESSFUL_COMMIT="+w.main),
			nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		// GIT_BRANCH spelled as a ref or under another remote: it named
		// no branch and checked 0 commits (exit 0) before.
		{"jenkins on the default branch as refs/remotes/origin/main, hooks-off tip", w.notrailer, detached(w.notrailer),
			plain("JENKINS_URL=https://jenkins.example/", "GIT_BRANCH=refs/remotes/origin/main", "GIT_COMMIT="+w.notrailer),
			nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"jenkins on the default branch as upstream/main, hooks-off tip", w.notrailer, detached(w.notrailer),
			plain("JENKINS_URL=https://jenkins.example/", "GIT_BRANCH=upstream/main", "GIT_COMMIT="+w.notrailer),
			nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"jenkins on the default branch as refs/remotes/origin/main, honest", w.work2, detached(w.work2),
			plain("JENKINS_URL=https://jenkins.example/", "GIT_BRANCH=refs/remotes/origin/main", "GIT_COMMIT="+w.work2),
			nil, 0, []string{`(?m)^OK .* add work2\.txt`}},
		{"jenkins pull request with a hooks-off commit", w.main, detached(w.notrailer),
			plain("JENKINS_URL=https://jenkins.example/", "BRANCH_NAME=PR-2", "CHANGE_ID=2", "CHANGE_TARGET=main", "GIT_COMMIT="+w.notrailer),
			nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		// Buildkite.
		{"buildkite on the default branch, honest", w.work2, detached(w.work2),
			plain("BUILDKITE=true", "BUILDKITE_BRANCH=main", "BUILDKITE_PIPELINE_DEFAULT_BRANCH=main", "BUILDKITE_COMMIT="+w.work2), nil, 0, []string{`(?m)^OK .* add work2\.txt`}},
		{"buildkite on the default branch whose tip is a hooks-off commit", w.notrailer, detached(w.notrailer),
			plain("BUILDKITE=true", "BUILDKITE_BRANCH=main", "BUILDKITE_PIPELINE_DEFAULT_BRANCH=main", "BUILDKITE_COMMIT="+w.notrailer), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		// Azure Pipelines: a pull request build checks out GitHub's merge.
		{"azure pipelines pull request, honest", w.main, detached("refs/remotes/pull/1/merge", "+refs/pull/1/merge:refs/remotes/pull/1/merge"),
			plain(azurePR("1", w.work2)...), nil, 0, []string{`(?m)^2 commit\(s\)`}},
		{"azure pipelines pull request with a hooks-off commit", w.main, detached("refs/remotes/pull/2/merge", "+refs/pull/2/merge:refs/remotes/pull/2/merge"),
			plain(azurePR("2", w.notrailer)...), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		// A CI verify does not know: never the empty @{upstream}..HEAD.
		{"unknown CI, a branch clone with a hooks-off commit", w.main, cloned("bad-notrailer"),
			plain("CI=true"), nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"unknown CI, a branch clone, honest", w.main, cloned("feature"),
			plain("CI=true"), nil, 0, []string{`(?m)^2 commit\(s\)`}},
		{"unknown CI on the default branch: exit 2 naming the range to pass", w.notrailer, cloned("main"),
			plain("CI=true"), nil, 2, []string{`cannot tell which commits to check`, `BITBUCKET_COMMIT`, `sessiongate verify BASE\.\.HEAD`}},
		{"unknown CI on the default branch, the range named: checked", w.notrailer, cloned("main"),
			plain("CI=true"), []string{w.work2 + "..HEAD"}, 1, []string{`(?m)^FAIL .* sneak a change`}},
		// persist-credentials: false on a private repository: nothing can
		// be fetched; a shallow clone exits 2 naming fetch-depth: 0.
		{"no credentials, depth 1: exit 2 naming fetch-depth: 0", w.main, func(t *testing.T) string {
			dir := actionsBranch("bad-notrailer")(t)
			w.git(t, dir, "fetch", "-q", "--depth=1", "origin", "+refs/heads/main:refs/remotes/origin/main")
			w.git(t, dir, "remote", "set-url", "origin", "file://"+filepath.Join(w.dir, "no-such-remote.git"))
			return dir
		}, gh("push", pushEvent(w.work2, w.notrailer, "refs/heads/bad-notrailer"), "refs/heads/bad-notrailer", w.notrailer), nil, 2, []string{`fetch-depth: 0`}},
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
		})
	}
}
