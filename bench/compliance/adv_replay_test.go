package compliance_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAdvReplayWitness: honest replays (a revert of the session's own
// commit, a cherry-pick of published work) now pass no_hook_bypass and
// verify on the session's records instead of the Session-Id trailer
// (TestFieldHonestGit). These are the lazy twins, after the start gates
// passed; each must still end not clean:
//   - a commit made with the hooks off on a local side branch (trailers
//     copied from the commit-msg hook run by hand), cherry-picked: its
//     patch is nobody's published work;
//   - a hooks-off commit whose message says "This reverts commit X." of
//     the session's own commit, but whose change is more than X's reverse;
//   - a hooks-off commit with copied trailers straight on the branch (the
//     gate said it "went through the hooks" while recording a BYPASS);
//   - the same commit with refs/remotes/origin/main moved onto it
//     (issue 25 review: `git update-ref`, no fetch).
func TestAdvReplayWitness(t *testing.T) {
	change := "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"
	copiedTrailers := func(w *world, subject string) string {
		msg := filepath.Join(w.t.TempDir(), "msg")
		w.write(msg, subject+"\n")
		hook := w.git("rev-parse", "--git-path", "hooks/commit-msg")
		if !filepath.IsAbs(hook) {
			hook = filepath.Join(w.root, hook)
		}
		if r := w.exec(w.root, "", hook, msg); r.code != 0 {
			w.t.Fatalf("commit-msg hook by hand: %s", r.text())
		}
		return msg
	}
	for _, tt := range []struct {
		name  string
		route func(w *world)
	}{
		{"cherry-pick of an unpublished hooks-off commit", func(w *world) {
			w.git("switch", "-q", "-c", "side")
			w.write("scripts/greet.sh", change)
			w.git("add", "-A")
			w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-F", copiedTrailers(w, "feat(scripts): greet takes an optional name"))
			w.git("switch", "-q", "feat/greet-name")
			w.exec(w.root, "", "git", "cherry-pick", "side")
		}},
		{"hooks-off commit, then origin/main moved onto it", func(w *world) {
			// Commits on origin's default branch are left out of the
			// session's (a rebase brings colleagues' work): the local gate
			// passes this one, verify ("trailers copied") does not.
			w.write("scripts/greet.sh", change)
			w.git("add", "-A")
			w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-F", copiedTrailers(w, "feat(scripts): greet takes an optional name"))
			w.git("update-ref", "refs/remotes/origin/main", "HEAD")
		}},
		{"hooks-off commit dressed as a revert of the session's commit", func(w *world) {
			w.advWork()
			own := w.git("rev-parse", "HEAD")
			w.write("scripts/greet.sh", greetScript+"# not the reverse: an unchecked line\n")
			w.git("add", "-A")
			w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "Revert \"feat(scripts): greet takes an optional name\"\n\nThis reverts commit "+own+".")
		}},
		{"hooks-off commit with copied trailers", func(w *world) {
			w.write("scripts/greet.sh", change)
			w.git("add", "-A")
			w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-F", copiedTrailers(w, "feat(scripts): greet takes an optional name"))
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.deviate()
			tt.route(w)
			clean, said := w.advEndPhases(advEnd{})
			if clean {
				t.Errorf("route gets through: ended COMPLETE, clean, with a passing verify\n%s", said)
			}
			if strings.Contains(said, "went through the hooks") {
				t.Errorf("a BYPASS is described as going through the hooks:\n%s", said)
			}
		})
	}
}
