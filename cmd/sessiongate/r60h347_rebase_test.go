package main

import (
	"strings"
	"testing"
)

// TestR60H347RebaseAfterEndSaysMerge: a branch rebased, after its session
// ended, onto a main that changed the same file (no conflict: other
// lines) fails closed in verify (docs/policy.md). The failure named only
// "not a rewrite of its work, or a rewrite that changed it" and a hint to
// fetch the originals of a GitHub rebase merge, not the honest way out:
// merge the base in a session. A rebase onto a main that changed other
// files still passes as a rewrite of checked work.
func TestR60H347RebaseAfterEndSaysMerge(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	w.git(t, w.dev, "checkout", "-q", "main")
	w.qaCmd = "test ! -f broken.txt"
	lines := strings.Repeat("line\n", 12)
	w.sessionWith(t, func() {
		w.writeFile(t, "shared.txt", lines)
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "add shared.txt")
	})
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "main")
	base := w.git(t, w.dev, "rev-parse", "HEAD")
	w.sessionWith(t, func() {
		w.writeFile(t, "shared.txt", "first line by main\n"+strings.Repeat("line\n", 11))
		w.writeFile(t, "other.txt", "main's\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "main edits shared.txt")
	})
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "main")
	main2 := w.git(t, w.dev, "rev-parse", "HEAD")
	topic := func(name, file, content string) string {
		w.git(t, w.dev, "checkout", "-q", "-b", name, base)
		w.sessionWith(t, func() {
			w.writeFile(t, file, content)
			w.git(t, w.dev, "add", "-A")
			w.git(t, w.dev, "commit", "-q", "-m", "edit "+file)
		})
		// The session has ended: the rebase is made outside it.
		w.git(t, w.dev, "rebase", "-q", main2)
		tip := w.git(t, w.dev, "rev-parse", "HEAD")
		w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "HEAD:refs/heads/"+name)
		w.git(t, w.dev, "push", "-q", "--no-verify", "-f", "origin", "refs/sessiongate/records")
		return tip
	}
	sameFile := topic("same-file", "shared.txt", strings.Repeat("line\n", 11)+"last line by topic\n")
	otherFile := topic("other-file", "topic.txt", "topic's\n")
	for i, c := range []struct {
		name string
		tip  string
		code int
		want []string
	}{
		{"rebased onto a main that changed the same file", sameFile, 1,
			[]string{`(?m)^FAIL .* edit shared\.txt\n(\s+.*\n)*?\s+no commit session .* has this change.*merge the base in a session`}},
		{"rebased onto a main that changed other files", otherFile, 0,
			[]string{`(?m)^OK .* edit topic\.txt\n\s+a rewrite of checked work`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w.git(t, w.remote, "update-ref", "refs/heads/main", c.tip)
			ci := w.gitlabBuild(t, "h347-"+string(rune('a'+i)), c.tip, 0, "+refs/heads/main:refs/remotes/origin/main",
				"+refs/sessiongate/records:refs/sessiongate/records")
			env := append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push",
				"CI_COMMIT_BRANCH=main", "CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA="+main2, "CI_COMMIT_SHA="+c.tip)
			verifyWants(t, ci, env, nil, c.code, c.want)
		})
	}
}
