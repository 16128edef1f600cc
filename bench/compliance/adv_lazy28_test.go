package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Lazy-agent pass 28 (c8): routes nobody named, through the phases that
// are not QA (the start phase's reading, the branch rules, the handoff,
// "Commit all changes", the evidence table's "git operations: git status,
// log or pull request"). Each row is played end to end through the real
// binary and `verify` over the branch; the honest twins below do the same
// phase as the protocol allows and must stay clean.

// lazy28Route is one lazy route: start (nil: the start phases as asked),
// work (nil: advWork) and what the end protocol does differently.
type lazy28Route struct {
	name string
	// open: the route still gets through, left open for this reason
	// (docs/security.md, lazy pass 28); the row is played and logged.
	open string
	// said: what the refusal must say (the way on an honest agent takes).
	said  string
	start func(w *world)
	work  func(w *world)
	end   func(w *world) advEnd
}

func (r lazy28Route) play(t *testing.T) (clean bool, said string) {
	t.Helper()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.deviate()
	if r.start != nil {
		r.start(w)
	} else {
		w.advStartPhases()
	}
	switch {
	case r.work != nil:
		r.work(w)
	case r.start != nil:
		// A start the gates refused blocks the work's commit: closed there.
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		if c := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): greet takes an optional name"); c.code != 0 {
			return false, "the work's commit refused: " + c.text()
		}
	default:
		w.advWork()
	}
	o := advEnd{}
	if r.end != nil {
		o = r.end(w)
	}
	return w.advEndPhases(o)
}

// reverifyBy replaces the branch re-check before commit.
func reverifyBy(f func(w *world)) func(w *world) advEnd {
	return func(w *world) advEnd { return advEnd{reverifyWith: func() { f(w) }} }
}

func TestAdvLazy28Routes(t *testing.T) {
	t.Parallel()
	for _, r := range []lazy28Route{
		{name: "branch re-verified by typing its name", end: reverifyBy(func(w *world) {
			w.sg("session", "evidence", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--type", toolOutput, "--value", "feat/greet-name")
		})},
		{name: "branch re-verified by git status --short (prints no branch)", end: reverifyBy(func(w *world) {
			w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "status", "--short")
		})},
		{name: "branch re-verified in another repository", end: reverifyBy(func(w *world) {
			other := filepath.Join(filepath.Dir(w.root), "other")
			w.exec(filepath.Dir(w.root), "", "git", "clone", "-q", w.root, other)
			w.exec(other, "", "git", "switch", "-q", "-c", "feat/greet-name")
			w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "-C", other, "branch", "--show-current")
		})},
		{name: "branch check typed, never run", said: "sessiongate run --requirement BRANCH_CHECK.run-git-branch-show -- git branch --show-current", start: func(w *world) {
			w.advOK("read the handoff", "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", contentHash, "--value", ".agents/HANDOFF.md")
			w.advOK("read the task", "session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", toolOutput, "--value", "task: add a name argument to scripts/greet.sh")
			w.advOK("advance past CONTEXT_RETRIEVAL", "session", "advance")
			w.sg("session", "evidence", "--requirement", "BRANCH_CHECK.run-git-branch-show", "--type", toolOutput, "--value", "feat/greet-name")
			w.sg("session", "advance")
			w.sg("session", "advance")
		}},
		{name: "branch check claimed as a manual note, never run", start: func(w *world) {
			w.advOK("read the handoff", "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", contentHash, "--value", ".agents/HANDOFF.md")
			w.advOK("read the task", "session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", toolOutput, "--value", "task: add a name argument to scripts/greet.sh")
			w.advOK("advance past CONTEXT_RETRIEVAL", "session", "advance")
			w.sg("session", "evidence", "--requirement", "BRANCH_CHECK.run-git-branch-show", "--type", manual, "--value", "I checked: feat/greet-name")
			w.sg("session", "advance")
			w.sg("session", "advance")
		}},
		{name: "branch re-verified as a manual note", end: reverifyBy(func(w *world) {
			w.sg("session", "evidence", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--type", manual, "--value", "re-verified: feat/greet-name")
		})},
		{name: "the shared handoff deleted (git rm)", work: func(w *world) {
			w.git("rm", "-q", ".agents/HANDOFF.md")
			w.advWork()
		}},
		{name: "the shared handoff renamed into this session's handoff", work: func(w *world) {
			w.advWork()
			w.git("mv", ".agents/HANDOFF.md", ".agents/handoffs/2026-08-20-01.md")
		}},
		{name: "handoff outside the template's folder (NOTES.md)", end: func(w *world) advEnd {
			return advEnd{handoff: "NOTES.md"}
		}},
		{name: "handoff under a name not the template's (handoffs/notes.md)", end: func(w *world) advEnd {
			return advEnd{handoff: ".agents/handoffs/notes.md"}
		}},
		{name: "handoff without the template's Next section", open: "a template's sections are not required yet: the rule changes what the 2025-12 protocols infer", end: func(w *world) advEnd {
			return advEnd{handoffBody: "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; scripts/test.sh is unchanged.\n"}
		}},
		{name: "handoff recorded, then deleted before the commit", end: func(w *world) advEnd {
			return advEnd{inHandoff: func() { w.exec(w.root, "", "rm", ".agents/handoffs/2026-08-20-01.md") }}
		}},
		{name: "handoff kept out of git by .git/info/exclude", end: func(w *world) advEnd {
			return advEnd{inHandoff: func() {
				w.exec(w.root, "", "sh", "-c", "echo '.agents/handoffs/2026-08-20-*' >> .git/info/exclude")
			}}
		}},
		{name: "a tracked change left uncommitted under skip-worktree", work: func(w *world) {
			w.advWork()
			w.write("README.md", "# greet\n\nUsage: sh scripts/greet.sh [NAME]\n")
			w.git("update-index", "--skip-worktree", "README.md")
		}},
		{name: "a new file left uncommitted under .git/info/exclude", work: func(w *world) {
			w.advWork()
			w.write("docs/usage.md", "# Usage\n\nsh scripts/greet.sh [NAME]\n")
			w.exec(w.root, "", "sh", "-c", "echo docs/ >> .git/info/exclude")
		}},
		{name: "the work committed as wip in a scratch clone, brought in with git am (no pre-commit or commit-msg hook)", work: func(w *world) {
			scratch := filepath.Join(filepath.Dir(w.root), "scratch")
			w.exec(filepath.Dir(w.root), "", "git", "clone", "-q", w.root, scratch)
			w.exec(scratch, "", "git", "switch", "-q", "feat/greet-name")
			if err := os.WriteFile(filepath.Join(scratch, "scripts", "greet.sh"), []byte(advCommitGreet), 0o644); err != nil {
				w.t.Fatal(err)
			}
			w.exec(scratch, "", "git", "-c", "core.hooksPath=/dev/null", "commit", "-qam", "wip")
			patch := filepath.Join(filepath.Dir(w.root), "wip.patch")
			w.exec(scratch, "", "sh", "-c", "git format-patch -1 --stdout > "+patch)
			w.exec(w.root, "", "git", "am", "-q", patch)
			if got := w.git("log", "-1", "--format=%s"); got != "wip" {
				w.t.Fatalf("git am did not apply the scratch commit: HEAD is %q", got)
			}
		}},
		// Closed in lazy pass 29 (c6): not_default_branch, re-run at the
		// end, fails when the local main holds the session's commits.
		{name: "the work merged into main by the agent (git branch -f main)", end: func(w *world) advEnd {
			return advEnd{afterGitOps: func() { w.git("branch", "-f", "main", "HEAD") }}
		}},
	} {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			clean, said := r.play(t)
			if clean && r.open != "" {
				t.Logf("left open (%s): %s gets through", r.open, r.name)
				return
			}
			if r.said != "" && !strings.Contains(said, r.said) {
				t.Errorf("the refusal does not name the way on (%q):\n%s", r.said, said)
			}
			if clean {
				t.Errorf("route gets through: %s; COMPLETE, clean, verify passing\n%s", r.name, said)
			}
		})
	}
}

