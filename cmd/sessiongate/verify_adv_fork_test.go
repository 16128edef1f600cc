package main

import (
	"path/filepath"
	"testing"
)

// TestVerifyAdvCIForkMerged: a pull request from a fork, merged on GitHub,
// then the push to main that the merge makes. The contributor's pre-push
// sent the session records to the fork (docs/team.md, "Pull requests from
// forks"); the pull request's own run fetched them from there and passed.
// The push to main runs on origin, whose records ref never got them, so
// the merged commits fail: an honest contributor's merge turned main red,
// and the report accused the records ref of being "moved back or deleted"
// (RECORDS_REWOUND) with no word of the fork (found round 21, by playing
// the shape with real git; the old code printed no fork hint). The report
// now names the pull request, the fork's owner and the step that brings
// the records over; with that step done (the documented recipe, run here
// as a maintainer would), the push passes. A fork's hooks-off commit still
// fails with the records brought over.
func TestVerifyAdvCIForkMerged(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	w.qaCmd = "test ! -f broken.txt" // main's QA command (newCIWorld ends on bad-qa's)
	fork := "file://" + w.fork
	w.git(t, w.dir, "clone", "-q", "--mirror", w.remote, w.fork)
	// The contributor works in a clone of the fork: its pushes, and the
	// records its pre-push sends, go to the fork.
	w.git(t, w.dev, "remote", "set-url", "origin", fork)
	w.git(t, w.dev, "checkout", "-q", "-b", "contrib", w.main)
	w.session(t, "fork1.txt", "fork2.txt")
	honest := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "origin", "contrib")
	w.git(t, w.dev, "checkout", "-q", "-b", "contrib-bad", honest)
	lazy := w.noHooks(t, "fork-sneak.txt", "sneak a change in through a fork")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "contrib-bad")
	if out := w.git(t, w.remote, "for-each-ref", "refs/sessiongate/"); out == "" {
		t.Fatal("origin has no records ref")
	}

	// GitHub merges pull request n ("Create a merge commit") onto origin's
	// main and pushes it: refs/pull/N/head is the fork's head.
	merge := func(t *testing.T, n, head, from string) (before, after string) {
		gh := filepath.Join(w.dir, "github-merge-"+n)
		w.git(t, w.dir, "clone", "-q", w.remote, gh)
		before = w.git(t, gh, "rev-parse", "HEAD")
		w.git(t, gh, "fetch", "-q", fork, head)
		w.git(t, gh, "push", "-q", "origin", head+":refs/pull/"+n+"/head")
		w.git(t, gh, "-c", "user.name=GitHub", "-c", "user.email=noreply@github.com", "-c", "core.hooksPath=/dev/null",
			"merge", "-q", "--no-ff", "-m", "Merge pull request #"+n+" from contrib/"+from, head)
		w.git(t, gh, "-c", "core.hooksPath=/dev/null", "push", "-q", "origin", "HEAD:refs/heads/main")
		return before, w.git(t, gh, "rev-parse", "HEAD")
	}
	// GitHub squashes pull request n ("Squash and merge") onto main.
	squash := func(t *testing.T, n, head string) (before, after string) {
		gh := filepath.Join(w.dir, "github-squash-"+n)
		w.git(t, w.dir, "clone", "-q", w.remote, gh)
		before = w.git(t, gh, "rev-parse", "HEAD")
		w.git(t, gh, "fetch", "-q", fork, head)
		w.git(t, gh, "push", "-q", "origin", head+":refs/pull/"+n+"/head")
		w.git(t, gh, "-c", "core.hooksPath=/dev/null", "merge", "-q", "--squash", head)
		w.git(t, gh, "-c", "user.name=GitHub", "-c", "user.email=noreply@github.com", "-c", "core.hooksPath=/dev/null",
			"commit", "-q", "-m", "Fork work (#"+n+")")
		w.git(t, gh, "-c", "core.hooksPath=/dev/null", "push", "-q", "origin", "HEAD:refs/heads/main")
		return before, w.git(t, gh, "rev-parse", "HEAD")
	}
	// The documented maintainer step: bring the fork's records to origin.
	bringRecords := func(t *testing.T, name string) {
		maint := filepath.Join(w.dir, name)
		w.git(t, w.dir, "clone", "-q", w.remote, maint)
		w.sg(t, maint, "records", "pull", fork)
		w.sg(t, maint, "records", "push", "origin")
	}
	// The push's CI job: actions/checkout's default (depth 1, main alone),
	// then the action's records fetch from origin (a push event names no fork).
	pushJob := func(t *testing.T, name, before, after string, code int, want []string) {
		ci := w.checkout(t, name, true, after, "+"+after+":refs/remotes/origin/main", "+refs/sessiongate/records:refs/sessiongate/records")
		env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
			"GITHUB_EVENT_PATH="+w.event(t, name, pushEvent(before, after, "refs/heads/main")), "GITHUB_REF=refs/heads/main", "GITHUB_SHA="+after)
		verifyWants(t, ci, env, nil, code, want)
	}

	before, after := merge(t, "1", honest, "contrib")
	t.Run("records left on the fork: fails, naming the pull request and the step", func(t *testing.T) {
		pushJob(t, "fork-push-1", before, after, 1, []string{
			`(?m)^FAIL .* add fork1\.txt`,
			`pull request #1 \(merged by [0-9a-f]{12} from contrib/contrib\)`,
			`sessiongate records pull <the fork's URL> && sessiongate records push`,
		})
	})
	t.Run("honest: the maintainer brought the fork's records over", func(t *testing.T) {
		bringRecords(t, "maintainer-1")
		pushJob(t, "fork-push-2", before, after, 0, []string{`(?m)^OK .* add fork1\.txt`, `(?m)^OK .* add fork2\.txt`, `(?m)^OK .* Merge pull request #1`})
	})
	// "Squash and merge" of a second fork pull request on top.
	w.git(t, w.dev, "checkout", "-q", "-b", "contrib-squash", honest)
	w.session(t, "fork3.txt", "fork4.txt")
	squashHead := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "origin", "contrib-squash")
	before, after = squash(t, "3", squashHead)
	t.Run("squash, records left on the fork: fails, naming the pull request and the step", func(t *testing.T) {
		pushJob(t, "fork-squash-1", before, after, 1, []string{
			`(?m)^FAIL .* Fork work \(#3\)`,
			`pull request #3 \(squashed into [0-9a-f]{12}\)`,
			`sessiongate records pull <the fork's URL> && sessiongate records push`,
		})
	})
	t.Run("squash, honest: the maintainer brought the fork's records over", func(t *testing.T) {
		bringRecords(t, "maintainer-squash")
		pushJob(t, "fork-squash-2", before, after, 0, []string{`(?m)^OK .* Fork work \(#3\)`, `GitHub's squash of pull request #3`})
	})
	before, after = merge(t, "2", lazy, "contrib-bad")
	t.Run("lazy: a fork's hooks-off commit fails with the records over", func(t *testing.T) {
		bringRecords(t, "maintainer-2")
		pushJob(t, "fork-push-3", before, after, 1, []string{`(?m)^FAIL .* sneak a change in through a fork`})
	})
}
