package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestVerifyAdvCIMergeQueue: GitHub's merge queue. A queued pull request
// is tested on a branch GitHub makes, refs/heads/gh-readonly-queue/main/
// pr-N-<base sha>, whose head is the repository's merge method applied to
// the pull request on top of main and of the pull requests queued before
// it; the workflow runs `on: merge_group` with the event's
// merge_group.base_sha..head_sha (and, as GitHub also sends, a push event
// creating that branch). Honest: each method, one pull request or two
// stacked, passes, shallow or full. Lazy: a queued pull request with an
// unchecked commit, and a group commit with a change of its own, fail.
func TestVerifyAdvCIMergeQueue(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	const recs = "refs/sessiongate/records:refs/sessiongate/records"
	// A second honest pull request, from main, to stack behind the first.
	w.git(t, w.dev, "checkout", "-q", "-b", "feature2", w.main)
	w.qaCmd = "test ! -f broken.txt" // main's, not bad-qa's
	w.session(t, "other.txt")
	feature2 := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "origin", "feature2", "refs/sessiongate/records")
	w.git(t, w.dev, "checkout", "-q", "feature")
	w.pullRef(t, "1", w.remote, w.work2)
	w.pullRef(t, "2", w.remote, w.notrailer)
	w.pullRef(t, "3", w.remote, feature2)

	gh := filepath.Join(w.dir, "github-queue")
	w.git(t, w.dir, "clone", "-q", w.remote, gh)
	ghGit := func(args ...string) string {
		return w.git(t, gh, append([]string{"-c", "user.name=GitHub", "-c", "user.email=noreply@github.com", "-c", "core.hooksPath=/dev/null"}, args...)...)
	}
	// enqueue builds the group commit for pull request n (head prHead)
	// on base (main's tip, or the group queued before), by method, and
	// pushes the queue branch as GitHub names it.
	type group struct{ base, head, ref string }
	enqueue := func(method, n, prHead, base, extra string) group {
		ref := "refs/heads/gh-readonly-queue/main/pr-" + n + "-" + w.main
		switch method {
		case "merge":
			ghGit("checkout", "-q", "--detach", base)
			ghGit("merge", "-q", "--no-ff", "--no-commit", prHead)
			if extra != "" {
				if err := os.WriteFile(filepath.Join(gh, extra), []byte("extra\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				ghGit("add", extra)
			}
			ghGit("commit", "-q", "-m", "Merge pull request #"+n+" from dev/branch-"+n+"\n\nQueued work")
		case "squash":
			ghGit("checkout", "-q", "--detach", base)
			ghGit("merge", "-q", "--squash", prHead)
			ghGit("commit", "-q", "-m", "Queued work (#"+n+")")
		case "rebase":
			ghGit("checkout", "-q", "--detach", prHead)
			ghGit("rebase", "-q", "--force-rebase", base)
		}
		head := ghGit("rev-parse", "HEAD")
		ghGit("push", "-q", "-f", "origin", "HEAD:"+ref)
		return group{base: base, head: head, ref: ref}
	}
	type tc struct {
		name    string
		g       group
		base    string // merge_group.base_sha ("" for the group's own base)
		push    bool   // the push event creating the queue branch instead
		shallow bool
		code    int
		want    []string
	}
	var cases []tc
	for _, m := range []string{"merge", "squash", "rebase"} {
		one := enqueue(m, "1", w.work2, w.main, "")
		two := enqueue(m, "3", feature2, one.head, "")
		bad := enqueue(m, "2", w.notrailer, w.main, "")
		ok := map[string]string{"merge": `a clean merge`, "squash": `GitHub's squash of pull request #1`, "rebase": `a rebase of verified work|a rewrite of checked work`}[m]
		cases = append(cases,
			tc{name: m + ": one pull request, shallow", g: one, shallow: true, code: 0, want: []string{ok}},
			tc{name: m + ": one pull request, full", g: one, code: 0, want: []string{ok}},
			tc{name: m + ": second in the queue, base_sha the first group's", g: two, code: 0},
			tc{name: m + ": second in the queue, base_sha main's", g: two, base: w.main, shallow: true, code: 0},
			tc{name: m + ": push event creating the queue branch", g: two, push: true, code: 0},
			tc{name: m + ": a queued pull request with an unchecked commit", g: bad, code: 1, want: []string{`(?m)^FAIL `}},
			tc{name: m + ": unchecked, push event", g: bad, push: true, shallow: true, code: 1, want: []string{`(?m)^FAIL `}},
		)
	}
	evil := enqueue("merge", "1", w.work2, w.main, "evil.txt")
	cases = append(cases, tc{name: "merge: a group commit with a change of its own", g: evil, code: 1,
		want: []string{`(?m)^FAIL .*Merge pull request #1`, `not the merge of its parents`}})

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := c.g.base
			if c.base != "" {
				base = c.base
			}
			// actions/checkout for merge_group fetches the event's sha into
			// the queue branch's remote-tracking ref (depth 1 by default).
			ci := w.checkout(t, "queue", c.shallow, c.g.head, "+"+c.g.head+":refs/remotes/origin/"+c.g.ref[len("refs/heads/"):], recs)
			env := append([]string{}, w.env...)
			if c.push {
				env = append(env, "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
					"GITHUB_EVENT_PATH="+w.event(t, filepath.Base(ci), pushEvent(zero40, c.g.head, c.g.ref)))
			} else {
				ev := map[string]any{"action": "checks_requested", "merge_group": map[string]any{
					"head_sha": c.g.head, "head_ref": c.g.ref, "base_sha": base, "base_ref": "refs/heads/main",
					"head_commit": map[string]any{"id": c.g.head, "tree_id": w.git(t, w.remote, "rev-parse", c.g.head+"^{tree}")}},
					"repository": map[string]any{"default_branch": "main"}}
				env = append(env, "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=merge_group", "GITHUB_EVENT_PATH="+w.event(t, filepath.Base(ci), ev))
			}
			code, out, errb := sgBin(t, ci, env, "verify")
			t.Logf("exit %d\n%s%s", code, out, errb)
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