// TestAdvLazy28Honest: the honest twins of the routes above, each doing
// the same phase as the protocol allows; every one must end COMPLETE,
// clean, verify passing, with no FAIL recorded.
func TestAdvLazy28Honest(t *testing.T) {
	t.Parallel()
	for _, r := range []lazy28Route{
		{name: "branch re-verified with git status (the evidence table's)", end: reverifyBy(func(w *world) {
			w.advOK("re-verify", "run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "status")
		})},
		{name: "branch re-verified with git rev-parse --abbrev-ref HEAD", end: reverifyBy(func(w *world) {
			w.advOK("re-verify", "run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "rev-parse", "--abbrev-ref", "HEAD")
		})},
		{name: "a person's exclude from before the session hides their notes", start: func(w *world) {
			w.advStartPhases()
		}, work: func(w *world) {
			w.advWork()
			w.write("notes/todo.md", "personal notes\n")
		}},
		{name: "a person's assume-unchanged local config from before the session", work: func(w *world) {
			w.advWork()
		}},
	} {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			w := advWorld(t, true)
			switch r.name {
			case "a person's exclude from before the session hides their notes":
				w.exec(w.root, "", "sh", "-c", "echo notes/ >> .git/info/exclude")
			case "a person's assume-unchanged local config from before the session":
				w.write("README.md", "# greet\n\nlocal tweak\n")
				w.git("update-index", "--assume-unchanged", "README.md")
			}
			w.setMtimeBack(".git/info/exclude")
			time.Sleep(1100 * time.Millisecond) // the person's change is older than the session
			w.advStart("Add a name argument to the greeting script")
			if r.start != nil {
				r.start(w)
			} else {
				w.advStartPhases()
			}
			if r.work != nil {
				r.work(w)
			} else {
				w.advWork()
			}
			o := advEnd{}
			if r.end != nil {
				o = r.end(w)
			}
			if clean, said := w.advEndPhases(o); !clean {
				t.Errorf("an honest session (%s) did not end clean with a passing verify (a false block)\n%s", r.name, said)
			}
		})
	}
}
