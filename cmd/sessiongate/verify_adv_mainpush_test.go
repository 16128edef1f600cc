package main

import (
	"path/filepath"
	"regexp"
	"testing"
)

// TestVerifyAdvCIMainPushOverFailed: a second direct push to the default
// branch over a failed first one. The agent pushes a hooks-off commit to
// main (its run fails), then an honest session's commit on top: the
// second run checked before..after, its own commit alone, and put a green
// status on main's tip (exit 0 on the old code, GitHub and GitLab, shallow
// and full checkouts). A push to the default branch now re-checks the
// last --recheck first-parent commits below before too. Honest twins: a
// sequence of honest pushes stays green, shallow or full; --recheck 0 is
// the old before..after, named in the report.
func TestVerifyAdvCIMainPushOverFailed(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	// The lazy agent's main: a hooks-off commit, then honest work on it.
	w.git(t, w.dev, "checkout", "-q", "-b", "lazy-main", w.main)
	w.qaCmd = "test ! -f broken.txt" // main's QA command
	sneak := w.noHooks(t, "sneak-main.txt", "sneak a change onto main")
	w.session(t, "after-main.txt")
	lazyTip := w.git(t, w.dev, "rev-parse", "HEAD")
	// An honest team's main: two sessions, pushed one after the other.
	w.git(t, w.dev, "checkout", "-q", "-b", "honest-main", w.main)
	w.session(t, "first.txt")
	first := w.git(t, w.dev, "rev-parse", "HEAD")
	w.session(t, "second.txt")
	second := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "lazy-main", "honest-main", "refs/sessiongate/records")
	w.git(t, w.dev, "checkout", "-q", "feature")
	for _, c := range []struct {
		name, branch, before, after string
		extra                       []string
		code                        int
		want                        []string
	}{
		{"a second push over a failed one", "lazy-main", sneak, lazyTip, nil, 1,
			[]string{`(?m)^FAIL .* sneak a change onto main`, `on the default branch before this push`, `re-checked the (last \d+|whole) first-parent`}},
		{"honest twin: a second honest push", "honest-main", first, second, nil, 0,
			[]string{`(?m)^OK .* add second\.txt`, `re-checked the (last \d+|whole) first-parent .* of main .*: 1 commit\(s\), 0 fail`}},
		{"--recheck 0: before..after alone, as before", "lazy-main", sneak, lazyTip, []string{"--recheck", "0"}, 0,
			[]string{`(?m)^OK .* add after-main\.txt`}},
	} {
		for _, ci := range []string{"github", "gitlab"} {
			for _, shallow := range []bool{true, false} {
				shape := "full"
				if shallow {
					shape = "depth 1"
				}
				t.Run(ci+", "+shape+": "+c.name, func(t *testing.T) {
					dir := w.checkout(t, "mainpush", shallow, c.after, "+refs/heads/"+c.branch+":refs/remotes/origin/main", recsSpec)
					env := append([]string{}, w.env...)
					if ci == "github" {
						env = append(env, "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
							"GITHUB_EVENT_PATH="+w.event(t, filepath.Base(dir), pushEvent(c.before, c.after, "refs/heads/main")))
					} else {
						env = append(env, "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push", "CI_COMMIT_BRANCH=main",
							"CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA="+c.before, "CI_COMMIT_SHA="+c.after)
					}
					code, out, errb := sgBin(t, dir, env, append([]string{"verify"}, c.extra...)...)
					if code != c.code {
						t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errb)
					}
					for _, re := range c.want {
						if !regexp.MustCompile(re).MatchString(out) {
							t.Errorf("output does not match %s:\n%s%s", re, out, errb)
						}
					}
				})
			}
		}
	}
}
