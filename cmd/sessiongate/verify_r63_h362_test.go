package main

import (
	"path/filepath"
	"regexp"
	"testing"
)

// TestR63H362ForkPRStackedOnOriginBranch (helper 362): a contributor's
// fork (GitHub copies branches, never refs/sessiongate/records) opens a
// pull request stacked on a branch of origin not yet on main: its range
// holds that branch's commits, whose session records only origin holds,
// and the contributor's own session, whose records only the fork holds.
// The action fetched the fork's records ref alone, so the honest pull
// request failed "no session record ... (RECORDS_REWOUND)" on origin's own
// sessions. The action now fetches origin's ref and merges the fork's into
// it (records pull) before verify. Lazy twin: a hooks-off commit on top of
// the same stack still fails, naming it.
func TestR63H362ForkPRStackedOnOriginBranch(t *testing.T) {
	w := newCIWorld(t)
	fork := filepath.Join(w.dir, "gh-fork.git")
	w.git(t, w.dir, "init", "-q", "--bare", fork)
	w.git(t, w.dev, "push", "-q", "--no-verify", "file://"+fork, "main", "feature")
	contrib := filepath.Join(w.dir, "contrib")
	w.git(t, w.dir, "clone", "-q", "file://"+fork, contrib)
	c := *w
	c.dev, c.qaCmd = contrib, "test ! -f broken.txt"
	c.sg(t, contrib, "install")
	c.git(t, contrib, "checkout", "-q", "-b", "stacked", "origin/feature")
	c.session(t, "stacked.txt")
	honest := c.git(t, contrib, "rev-parse", "HEAD")
	c.git(t, contrib, "push", "-q", "origin", "stacked")
	c.git(t, contrib, "checkout", "-q", "-b", "stacked-bad", honest)
	lazy := c.noHooks(t, "stacked-sneak.txt", "sneak a change onto a stacked pull request")
	c.git(t, contrib, "push", "-q", "--no-verify", "origin", "stacked-bad")
	if out := w.git(t, w.dir, "ls-remote", fork, "refs/sessiongate/records"); out == "" {
		t.Fatal("the contributor's push sent no records to the fork")
	}

	src, _ := filepath.Abs(filepath.Join("..", ".."))
	// A pull_request job: actions/checkout's default (refs/pull/N/merge,
	// depth 1), then the action as docs/team.md shows it.
	job := func(t *testing.T, n int, head string) (int, string) {
		merge := w.pullRef(t, itoa(n), fork, head)
		ci := w.checkout(t, "fork-stacked-"+itoa(n), true, merge, "+"+merge+":refs/remotes/pull/"+itoa(n)+"/merge")
		vals := map[string]string{
			"github.event.pull_request.head.repo.clone_url": "file://" + fork,
			"github.event.pull_request.head.repo.full_name": "contributor/project",
			"github.event.pull_request.base.sha":            w.main,
			"github.event.pull_request.head.sha":            head,
			"github.repository":                             "acme/project",
			"github.action_path":                            src,
			"github.action_ref":                             "main",
		}
		ev := prEvent(n, w.main, head)
		ev["repository"] = map[string]any{"default_branch": "main"}
		env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request",
			"GITHUB_EVENT_PATH="+w.event(t, filepath.Base(ci), ev), "GITHUB_BASE_REF=main", "GITHUB_HEAD_REF=stacked")
		code, out := replayAction(t, ci, env, vals, map[string]string{"version": "source"})
		t.Logf("exit %d\n%s", code, out)
		return code, out
	}
	matches := func(t *testing.T, out string, res ...string) {
		t.Helper()
		for _, re := range res {
			if !regexp.MustCompile(re).MatchString(out) {
				t.Errorf("output does not match %s:\n%s", re, out)
			}
		}
	}
	t.Run("honest: origin's branch and the fork's session both verify", func(t *testing.T) {
		code, out := job(t, 5, honest)
		if code != 0 {
			t.Fatalf("exit %d, want 0", code)
		}
		matches(t, out, `(?m)^OK .* add work1\.txt`, `(?m)^OK .* add stacked\.txt`)
	})
	t.Run("lazy: a hooks-off commit on the same stack fails", func(t *testing.T) {
		code, out := job(t, 6, lazy)
		if code != 1 {
			t.Fatalf("exit %d, want 1", code)
		}
		matches(t, out, `(?m)^FAIL .* sneak a change onto a stacked pull request`, `(?m)^OK .* add stacked\.txt`)
	})
}

// TestR63H362MoreCheckoutShapes (helper 362): shapes the checkout table
// did not build, each with the honest branch (exit 0) and the hooks-off
// one (exit 1, naming the commit): a GitHub push of an annotated tag
// (the event's after is the tag object, not the commit), a worktree of a
// runner's mirror cache (Buildkite), and the repository checked out as a
// superproject's submodule (a gitfile .git). Held on the code as found.
func TestR63H362MoreCheckoutShapes(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	const recs = "+refs/sessiongate/records:refs/sessiongate/records"
	sneak := []string{`(?m)^FAIL .* sneak a change`}
	for _, c := range []struct {
		name, tip string
		code      int
		want      []string
	}{{"honest", w.work2, 0, []string{`(?m)^OK .* add work2\.txt`}}, {"hooks-off", w.notrailer, 1, sneak}} {
		t.Run("annotated tag push, "+c.name, func(t *testing.T) {
			tag := "v-" + c.name
			w.git(t, w.dev, "tag", "-a", "-m", "release "+c.name, tag, c.tip)
			w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "refs/tags/"+tag)
			obj := w.git(t, w.dev, "rev-parse", tag)
			ci := w.checkout(t, "atag-"+c.name, true, c.tip, "+refs/tags/"+tag+":refs/tags/"+tag, recs)
			ev := pushEvent(zero40, obj, "refs/tags/"+tag)
			env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
				"GITHUB_EVENT_PATH="+w.event(t, "atag-"+c.name, ev), "GITHUB_REF=refs/tags/"+tag, "GITHUB_REF_TYPE=tag", "GITHUB_SHA="+c.tip)
			verifyWants(t, ci, env, nil, c.code, c.want)
		})
		t.Run("worktree of a mirror cache, "+c.name, func(t *testing.T) {
			cache := filepath.Join(w.dir, "cache-"+c.name+".git")
			w.git(t, w.dir, "clone", "-q", "--mirror", w.remote, cache)
			wt := filepath.Join(w.dir, "wt-"+c.name)
			w.git(t, cache, "worktree", "add", "-q", "--detach", wt, c.tip)
			env := append(append([]string{}, w.env...), "BUILDKITE=true", "BUILDKITE_COMMIT="+c.tip,
				"BUILDKITE_BRANCH=topic", "BUILDKITE_PIPELINE_DEFAULT_BRANCH=main")
			verifyWants(t, wt, env, nil, c.code, c.want)
		})
		t.Run("a superproject's submodule, "+c.name, func(t *testing.T) {
			super := filepath.Join(w.dir, "super-"+c.name)
			w.git(t, w.dir, "init", "-q", super)
			w.git(t, super, "-c", "protocol.file.allow=always", "submodule", "add", "-q", "file://"+w.remote, "sub")
			sub := filepath.Join(super, "sub")
			w.git(t, sub, "fetch", "-q", "origin", c.tip, recs)
			w.git(t, sub, "checkout", "-q", "--detach", c.tip)
			verifyWants(t, sub, append([]string{}, w.env...), []string{"origin/main.." + c.tip}, c.code, c.want)
		})
	}
}
