package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestVerifyAdvCIPartialClones: partial and single-branch checkouts round
// 24 did not build, each with the real clone flags against a bare origin
// that serves filters: actions/checkout's `filter: tree:0`, `git clone
// --filter=blob:none` and `--filter=blob:none --depth 1`, each with
// origin reachable (honest passes, a hooks-off commit fails) and with no
// network to origin afterwards (persist-credentials: false on a private
// repository, a runner cut off after the checkout): git's lazy fetch of a
// file verify reads fails, and that is exit 2 saying it is a partial
// clone, never a pass. A `--single-branch` clone that never fetched the
// records ref exits 2 naming the fetch. Honest and hooks-off rows exit
// alike offline: verify refuses to judge rather than judging less.
func TestVerifyAdvCIPartialClones(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	w.pullRef(t, "1", w.remote, w.work2)
	w.pullRef(t, "2", w.remote, w.notrailer)
	url := "file://" + w.remote
	w.git(t, w.remote, "config", "uploadpack.allowFilter", "true")
	w.git(t, w.remote, "config", "uploadpack.allowAnySHA1InWant", "true")
	n := 0
	fresh := func(name string) string {
		n++
		return filepath.Join(w.dir, "partial-"+name+"-"+strconv.Itoa(n))
	}
	offline := func(t *testing.T, dir string) {
		w.git(t, dir, "remote", "set-url", "origin", "file://"+filepath.Join(w.dir, "no-such-remote.git"))
	}
	mustBePartial := func(t *testing.T, dir string) {
		if !strings.Contains(w.git(t, dir, "rev-list", "--objects", "--missing=print", "--all"), "\n?") {
			t.Fatal("the clone holds every object: the remote ignored the filter")
		}
	}
	// actions/checkout with `filter:` (fetch-depth 0) of a pull request's
	// merge: init, fetch with the filter, the records step, check out.
	actions := func(filter, pr, sha string, cut bool) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("actions")
			w.git(t, w.dir, "init", "-q", dir)
			w.git(t, dir, "remote", "add", "origin", url)
			w.git(t, dir, "fetch", "-q", "--no-tags", "--filter="+filter, "origin",
				"+refs/heads/*:refs/remotes/origin/*", "+refs/pull/"+pr+"/merge:refs/remotes/pull/"+pr+"/merge", recsSpec)
			w.git(t, dir, "checkout", "-q", "--force", "--detach", sha)
			mustBePartial(t, dir)
			if cut {
				offline(t, dir)
			}
			return dir
		}
	}
	// The records fetched whole first (a runner's cache, an earlier
	// step), then actions/checkout with `filter: blob:none`, then cut off:
	// verify gets past the records and the base's config, and what it
	// reads later must still not be read as absent.
	recordsFirst := func(pr, sha string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("records-first")
			w.git(t, w.dir, "init", "-q", dir)
			w.git(t, dir, "remote", "add", "origin", url)
			w.git(t, dir, "fetch", "-q", "--no-tags", "origin", recsSpec)
			w.git(t, dir, "fetch", "-q", "--no-tags", "--filter=blob:none", "origin",
				"+refs/heads/*:refs/remotes/origin/*", "+refs/pull/"+pr+"/merge:refs/remotes/pull/"+pr+"/merge")
			w.git(t, dir, "checkout", "-q", "--force", "--detach", sha)
			mustBePartial(t, dir)
			offline(t, dir)
			return dir
		}
	}
	// `git clone --filter=... [--depth 1] --branch B`, then the records
	// fetch (inheriting the clone's filter: remote.origin.partialclonefilter).
	clone := func(filter, branch string, depth, cut bool) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("clone")
			args := []string{"clone", "-q", "--filter=" + filter, "--branch=" + branch}
			if depth {
				args = append(args, "--depth=1", "--no-single-branch")
			}
			w.git(t, w.dir, append(args, url, dir)...)
			w.git(t, dir, "fetch", "-q", "origin", recsSpec)
			mustBePartial(t, dir)
			if cut {
				offline(t, dir)
			}
			return dir
		}
	}
	// `git clone --single-branch --branch B` and no records step.
	single := func(branch string, cut bool) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := fresh("single")
			w.git(t, w.dir, "clone", "-q", "--single-branch", "--branch="+branch, url, dir)
			if cut {
				offline(t, dir)
			}
			return dir
		}
	}
	gh := func(pr int, head string) func(t *testing.T, dir string) []string {
		return func(t *testing.T, dir string) []string {
			return []string{"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request", "GITHUB_EVENT_PATH=" + w.event(t, filepath.Base(dir), prEvent(pr, w.main, head)),
				"GITHUB_REF=refs/pull/" + strconv.Itoa(pr) + "/merge", "GITHUB_SHA=" + head}
		}
	}
	// A plain clone in a CI verify knows by its variables (Buildkite).
	bk := func(branch, head string) func(t *testing.T, dir string) []string {
		return func(*testing.T, string) []string {
			return []string{"BUILDKITE=true", "BUILDKITE_BRANCH=" + branch, "BUILDKITE_PIPELINE_DEFAULT_BRANCH=main", "BUILDKITE_COMMIT=" + head}
		}
	}
	partialMsg := `partial clone .*persist-credentials: false`
	cases := []struct {
		name string
		dir  func(t *testing.T) string
		env  func(t *testing.T, dir string) []string
		code int
		want []string
	}{
		{"actions filter: tree:0, honest", actions("tree:0", "1", w.work2, false), gh(1, w.work2), 0, []string{`(?m)^2 commit\(s\)`}},
		{"actions filter: tree:0, a hooks-off commit", actions("tree:0", "2", w.notrailer, false), gh(2, w.notrailer), 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"actions filter: tree:0, offline, honest", actions("tree:0", "1", w.work2, true), gh(1, w.work2), 2, []string{partialMsg}},
		{"actions filter: tree:0, offline, a hooks-off commit", actions("tree:0", "2", w.notrailer, true), gh(2, w.notrailer), 2, []string{partialMsg}},
		{"records fetched first, filter: blob:none, offline, honest", recordsFirst("1", w.work2), gh(1, w.work2), 0, []string{`(?m)^2 commit\(s\)`}},
		{"records fetched first, filter: blob:none, offline, a hooks-off commit", recordsFirst("2", w.notrailer), gh(2, w.notrailer), 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"clone --filter=blob:none, honest", clone("blob:none", "feature", false, false), bk("feature", w.work2), 0, []string{`(?m)^2 commit\(s\)`}},
		{"clone --filter=blob:none, a hooks-off commit", clone("blob:none", "bad-notrailer", false, false), bk("bad-notrailer", w.notrailer), 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"clone --filter=blob:none, offline, honest", clone("blob:none", "feature", false, true), bk("feature", w.work2), 2, []string{partialMsg}},
		{"clone --filter=blob:none, offline, a hooks-off commit", clone("blob:none", "bad-notrailer", false, true), bk("bad-notrailer", w.notrailer), 2, []string{partialMsg}},
		{"clone --filter=blob:none --depth 1, honest", clone("blob:none", "feature", true, false), bk("feature", w.work2), 0, []string{`(?m)^2 commit\(s\)`}},
		{"clone --filter=blob:none --depth 1, a hooks-off commit", clone("blob:none", "bad-notrailer", true, false), bk("bad-notrailer", w.notrailer), 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"clone --filter=blob:none --depth 1, offline, honest", clone("blob:none", "feature", true, true), bk("feature", w.work2), 2, []string{`shallow clone`, `fetching them failed`}},
		{"clone --filter=blob:none --depth 1, offline, a hooks-off commit", clone("blob:none", "bad-notrailer", true, true), bk("bad-notrailer", w.notrailer), 2, []string{`shallow clone`, `fetching them failed`}},
		{"clone --filter=tree:0 --depth 1, offline, a hooks-off commit", clone("tree:0", "bad-notrailer", true, true), bk("bad-notrailer", w.notrailer), 2, []string{`fetching them failed`}},
		// Round 28 (c2): verify fetches a records ref the clone lacks, as
		// it deepens a shallow one (exit 2 naming the fetch before).
		{"clone --single-branch, no records ref, honest", single("feature", false), bk("feature", w.work2), 0, []string{`(?m)^2 commit\(s\)`}},
		{"clone --single-branch, no records ref, a hooks-off commit", single("bad-notrailer", false), bk("bad-notrailer", w.notrailer), 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"clone --single-branch, no records ref, offline, honest", single("feature", true), bk("feature", w.work2), 2, []string{`default branch main is not in this clone and fetching it failed`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w.git(t, w.remote, "update-ref", "refs/heads/main", w.main)
			dir := c.dir(t)
			env := append(append(append([]string{}, w.env...), "CI=", "GITHUB_REF=", "GITHUB_SHA="), c.env(t, dir)...)
			code, out, errb := sgBin(t, dir, env, "verify")
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

// TestVerifyAdvCIJenkinsPrevious: Jenkins' git plugin sets two earlier
// commits for a branch's build: GIT_PREVIOUS_COMMIT (the last build's,
// which may have failed) and GIT_PREVIOUS_SUCCESSFUL_COMMIT (the last
// green build's). verify takes only the second: a range from the first
// starts above a failed build's hooks-off commit, and with --recheck 0
// nothing re-checks it. Rows with --recheck 0 so the window cannot hide
// a wrong range: the failed build's hooks-off commit stays in the range
// (exit 1); with GIT_PREVIOUS_COMMIT alone (no green build yet) the range
// is a tip build, which refuses --recheck 0 (exit 2), never
// GIT_PREVIOUS_COMMIT..GIT_COMMIT. Honest twin: a green build's range
// passes. All held on the old code (round 25 checked).
func TestVerifyAdvCIJenkinsPrevious(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	// main: ... work2 (green) -> notrailer (a build that failed) -> an
	// honest session on top (this build).
	w.qaCmd = "test ! -f broken.txt" // main's QA command (newCIWorld ends on bad-qa's)
	w.git(t, w.dev, "checkout", "-q", "-b", "jenkins-main", w.notrailer)
	w.session(t, "after-failed.txt")
	tip := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "jenkins-main", "refs/sessiongate/records")
	w.git(t, w.dev, "checkout", "-q", "feature")
	url := "file://" + w.remote
	n := 0
	// Jenkins' git plugin: init, fetch the heads, check out detached.
	checkout := func(t *testing.T, sha string) string {
		n++
		dir := filepath.Join(w.dir, "jenkins-"+strconv.Itoa(n))
		w.git(t, w.dir, "init", "-q", dir)
		w.git(t, dir, "remote", "add", "origin", url)
		w.git(t, dir, "fetch", "-q", "--no-tags", "origin", "+refs/heads/*:refs/remotes/origin/*", recsSpec)
		w.git(t, dir, "checkout", "-q", "--force", "--detach", sha)
		return dir
	}
	jenkins := func(head string, kv ...string) []string {
		return append([]string{"JENKINS_URL=https://jenkins.example/", "BRANCH_NAME=main", "GIT_BRANCH=origin/main", "GIT_COMMIT=" + head}, kv...)
	}
	for _, c := range []struct {
		name string
		main string
		env  []string
		code int
		want []string
	}{
		{"previous build failed, previous green below it: the failed build's commit is checked", tip,
			jenkins(tip, "GIT_PREVIOUS_COMMIT="+w.notrailer, "GIT_PREVIOUS_SUCCESSFUL_COMMIT="+w.work2), 1, []string{`(?m)^FAIL .* sneak a change`, `GIT_PREVIOUS_SUCCESSFUL_COMMIT`}},
		{"GIT_PREVIOUS_COMMIT alone (no green build yet): a tip build, --recheck 0 refused", tip,
			jenkins(tip, "GIT_PREVIOUS_COMMIT="+w.notrailer), 2, []string{`--recheck 0 leaves its tip alone`}},
		{"honest: the green build's range passes", w.work2,
			jenkins(w.work2, "GIT_PREVIOUS_COMMIT="+w.main, "GIT_PREVIOUS_SUCCESSFUL_COMMIT="+w.main), 0, []string{`(?m)^OK .* add work2\.txt`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w.git(t, w.remote, "update-ref", "refs/heads/main", c.main)
			dir := checkout(t, c.main)
			env := append(append(append([]string{}, w.env...), "CI=", "GITHUB_REF=", "GITHUB_SHA="), c.env...)
			code, out, errb := sgBin(t, dir, env, "verify", "--recheck", "0")
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
