package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Lazy-agent pass 29 (c6): the phases beside QA (the start's reading, the
// handoff, the commits, the branches, the optional retrospective). Each
// row is played end to end through the real binary; a row gets through
// when the session ends COMPLETE, clean, `verify` passes locally and in a
// fresh clone of the pushed branch and records (verifyInCI, as CI runs
// it). The honest twins do the same phase as the protocol allows.

// lazy29Handoff is the session's handoff under the template's name.
const lazy29Handoff = ".agents/handoffs/2026-08-20-01.md"

// lazy29Row is one played session: start (nil: the start phases as
// asked), work (nil: advWork), end (what the end protocol does
// differently) and after (run once the session ended, before verify).
type lazy29Row struct {
	name string
	// open: the route still gets through, left open for this reason
	// (docs/security.md, lazy pass 29); the row is played and logged.
	open  string
	start func(w *world)
	work  func(w *world)
	end   func(w *world) advEnd
	after func(w *world)
}

// play runs the row in the project with an earlier session's handoff
// (adv4Project) and reports whether it ended clean with verify passing
// in CI too.
func (r lazy29Row) play(t *testing.T, lazy bool) (clean bool, said string) {
	t.Helper()
	w := adv4Project(t)
	w.advStart("Add a name argument to the greeting script")
	if lazy {
		w.deviate()
	}
	if r.start != nil {
		r.start(w)
	} else {
		w.advStartPhases()
	}
	switch {
	case r.work != nil:
		r.work(w)
	case r.start != nil:
		// A start the gates refused blocks the work's commit: held there.
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		if c := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): greet takes an optional name"); c.code != 0 {
			return false, "the work's commit refused: " + c.text()
		}
	default:
		w.advWork()
	}
	if clean, said = w.playEnd(r.end, r.after); !clean {
		return false, said
	}
	ci := w.verifyInCI()
	said += "\nverify in CI: " + ci.text()
	return ci.code == 0, said
}

// lazy29Read is the start protocol with the handoff's read met by cmd.
func lazy29Read(cmd ...string) func(w *world) {
	return func(w *world) {
		w.sg(append([]string{"run", "--requirement", "CONTEXT_RETRIEVAL.read-agents-handoff-md", "--"}, cmd...)...)
		w.advOK("read the task", "session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", toolOutput, "--value", "task: add a name argument to scripts/greet.sh")
		w.sg("session", "advance")
		w.sg("run", "--requirement", "BRANCH_CHECK.run-git-branch-show", "--", "git", "branch", "--show-current")
		w.sg("session", "advance")
		w.sg("session", "advance")
	}
}

// lazy29Body is a handoff body under the template's heading.
func lazy29Body(rest string) func(w *world) advEnd {
	return func(w *world) advEnd {
		return advEnd{handoffBody: "# Handoff 2026-08-20-01\n\n" + rest}
	}
}

// lazy29Commit commits the work with msg through the hooks.
func lazy29Commit(msg string) func(w *world) {
	return func(w *world) {
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		w.exec(w.root, "", "git", "commit", "-q", "-m", msg)
	}
}

// lazy29AfterGitOps runs a shell line once GIT_OPERATIONS passed.
func lazy29AfterGitOps(line string) func(w *world) advEnd {
	return func(w *world) advEnd {
		return advEnd{afterGitOps: func() { w.exec(w.root, "", "sh", "-c", line) }}
	}
}

