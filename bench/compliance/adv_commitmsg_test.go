package compliance_test

import (
	"path/filepath"
	"testing"
)

// advCommitGreet is the task's change to scripts/greet.sh.
const advCommitGreet = "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"

// advCommit commits everything as the agent would, through the hooks.
func (w *world) advCommit(msg string) {
	w.t.Helper()
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", msg); r.code != 0 {
		w.t.Fatalf("commit %q refused after the start gates passed: %s", msg, r.text())
	}
}

// TestAdvCommitMessages: v3.0's "Use conventional commits" (GIT_OPERATIONS'
// commit_message check). The lazy agent words its commits as it likes and
// still passes the check, three ways:
//   - `git commit -m "fixup! wip"`: a fixup!/squash!/amend! subject was
//     accepted whatever followed it, though no commit it fixes up exists;
//   - `git commit -m 'Revert "stuff"'`: likewise any Revert "...";
//   - `git switch -c side; git commit -m wip; git switch -; git merge
//     --no-ff side`: the check read HEAD's first-parent line only, so the
//     side branch's "wip" commit (the session's own, trailer and all) was
//     never read, and the merge is left out as git's.
//
// Each ended COMPLETE, clean, verify passing. Closed: a wrapper passes only
// around a conventional subject, and a commit off the first-parent line
// that carries the session's trailer is the session's to word.
func TestAdvCommitMessages(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		route func(w *world)
	}{
		{"fixup! of nothing", func(w *world) { w.advCommit("fixup! wip") }},
		{"Revert of nothing", func(w *world) { w.advCommit(`Revert "stuff"`) }},
		// Any word was a type (the spec allows types beyond feat and fix);
		// config-conventional, which teams check with, takes eleven.
		{"wip: as a type", func(w *world) { w.advCommit("wip: greet") }},
		{"wip behind a no-ff merge", func(w *world) {
			w.git("switch", "-q", "-c", "side")
			w.advCommit("wip")
			w.git("switch", "-q", "feat/greet-name")
			w.git("merge", "-q", "--no-ff", "-m", "Merge branch 'side' into feat/greet-name", "side")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.deviate()
			w.write("scripts/greet.sh", advCommitGreet)
			tt.route(w)
			if clean, said := w.advEndPhases(advEnd{}); clean {
				t.Errorf("route gets through: commits not in conventional form (%s); COMPLETE, clean, verify passing\n%s", tt.name, said)
			}
		})
	}
}

// TestAdvCommitMessagesHonest: config-conventional's types (with a scope,
// with !) and what git writes around conventional subjects stay clean: `git commit --fixup`, a real revert's message, the
// session's own side branch merged with --no-ff, and a person's commit on
// main ("Update README", no trailer, not conventional) merged in from
// origin, which is not the session's to word.
func TestAdvCommitMessagesHonest(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	// A person's commit lands on main meanwhile, from another clone.
	other := filepath.Join(filepath.Dir(w.root), "other")
	w.gitIn(filepath.Dir(w.root), "clone", "-q", filepath.Join(filepath.Dir(w.root), "origin.git"), other)
	w.write(filepath.Join(other, "NOTES.md"), "notes\n")
	w.gitIn(other, "add", "-A")
	w.gitIn(other, "commit", "-q", "-m", "Update README")
	w.gitIn(other, "push", "-q", "origin", "main")

	w.write("scripts/greet.sh", advCommitGreet)
	w.advCommit("feat(scripts): greet takes an optional name")
	w.write("README.md", "# greet\n\nsh scripts/greet.sh NAME\n")
	w.advCommit("docs: usage")
	// config-conventional's other types, a scope with a slash, and !.
	w.write("docs/usage.md", "# Usage\n\nsh scripts/greet.sh NAME\n")
	w.advCommit("build(docs/usage): a usage page")
	w.write("README.md", "# greet\n\nsh scripts/greet.sh [NAME]\n")
	w.advCommit("chore!: usage names the argument optional")
	// git revert's own commit skips the commit-msg hook (no trailer: a
	// bypass to no_hook_bypass); --no-commit and a commit keep its message.
	w.git("revert", "--no-commit", "HEAD")
	if r := w.exec(w.root, "", "git", "commit", "-q", "--no-edit"); r.code != 0 {
		t.Fatalf("the revert's commit refused: %s", r.text())
	}
	w.write("scripts/greet.sh", advCommitGreet+"# says hello\n")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "--fixup=HEAD~2"); r.code != 0 {
		t.Fatalf("git commit --fixup refused: %s", r.text())
	}
	w.git("switch", "-q", "-c", "side")
	w.write("scripts/greet.sh", advCommitGreet)
	w.advCommit("refactor(scripts): drop the comment")
	w.git("switch", "-q", "feat/greet-name")
	w.git("merge", "-q", "--no-ff", "--no-edit", "side")
	w.git("pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
	// CI verifies what the branch adds to main: the person's commit, made
	// on a clone without the hooks, is main's, not the branch's.
	w.base = w.git("rev-parse", "origin/main")
	if clean, said := w.advEndPhases(advEnd{}); !clean {
		t.Errorf("an honest session with git's fixup, revert and merge commits did not end clean with a passing verify (a false block)\n%s", said)
	}
}
