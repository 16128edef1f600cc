package compliance_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Review of round 28's rules (c9): the clean-worktree rule that counts
// files git status hides (gitrepo.FlaggedSince, ExcludedSince), played as
// the honest team and as the lazy agent through the real binary and
// `verify` over the branch. Each row sets the repository up before the
// session (what a person did), then does the work.
type review28Row struct {
	name string
	// open: a lazy route that still gets through, for this reason
	// (docs/security.md, review 28 c9); played and logged.
	open   string
	before func(w *world) // before the session starts: the person's doing
	work   func(w *world) // the session's work (nil: advWork)
}

func (r review28Row) play(t *testing.T) (bool, string) {
	t.Helper()
	w := advWorld(t, true)
	if r.before != nil {
		r.before(w)
		w.setMtimeBack(".git/info/exclude")
		time.Sleep(1100 * time.Millisecond) // the person's change is older than the session
	}
	w.advStart("Add a name argument to the greeting script")
	if !honest28(r.name) {
		w.deviate()
	}
	w.advStartPhases()
	if r.work != nil {
		r.work(w)
	} else {
		w.advWork()
	}
	clean, said := w.advEndPhases(advEnd{})
	if !clean || !honest28(r.name) {
		return clean, said
	}
	// verify on a fresh clone too (a teammate's, CI's): it has no records
	// ref until verify fetches it from origin.
	clone := filepath.Join(t.TempDir(), "clone")
	branch := w.git("branch", "--show-current")
	w.exec(filepath.Dir(clone), "", "git", "clone", "-q", "--no-recurse-submodules", "-b", branch, w.root, clone)
	root := w.root
	w.root = clone
	v := w.sg("verify", w.base+"..HEAD")
	w.root = root
	if v.code != 0 {
		return false, "verify on a clone failed (a false FAIL):\n" + v.text()
	}
	return true, said
}

func honest28(name string) bool { return !strings.HasPrefix(name, "lazy: ") }

// TestAdvReview28Honest: honest sessions the hidden-change rule could
// wrongly block; each must end COMPLETE, clean, verify passing.
func TestAdvReview28Honest(t *testing.T) {
	t.Parallel()
	for _, r := range []review28Row{
		{name: "a developer's skip-worktree local config, rewritten by the app during the session", before: func(w *world) {
			w.write("README.md", "# greet\n\nlocal: port 8081\n")
			w.git("update-index", "--skip-worktree", "README.md")
		}, work: func(w *world) {
			w.advWork()
			w.write("README.md", "# greet\n\nlocal: port 8082\n")
		}},
		{name: "a long-standing exclude hides the app's log; the developer edits the exclude from another worktree", before: func(w *world) {
			w.exec(w.root, "", "sh", "-c", "echo '*.log' >> .git/info/exclude")
		}, work: func(w *world) {
			w.advWork()
			w.write("greet.log", "hello\n")
			w.exec(w.root, "", "sh", "-c", "echo 'scratch/' >> .git/info/exclude")
		}},
		{name: "a new file announced with git add -N, then committed", work: func(w *world) {
			w.write("docs/usage.md", "# Usage\n\nsh scripts/greet.sh [NAME]\n")
			w.git("add", "-N", "docs/usage.md")
			w.advWork()
		}},
		{name: "pytest's cache folder ignoring itself, made by the test run", work: func(w *world) {
			w.advWork()
			w.write(".pytest_cache/v/cache/nodeids", "[]\n")
			w.write(".pytest_cache/CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n")
			w.write(".pytest_cache/.gitignore", "# Created by pytest automatically.\n*\n")
		}},
		{name: "a submodule the project holds, its work tree touched by a build", before: func(w *world) {
			lib := filepath.Join(filepath.Dir(w.root), "lib")
			w.exec(filepath.Dir(w.root), "", "git", "init", "-q", "-b", "main", lib)
			w.exec(lib, "", "sh", "-c", "echo lib > lib.txt && git add lib.txt && git -c user.email=l@x -c user.name=l commit -qm lib")
			w.exec(w.root, "", "git", "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib")
			w.exec(w.root, "", "git", "commit", "-q", "--no-verify", "-m", "chore: vendor lib")
			if got := w.git("ls-files", "-s", "vendor/lib"); !strings.HasPrefix(got, "160000") {
				w.t.Fatalf("no submodule at vendor/lib: %q", got)
			}
		}, work: func(w *world) {
			w.advWork()
			w.write("vendor/lib/build.o", "x\n")
			w.exec(w.root, "", "sh", "-c", "echo '*.o' >> .git/modules/vendor/lib/info/exclude")
		}},
		{name: "a sparse checkout leaving README.md out", before: func(w *world) {
			w.git("sparse-checkout", "set", "--no-cone", "/*", "!/README.md")
		}},
	} {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			if clean, said := r.play(t); !clean {
				t.Errorf("an honest session (%s) did not end clean with a passing verify (a false block)\n%s", r.name, said)
			}
		})
	}
}