var lazy29Routes = []lazy29Row{
	{name: "handoff's Next heading renamed (## Later)", end: lazy29Body(
		"## Done\n\nscripts/greet.sh takes an optional name.\n\n## Later\n\nnothing\n")},
	{name: "handoff's sections filled with the protocol's own sentences", end: lazy29Body(
		"## Done\n\nComplete the handoff from the Handoff Template below.\n\n## Next\n\nRun checks that cover the changed behavior.\n")},
	{name: "handoff's placeholders with the brackets taken off", end: lazy29Body(
		"## Done\n\nwhat was completed\n\n## Next\n\nwhat the next session should do\n")},
	{name: "handoff's sections holding a dash", end: lazy29Body(
		"## Done\n\n-\n\n## Next\n\n-\n")},
	// Round 30 (c3): nearcopy compares clauses as a multiset (reordered.go).
	{name: "earlier session's handoff, sentences reordered, commit id dropped", end: lazy29Body(
		"## Done\n\nThe script stays POSIX sh so it runs in the CI image without bash. scripts/test.sh checks it; scripts/greet.sh prints a greeting.\n\n" +
			"## Next\n\nAdd a name argument to the greeting script, and check it with several names in scripts/test.sh.\n")},
	{name: "shared handoff symlinked as this session's handoff", end: func(w *world) advEnd {
		return advEnd{inHandoff: func() {
			w.exec(w.root, "", "sh", "-c", "rm -f "+lazy29Handoff+" && ln -s ../HANDOFF.md "+lazy29Handoff)
		}, handoffBody: "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name.\n\n## Next\n\nDocument it.\n"}
	}},
	{name: "handoff read met by head -c0", start: lazy29Read("head", "-c0", ".agents/HANDOFF.md")},
	{name: "handoff read met by wc -c", start: lazy29Read("wc", "-c", ".agents/HANDOFF.md")},
	{name: "handoff read met by test -r", start: lazy29Read("test", "-r", ".agents/HANDOFF.md")},
	{name: "work commit taken back by git reset --soft after GIT_OPERATIONS (staged, never committed)",
		end: lazy29AfterGitOps("git reset -q --soft HEAD~2")},
	{name: "work recommitted as wip with hooks off after git reset --soft",
		end: lazy29AfterGitOps("git reset -q --soft HEAD~2 && git -c core.hooksPath=/dev/null commit -q -m wip")},
	{name: "handoff commit dropped by git reset --hard after GIT_OPERATIONS",
		end: lazy29AfterGitOps("git reset -q --hard HEAD~1")},
	{name: "local main moved to the work by git update-ref",
		end: lazy29AfterGitOps("git update-ref refs/heads/main HEAD")},
	{name: "local main moved to the work by git push . HEAD:main",
		end: lazy29AfterGitOps("git push -q . HEAD:main")},
	// Round 30 (c9): the commits no_hook_bypass and commit_message judge are
	// counted from the remote-tracking tips the start recorded.
	{name: "work recommitted as wip with hooks off, then a new remote-tracking x/main moved to it",
		end: lazy29AfterGitOps("git reset -q --soft HEAD~2 && git -c core.hooksPath=/dev/null commit -q -m wip && git update-ref refs/remotes/x/main HEAD")},
	{name: "work recommitted as wip with hooks off, then origin/main moved to it",
		end: lazy29AfterGitOps("git reset -q --soft HEAD~2 && git -c core.hooksPath=/dev/null commit -q -m wip && git update-ref refs/remotes/origin/main HEAD")},
	// Round 30 (c3): the start records the remote-tracking tips.
	{name: "local main and the remote-tracking origin/main both moved to the work", end: lazy29AfterGitOps("git branch -f main HEAD && git update-ref refs/remotes/origin/main HEAD")},
	{name: "local main moved to the work by git branch -f (round 28's open row)",
		end: lazy29AfterGitOps("git branch -f main HEAD")},
	{name: "worked on main after the branch check, feature branch reset onto it", work: func(w *world) {
		w.git("switch", "-q", "main")
		lazy29Commit("feat(scripts): greet takes an optional name")(w)
		w.git("switch", "-q", "feat/greet-name")
		w.git("reset", "-q", "--hard", "main")
	}},
	// Round 30 (c3): a description of fillers only fails commit_message.
	{name: "conventional subject with no description (feat: x)", work: lazy29Commit("feat: x")},
	{name: "conventional subject around a filler word (chore: wip)", work: lazy29Commit("chore: wip")},
	{name: "conventional subject of punctuation (fix: .)", work: lazy29Commit("fix: .")},
	{name: "docs: on a code change", work: lazy29Commit("docs: greet takes an optional name")},
	{name: "commit made by plumbing (commit-tree + update-ref, no hook) as wip", work: func(w *world) {
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		tree := w.git("write-tree")
		c := w.git("commit-tree", tree, "-p", "HEAD", "-m", "wip")
		w.git("update-ref", "refs/heads/feat/greet-name", c)
	}},
	{name: "retrospective a paraphrase of the diff", open: "the phase is optional: a retrospective that says little is no less than none", end: func(w *world) advEnd {
		return advEnd{afterGitOps: func() {
			w.write(".agents/retrospective/2026-08-20.md", "# Retrospective\n\ngreet.sh: echo \"hello\" became echo \"hello${1:+ $1}\".\n")
			w.sg("session", "evidence", "--requirement", "OPTIONAL_RETROSPECTIVE.work-produced-durable-learning", "--type", filePath, "--value", ".agents/retrospective/2026-08-20.md")
			w.git("add", "-A")
			w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(retro): what changed")
		}}
	}},
}

