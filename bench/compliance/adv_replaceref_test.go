package compliance_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// Issue 25: the local gates read what git really holds. Each route below
// made sessiongate's own git (the hooks, `session advance`, `session end`)
// read another history than the commits. The two replace routes ended
// COMPLETE: clean locally on the code before gitenv (verify, which turns
// replace refs off, failed them in CI): the QA gate compared the test
// script with the replaced start and saw no change. The two graft routes
// held before too (the post-commit hook records the BYPASS before the
// graft is written); they stay here so the fast in-process ancestry walk,
// which now trusts the objects' parents whatever grafts say, keeps them
// closed.

// weakenAndCommit breaks greet.sh, puts `exit 0` first in scripts/test.sh
// (QA_VALIDATION's command) and commits both through the hooks.
func (w *world) weakenAndCommit() {
	w.t.Helper()
	w.write("scripts/greet.sh", "#!/bin/sh\necho \"hi${1:+ $1}\"\n") // breaks "hello"
	w.write("scripts/test.sh", strings.Replace(w.read("scripts/test.sh"), "#!/bin/sh\n", "#!/bin/sh\nexit 0\n", 1))
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
		w.t.Fatalf("set-up: the commit was refused (the route starts after it): %s", r.text())
	}
}

// fakeStart is a commit with the start's parents and HEAD's tree: read in
// place of the start, the session changed nothing.
func (w *world) fakeStart() string {
	w.t.Helper()
	args := []string{"commit-tree", "HEAD^{tree}", "-m", "start"}
	for _, p := range strings.Fields(w.git("log", "-1", "--format=%P", w.base)) {
		args = append(args, "-p", p)
	}
	return w.git(args...)
}

// hooksOffUnderGated commits the work with the hooks off, then a gated
// commit on top of it: grafted onto the start, the gated one hides the
// hooks-off one from start..HEAD (its change still in the tree).
func (w *world) hooksOffUnderGated() {
	w.t.Helper()
	w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
	w.git("add", "-A")
	w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "feat(scripts): greet takes an optional name")
	w.write("README.md", "# greet\n\nPrints a greeting.\n")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs: say what greet does"); r.code != 0 {
		w.t.Skipf("the gated commit on a hooks-off one was refused (the route is closed there): %s", r.text())
	}
}

func TestAdvReplacedHistory(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		route func(w *world)
		why   string // what the end or verify names
	}{
		{"git replace START FAKE", func(w *world) {
			w.weakenAndCommit()
			w.git("replace", w.base, w.fakeStart())
		}, "scripts/test.sh"},
		{"replace ref under GIT_REPLACE_REF_BASE exported in the shell", func(w *world) {
			w.weakenAndCommit()
			w.env = append(w.env, "GIT_REPLACE_REF_BASE=refs/notes-cache/")
			w.git("replace", w.base, w.fakeStart())
			if w.git("for-each-ref", "refs/replace/") != "" {
				w.t.Fatal("set-up: the replacement went under refs/replace/")
			}
		}, "scripts/test.sh"},
		{"hooks-off commit hidden by a grafts file", func(w *world) {
			w.hooksOffUnderGated()
			w.write(".git/info/grafts", w.git("rev-parse", "HEAD")+" "+w.base+"\n")
		}, "BYPASS"},
		{"hooks-off commit hidden by git replace --graft", func(w *world) {
			w.hooksOffUnderGated()
			w.git("replace", "--graft", "HEAD", w.base)
		}, "BYPASS"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.deviate()
			tt.route(w)
			_, said := w.advEndPhases(advEnd{})
			if strings.Contains(said, "COMPLETE: clean") {
				t.Errorf("route gets through locally: %s; the session ended COMPLETE: clean\n%s", tt.name, said)
			} else if !strings.Contains(said, tt.why) {
				t.Errorf("not clean, but %s is not named:\n%s", tt.why, said)
			}
		})
	}
}

// TestAdvHonestLinkedWorktree: the honest session in a `git worktree add`
// work tree (git runs its hooks with GIT_DIR at .git/worktrees/<name>,
// which gitenv drops: git finds the same dir from the work tree), in a
// clone that keeps a replace ref of its own (old history grafted under
// its first commit, as a repository cut from a larger one does). It must
// end COMPLETE, clean, verify passing.
func TestAdvHonestLinkedWorktree(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	old := w.git("commit-tree", w.git("mktree"), "-m", "old history")
	first := w.git("rev-list", "--max-parents=0", "HEAD")
	w.git("replace", "--graft", first, old)
	wt := filepath.Join(t.TempDir(), "wt")
	w.git("worktree", "add", "-q", "-b", "feat/greet-wt", wt)
	w.root = wt
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	if clean, said := w.advEndPhases(advEnd{}); !clean {
		t.Errorf("an honest session in a linked worktree with a replace ref did not end clean with a passing verify (a false block)\n%s", said)
	}
}