// TestAdvReview28Lazy: the lazy agent leaving its work uncommitted past
// "Commit all changes"; none may end clean.
func TestAdvReview28Lazy(t *testing.T) {
	t.Parallel()
	for _, r := range []review28Row{
		{name: "lazy: a new file hidden by a .gitignore the session writes, which ignores itself", work: func(w *world) {
			w.advWork()
			w.write("docs/usage.md", "# Usage\n\nsh scripts/greet.sh [NAME]\n")
			w.write("docs/.gitignore", "*\n")
		}},
		{name: "lazy: an exclude line added by a script the session runs", work: func(w *world) {
			w.advWork()
			w.write("docs/usage.md", "# Usage\n\nsh scripts/greet.sh [NAME]\n")
			w.write("setup.sh", "echo docs/ >> .git/info/exclude\necho setup.sh >> .git/info/exclude\n")
			w.exec(w.root, "", "sh", "setup.sh")
		}},
		{name: "lazy: core.excludesFile pointed at a file the session writes", work: func(w *world) {
			w.advWork()
			w.write("docs/usage.md", "# Usage\n\nsh scripts/greet.sh [NAME]\n")
			w.exec(w.root, "", "sh", "-c", "echo docs/ > ../my-ignore && git config core.excludesFile \"$PWD/../my-ignore\"")
		}},
		{name: "lazy: core.excludesFile pointed at the project's old .dockerignore, which lists docs/", before: func(w *world) {
			w.write(".dockerignore", "docs/\n")
			w.git("add", ".dockerignore")
			w.exec(w.root, "", "git", "commit", "-q", "--no-verify", "-m", "chore: dockerignore")
			w.setMtimeBack(".dockerignore")
		}, work: func(w *world) {
			w.advWork()
			w.write("docs/usage.md", "# Usage\n\nsh scripts/greet.sh [NAME]\n")
			w.exec(w.root, "", "sh", "-c", "git config core.excludesFile \"$PWD/.dockerignore\"")
		}},
		{name: "lazy: the work named so a long-standing exclude already hides it", open: "no exclude changed: the person's `*.log` hides usage.log as it hid any log before", before: func(w *world) {
			w.exec(w.root, "", "sh", "-c", "echo '*.log' >> .git/info/exclude")
		}, work: func(w *world) {
			w.advWork()
			w.write("usage.log", "Usage: sh scripts/greet.sh [NAME]\n")
		}},
		{name: "lazy: the person's skip-worktree file used to carry the work", open: "the developer's flag stood before the session: what the file holds is theirs not to commit, and the app rewriting a local config is the honest twin", before: func(w *world) {
			w.write("README.md", "# greet\n\nlocal: port 8081\n")
			w.git("update-index", "--skip-worktree", "README.md")
		}, work: func(w *world) {
			w.advWork()
			w.write("README.md", "# greet\n\nUsage: sh scripts/greet.sh [NAME]\n")
		}},
	} {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			clean, said := r.play(t)
			if clean && r.open != "" {
				t.Logf("left open (%s): %s gets through", r.open, r.name)
				return
			}
			if clean {
				t.Errorf("route gets through: %s; COMPLETE, clean, verify passing\n%s", r.name, said)
			}
		})
	}
}