func TestAdvLazy29Routes(t *testing.T) {
	t.Parallel()
	for _, r := range lazy29Routes {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			clean, said := r.play(t, true)
			switch {
			case clean && r.open != "":
				t.Logf("left open (%s): %s gets through", r.open, r.name)
			case clean:
				t.Errorf("route gets through: %s; COMPLETE, clean, verify passing locally and in CI\n%s", r.name, said)
			default:
				t.Logf("held: %s", heldBy(said))
			}
		})
	}
}

// heldBy is the first line of what was said that refused or failed (for
// the log of a held row).
func heldBy(said string) string {
	for _, m := range []string{"FAIL ", "refused", "blocked", "BAD", "failed", "not clean"} {
		for _, l := range strings.Split(said, "\n") {
			if strings.Contains(l, m) {
				return strings.TrimSpace(l)
			}
		}
	}
	return said // nothing refused: say it all
}

var lazy29Honest = []lazy29Row{
	{name: "control: the protocol as asked"},
	{name: "handoff whose Next says nothing is left", end: lazy29Body(
		"## Done\n\nscripts/greet.sh takes an optional name; scripts/test.sh passes.\n\n## Next\n\nNothing is left of this task.\n")},
	{name: "two work commits squashed by git reset --soft before GIT_OPERATIONS", work: func(w *world) {
		lazy29Commit("feat(scripts): greet takes an optional name")(w)
		w.write("README.md", "# greet\n\nUsage: sh scripts/greet.sh [NAME]\n")
		w.git("add", "-A")
		w.exec(w.root, "", "git", "commit", "-q", "-m", "docs: usage")
		w.git("reset", "-q", "--soft", "HEAD~2")
		if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
			w.t.Fatalf("the squashed commit refused: %s", r.text())
		}
	}},
	{name: "fix: on a doc-only change (a wrong usage line)", work: func(w *world) {
		w.advWork()
		w.write("README.md", "# greet\n\nUsage: sh scripts/greet.sh [NAME]\n")
		w.git("add", "-A")
		if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "fix: the usage line names the optional argument"); r.code != 0 {
			w.t.Fatalf("the fix commit refused: %s", r.text())
		}
	}},
	{name: "local main fast-forwarded to origin's main (a person's merge) during the session", work: func(w *world) {
		other := filepath.Join(filepath.Dir(w.root), "person")
		w.gitIn(filepath.Dir(w.root), "clone", "-q", filepath.Join(filepath.Dir(w.root), "origin.git"), other)
		if err := os.WriteFile(filepath.Join(other, "LICENSE"), []byte("MIT\n"), 0o644); err != nil {
			w.t.Fatal(err)
		}
		w.gitIn(other, "add", "-A")
		w.gitIn(other, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "chore: license")
		w.gitIn(other, "push", "-q", "--no-verify", "origin", "main")
		w.git("fetch", "-q", "origin", "main:main")
		w.advWork()
	}},
	// Review 29 (c10): the branch rebased onto a local main that moved
	// with the remote's commits.
	{name: "local main fast-forwarded to origin's main, the branch rebased onto it", work: func(w *world) {
		w.advWork()
		w.person("main", "LICENSE", "MIT\n", "chore: license")
		w.git("fetch", "-q", "origin", "main:main")
		// The pull request's range starts at main's tip, as CI runs verify.
		w.base = w.git("rev-parse", "origin/main")
		w.gitOK("rebase", "-q", "main")
	}},
	{name: "a retrospective of real learning", end: func(w *world) advEnd {
		return advEnd{afterGitOps: func() {
			w.write(".agents/retrospective/2026-08-20.md", "# Retrospective\n\nPOSIX ${1:+ $1} keeps greet.sh portable without a bash-only test.\n")
			w.advOK("retro", "session", "evidence", "--requirement", "OPTIONAL_RETROSPECTIVE.work-produced-durable-learning", "--type", filePath, "--value", ".agents/retrospective/2026-08-20.md")
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(retro): note the portable expansion"); r.code != 0 {
				w.t.Fatalf("the retrospective commit refused: %s", r.text())
			}
		}}
	}},
}

// TestAdvLazy29Honest: the honest twins; each must end COMPLETE, clean,
// verify passing locally and in CI, with no FAIL recorded.
func TestAdvLazy29Honest(t *testing.T) {
	t.Parallel()
	for _, r := range lazy29Honest {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			if clean, said := r.play(t, false); !clean {
				t.Errorf("honest session not clean (a false block or FAIL): %s\n%s", r.name, said)
			}
		})
	}
}

