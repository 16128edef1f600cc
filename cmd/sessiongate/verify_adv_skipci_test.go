package main

import (
	"path/filepath"
	"regexp"
	"testing"
)

// TestVerifyAdvCISkippedPush: a push whose head commit says "[skip ci]"
// starts no CI run, so nothing checked its commits. The lazy agent pushes
// a hooks-off commit to main under "[skip ci]", buries it under more
// skipped pushes (or one honest commit), then pushes an honest session:
// the run re-checked --recheck commits below before and passed (exit 0 on
// the old code, GitHub and GitLab, shallow and full). The window now
// reaches --recheck commits below each skip-marked commit it holds.
// Honest twin: a person's "[skip ci]" docs session, then an honest push,
// stays green; the report says how far the window reached.
func TestVerifyAdvCISkippedPush(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	w.qaCmd = "test ! -f broken.txt" // main's QA command (newCIWorld ends on bad-qa's)
	skipped := func(f, msg string) string {
		w.sessionWith(t, func() {
			w.write(t, f)
			w.git(t, w.dev, "add", "-A")
			w.git(t, w.dev, "commit", "-q", "-m", msg)
		})
		return w.git(t, w.dev, "rev-parse", "HEAD")
	}
	// One skipped push: the hooks-off commit and an honest one marked.
	w.git(t, w.dev, "checkout", "-q", "-b", "lazy-one", w.main)
	w.noHooks(t, "sneak-one.txt", "sneak one onto main")
	oneBefore := skipped("one-a.txt", "add one-a [skip ci]")
	w.session(t, "one-b.txt")
	oneAfter := w.git(t, w.dev, "rev-parse", "HEAD")
	// A chain of skipped pushes, one commit each, over the hooks-off one.
	w.git(t, w.dev, "checkout", "-q", "-b", "lazy-chain", w.main)
	w.noHooks(t, "sneak-chain.txt", "sneak chain onto main\n\nskip-checks: true")
	skipped("chain-a.txt", "add chain-a [ci skip]")
	chainBefore := skipped("chain-b.txt", "add chain-b [SKIP CI]")
	w.session(t, "chain-c.txt")
	chainAfter := w.git(t, w.dev, "rev-parse", "HEAD")
	// The honest team: a docs session pushed with [skip ci], then a push.
	w.git(t, w.dev, "checkout", "-q", "-b", "honest-skip", w.main)
	w.session(t, "first.txt")
	docs := skipped("docs.txt", "docs: typo [skip ci]")
	w.session(t, "after-docs.txt")
	honestAfter := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "lazy-one", "lazy-chain", "honest-skip", "refs/sessiongate/records")
	w.git(t, w.dev, "checkout", "-q", "feature")
	for _, c := range []struct {
		name, branch, before, after string
		code                        int
		want                        []string
	}{
		{"a hooks-off commit in a skipped push", "lazy-one", oneBefore, oneAfter, 1,
			[]string{`(?m)^FAIL .* sneak one onto main`, `on the default branch before this push`, `whose message says "\[skip ci\]"`}},
		{"a hooks-off commit under a chain of skipped pushes", "lazy-chain", chainBefore, chainAfter, 1,
			[]string{`(?m)^FAIL .* sneak chain onto main`, `on the default branch before this push`}},
		{"honest twin: a [skip ci] docs push, then a push", "honest-skip", docs, honestAfter, 0,
			[]string{`(?m)^OK .* add after-docs\.txt`, `re-checked the last 2 first-parent .*reaching 1 below .*"\[skip ci\]".*: 2 commit\(s\), 0 fail`}},
	} {
		for _, ci := range []string{"github", "gitlab"} {
			for _, shallow := range []bool{true, false} {
				shape := "full"
				if shallow {
					shape = "depth 1"
				}
				t.Run(ci+", "+shape+": "+c.name, func(t *testing.T) {
					dir := w.checkout(t, "skipci", shallow, c.after, "+refs/heads/"+c.branch+":refs/remotes/origin/main", recsSpec)
					env := append([]string{}, w.env...)
					if ci == "github" {
						env = append(env, "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
							"GITHUB_EVENT_PATH="+w.event(t, filepath.Base(dir), pushEvent(c.before, c.after, "refs/heads/main")))
					} else {
						env = append(env, "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push", "CI_COMMIT_BRANCH=main",
							"CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA="+c.before, "CI_COMMIT_SHA="+c.after)
					}
					// --recheck 1 stands for the default 20: a skipped push
					// deeper than the window needs 21 sessions otherwise.
					code, out, errb := sgBin(t, dir, env, "verify", "--recheck", "1")
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
