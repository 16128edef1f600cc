package compliance_test

import (
	"strings"
	"testing"
)

// TestAdvHonestMergeOfMain: an honest session brings its branch up to date
// with main mid-session (`git merge main`: a teammate's commit landed
// there), as a person would before opening a pull request. git merge runs
// commit-msg (the merge commit carries the session's trailers) but not
// pre-commit or post-commit (post-merge instead), so the session never
// records the merge commit. verify over what a pull request would check
// (main's tip..HEAD) must pass: a false block otherwise.
func TestAdvHonestMergeOfMain(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()

	// A teammate's commit on main (a person's, through the hooks).
	w.git("switch", "-q", "main")
	w.write("README.md", "# greet\n\nPrints a greeting.\n")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs: describe greet"); r.code != 0 {
		t.Fatalf("teammate's commit: %s", r.text())
	}
	mainTip := w.git("rev-parse", "HEAD")
	w.git("switch", "-q", "feat/greet-name")
	if r := w.exec(w.root, "", "git", "merge", "--no-edit", "main"); r.code != 0 {
		t.Fatalf("git merge main refused: %s", r.text())
	}
	w.base = mainTip // what the pull request's verify checks
	clean, said := w.advEndPhases(advEnd{})
	if !clean {
		t.Errorf("false block: an honest session that merged main mid-session did not end clean with a passing verify over main..HEAD\n%s", said)
	}
	if msg := w.git("log", "-1", "--format=%B", "HEAD^"); !strings.Contains(msg, "Session-Id") {
		t.Logf("the merge commit carries no Session-Id trailer: %q", msg)
	}
}