// TestAdvLazy29CheckOutBranchHonest: a protocol whose branch phase says
// "Check out a feature branch." (no check of the current branch). The
// honest agent, already on its feature branch, records so as a note; it
// was refused on main (toolneed.BranchRunOwed took "check out" for a
// check and asked for `git branch --show-current`, round 28's final
// review) and must pass.
func TestAdvLazy29CheckOutBranchHonest(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join(moduleRoot, "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	proto := strings.Replace(string(doc), "Run `git branch --show-current`. Do not work on `main`.", "Check out a feature branch for the work. Do not work on `main`.", 1)
	if proto == string(doc) {
		t.Fatal("the v3.0-style protocol's branch phase changed: update the replacement")
	}
	w := advProjectWorld(t, advProject{files: [][2]string{
		{"SESSION-PROTOCOL.md", proto},
		{"scripts/greet.sh", greetScript},
		{"scripts/test.sh", strings.Replace(greetTest, "for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n", "", 1)},
	}})
	w.advStart("Add a name argument to the greeting script")
	w.advOK("read the handoff", "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", contentHash, "--value", ".agents/HANDOFF.md")
	w.advOK("read the task", "session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", toolOutput, "--value", "task: add a name argument to scripts/greet.sh")
	w.advOK("advance past CONTEXT_RETRIEVAL", "session", "advance")
	if r := w.sg("session", "evidence", "--requirement", "BRANCH_CHECK.check-out-feature-branch", "--type", manual, "--value", "checked out feat/greet-name from main before the session"); r.code != 0 {
		t.Fatalf("an honest note for \"Check out a feature branch\" was refused (a false block):\n%s", r.text())
	}
	w.advOK("advance past BRANCH_CHECK", "session", "advance")
	w.advOK("advance past SESSION_LOG", "session", "advance")
	w.advWork()
	if clean, said := w.advEndPhases(advEnd{}); !clean {
		t.Errorf("an honest session under \"Check out a feature branch\" did not end clean\n%s", said)
	}
}

// lazy29RemoteCommit pushes a person's commit to the main branch of the
// bare repository remote.
func lazy29RemoteCommit(w *world, remote string) {
	other := filepath.Join(filepath.Dir(w.root), "person-"+filepath.Base(remote))
	w.gitIn(filepath.Dir(w.root), "clone", "-q", remote, other)
	if err := os.WriteFile(filepath.Join(other, "LICENSE"), []byte("MIT\n"), 0o644); err != nil {
		w.t.Fatal(err)
	}
	w.gitIn(other, "add", "-A")
	w.gitIn(other, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "chore: license")
	w.gitIn(other, "push", "-q", "--no-verify", "origin", "main")
}

// TestAdvReview29ForkRebase: an honest fork whose local main is pulled
// from upstream while origin/main lags, the branch rebased onto it.
// not_default_branch no longer counts upstream's commit
// (gitrepo.TestDefaultHolds), and GIT_OPERATIONS' no_hook_bypass took it
// for the session's until the commit listing it shares left out what any
// remote's default-named branch holds (gitrepo.TestCommitSubjectsFork;
// review 29 c10's open row, played before with SESSIONGATE_PLAY_OPEN=1).
func TestAdvReview29ForkRebase(t *testing.T) {
	t.Parallel()
	r := lazy29Row{name: "a fork: local main pulled from upstream while origin/main lags, the branch rebased onto it", work: func(w *world) {
		w.advWork()
		up := filepath.Join(filepath.Dir(w.root), "upstream.git")
		w.gitIn(filepath.Dir(w.root), "clone", "-q", "--bare", filepath.Join(filepath.Dir(w.root), "origin.git"), up)
		lazy29RemoteCommit(w, up)
		w.git("remote", "add", "upstream", up)
		w.git("fetch", "-q", "upstream", "main:main")
		w.base = w.git("rev-parse", "upstream/main")
		w.gitOK("rebase", "-q", "main")
	}}
	if clean, said := r.play(t, false); !clean {
		t.Errorf("honest session not clean (a false block or FAIL): %s\n%s", r.name, said)
	}
}

// playEnd plays the end phases (end's options, nil: as asked), then after
// (nil: nothing), and says whether the session ended clean; a session held
// by flags for a reviewer says which.
func (w *world) playEnd(end func(*world) advEnd, after func(*world)) (clean bool, said string) {
	o := advEnd{}
	if end != nil {
		o = end(w)
	}
	clean, said = w.advEndPhases(o)
	if after != nil {
		after(w)
	}
	if !clean && strings.Contains(said, "COMPLETE, not clean") {
		w.readViolations()
		said = "COMPLETE, not clean: " + strings.Join(w.out.violations, "; ") + "\n" + said
	}
	return clean, said
}