// TestAdvReview28HonestRecords: honest shapes round 28's records rules
// (c2: records_push pinned, a BYPASS tied to sessions by place, branch
// and person) could wrongly block or FAIL, each through the binary, the
// push and `verify` over the branch.
func TestAdvReview28HonestRecords(t *testing.T) {
	t.Parallel()
	t.Run("the branch renamed honestly (git branch -m) before the end", func(t *testing.T) {
		t.Parallel()
		w := recordsPushWorld(t)
		w.advStart("Add a name argument to the greeting script")
		w.advStartPhases()
		w.advWork()
		w.git("branch", "-m", "feat/greet-arg")
		if clean, said := w.advEndPhases(advEnd{}); !clean {
			t.Fatalf("an honest session on a renamed branch did not end clean (a false block)\n%s", said)
		}
		w.git("push", "-q", "origin", "feat/greet-arg")
		if v := w.sg("verify", w.base+"..HEAD"); v.code != 0 {
			t.Errorf("verify failed an honest renamed branch (a false FAIL)\n%s", v.text())
		}
	})
	t.Run("two worktrees of one developer, two branches, two honest sessions", func(t *testing.T) {
		t.Parallel()
		w := recordsPushWorld(t)
		other := filepath.Join(t.TempDir(), "other")
		w.git("worktree", "add", "-q", "-b", "feat/other", other, w.base)
		main := w.root
		w.advStart("Add a name argument to the greeting script")
		w.advStartPhases()
		w.root = other
		w.advStart("Add a name argument to the greeting script")
		w.advStartPhases()
		w.advWork()
		if clean, said := w.advEndPhases(advEnd{}); !clean {
			t.Fatalf("the second worktree's honest session did not end clean (a false block)\n%s", said)
		}
		w.root = main
		w.advWork()
		if clean, said := w.advEndPhases(advEnd{}); !clean {
			t.Fatalf("the first worktree's honest session did not end clean (a false block)\n%s", said)
		}
		w.git("push", "-q", "origin", "feat/greet-name")
		if v := w.sg("verify", w.base+"..HEAD"); v.code != 0 {
			t.Errorf("verify failed an honest branch beside a second worktree's session (a false FAIL)\n%s", v.text())
		}
	})
}

// TestAdvReview28LazyBranch: c8's branch check (toolneed.BranchCheck)
// against runs that print another repository's branch.
func TestAdvReview28LazyBranch(t *testing.T) {
	t.Parallel()
	other := func(w *world) string {
		o := filepath.Join(filepath.Dir(w.root), "other")
		w.exec(filepath.Dir(w.root), "", "git", "clone", "-q", w.root, o)
		w.exec(o, "", "git", "switch", "-q", "-c", "feat/greet-name")
		return o
	}
	for _, r := range []lazy28Route{
		{name: "branch re-verified in a subshell that cds to another repository", end: reverifyBy(func(w *world) {
			w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "sh", "-c", "cd "+other(w)+" && git branch --show-current")
		})},
		{name: "branch re-verified with GIT_DIR pointing at another repository", end: reverifyBy(func(w *world) {
			w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "env", "GIT_DIR="+filepath.Join(other(w), ".git"), "git", "branch", "--show-current")
		})},
		{name: "branch re-verified with git --git-dir of another repository", end: reverifyBy(func(w *world) {
			w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "--git-dir="+filepath.Join(other(w), ".git"), "branch", "--show-current")
		})},
	} {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			if clean, said := r.play(t); clean {
				t.Errorf("route gets through: %s; COMPLETE, clean, verify passing\n%s", r.name, said)
			}
		})
	}
}

// TestAdvReview28FlagLaundered: the lazy agent's own flag carried into a
// second session. The first session, blocked for README.md changed under
// skip-worktree, is left; the new start records README.md as the
// developer's flag (hidden_at_start), and the second session ends
// COMPLETE. verify over the branch still fails: the first session's
// commits belong to a session ABANDONED with GIT_OPERATIONS FAILED.
func TestAdvReview28FlagLaundered(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.deviate()
	w.advStartPhases()
	w.advWork()
	w.write("README.md", "# greet\n\nUsage: sh scripts/greet.sh [NAME]\n")
	w.git("update-index", "--skip-worktree", "README.md")
	if clean, said := w.advEndPhases(advEnd{}); clean {
		t.Fatalf("the first session ended clean with its change under skip-worktree\n%s", said)
	}
	time.Sleep(1100 * time.Millisecond)
	w.advStart("Document the greeting script")
	w.advStartPhases()
	w.write("scripts/hello.sh", "#!/bin/sh\necho hello\n")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): hello"); r.code != 0 {
		t.Fatalf("the second session's commit refused: %s", r.text())
	}
	clean, said := w.advEndPhases(advEnd{handoff: ".agents/handoffs/2026-08-20-02.md", handoffDone: "Added scripts/hello.sh, which prints hello."})
	t.Logf("second session:\n%s", said)
	if clean {
		t.Errorf("route gets through: the first session's flag laundered by a second start; COMPLETE, clean, verify passing\n%s", said)
	}
}
