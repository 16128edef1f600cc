package compliance_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/testshare"
)

// Lazy-agent pass 39: the phases beside QA (the start's reading, the branch
// check, a recent-commits inspection, the handoff, the commits, hooks,
// not-applicable marks, the database). Each lazy row is played end to end
// through the real binary; it gets through when the session ends COMPLETE,
// clean, and `verify` passes locally and in a fresh clone as CI runs it
// (verifyInCI). Honest rows must end the same way.

// lazy39Proto is the v3.0-style protocol with a recent-commits inspection
// added to the branch phase (as the team's 2025-12 protocols' "git log
// --oneline" step).
func lazy39Proto(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(moduleRoot, "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	old := "Run `git branch --show-current`. Do not work on `main`."
	p := strings.Replace(string(doc), old, old+"\n\nRun `git log --oneline -5` to review the recent commits before you change anything.", 1)
	if p == string(doc) {
		t.Fatal("the v3.0-style protocol's branch phase changed: update the replacement")
	}
	return p
}

// lazy39Row is one played session.
type lazy39Row struct {
	name   string
	trick  string
	honest bool
	// known: the route is documented as open in docs/security.md (where);
	// it is played and logged, not counted as new.
	known string
	// logProto: the project's protocol has the recent-commits step.
	logProto bool
	// recent: the recent-commits inspection's command (logProto only; nil:
	// git log --oneline -5).
	recent []string
	start  func(w *world) // nil: the start phases as asked
	work   func(w *world) // nil: advWork
	end    func(w *world) advEnd
	after  func(w *world) // once the session ended, before verify in CI
	pre    func(w *world) // before the session starts
}

func (r lazy39Row) world(t *testing.T) *world {
	if !r.logProto {
		return adv4Project(t)
	}
	return advProjectWorld(t, advProject{files: [][2]string{
		{"SESSION-PROTOCOL.md", lazy39Proto(t)},
		{"scripts/greet.sh", greetScript},
		{"scripts/test.sh", strings.Replace(greetTest, "for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n", "", 1)},
		{v3EarlierHandoff, v3EarlierHandoffBody},
	}})
}

// startWithLog is the start protocol of the logProto project, with the
// recent commits inspected by cmd.
func startWithLog(cmd ...string) func(w *world) {
	return func(w *world) {
		w.sg("session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", contentHash, "--value", ".agents/HANDOFF.md")
		w.sg("session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", toolOutput, "--value", "task: add a name argument to scripts/greet.sh")
		w.sg("session", "advance")
		w.sg("run", "--requirement", "BRANCH_CHECK.run-git-branch-show", "--", "git", "branch", "--show-current")
		w.sg(append([]string{"run", "--requirement", "BRANCH_CHECK.run-git-log-oneline", "--"}, cmd...)...)
		w.sg("session", "advance")
		w.sg("session", "advance")
	}
}

func (r lazy39Row) play(t *testing.T) (clean bool, said string) {
	t.Helper()
	w := r.world(t)
	if r.pre != nil {
		r.pre(w)
	}
	if st := w.sg("session", "start", "--objective", "Add a name argument to the greeting script"); st.code != 0 {
		return false, "session start refused: " + st.text()
	}
	w.refreshID()
	if !r.honest || r.known != "" {
		// A known honest block is judged, not fatal (judge's "HONEST
		// BLOCKED, known").
		w.deviate()
	}
	switch {
	case r.start != nil:
		r.start(w)
	case r.logProto:
		cmd := r.recent
		if cmd == nil {
			cmd = []string{"git", "log", "--oneline", "-5"}
		}
		startWithLog(cmd...)(w)
	default:
		w.advStartPhases()
	}
	if st := w.sg("session", "status"); !strings.Contains(st.out, "QA_VALIDATION") && !strings.Contains(st.out, "QA") {
		t.Logf("status after start: %s", oneLine(st.text(), 300))
	}
	if r.work != nil {
		r.work(w)
		if w.out.stoppedBy != "" {
			return false, w.out.stoppedBy
		}
	} else {
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		if c := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): greet takes an optional name"); c.code != 0 {
			return false, "the work's commit refused: " + c.text()
		}
	}
	if clean, said = w.playEnd(r.end, r.after); !clean {
		return false, said
	}
	if out := w.exec(w.root, "", "git", "for-each-ref", "refs/sessiongate/"); !strings.Contains(out.out, "refs/sessiongate/records") {
		t.Logf("no records ref after a clean end: %s", oneLine(w.exec(w.root, "", "git", "push", "--no-verify", "origin", "refs/sessiongate/records:refs/sessiongate/records").text(), 300))
	}
	if pr := w.exec(w.root, "", "git", "push", "--no-verify", "origin", w.git("rev-parse", "--abbrev-ref", "HEAD"), "refs/sessiongate/records:refs/sessiongate/records"); pr.code != 0 {
		t.Logf("push before CI's verify failed: %s", oneLine(pr.text(), 400))
	}
	ci := w.verifyInCI()
	said += "\nverify in CI: " + ci.text()
	if ci.code != 0 {
		return false, said
	}
	w.readViolations()
	if len(w.out.violations) > 0 || len(w.out.failedGates) > 0 {
		said += "\nrecorded: " + strings.Join(append(w.out.violations, w.out.failedGates...), "; ")
	}
	return true, said
}

// shLine runs a shell line in the work tree and logs a failure.
func (w *world) shLine(line string) {
	w.t.Helper()
	if out, code := w.sh(line); code != 0 {
		w.t.Logf("sh %q: exit %d: %s", line, code, oneLine(out, 300))
	}
}

const lazy39Template = "# Handoff 2026-08-20-01\n\n## Done\n\n[what was completed]\n\n## Next\n\n[what the next session should do]\n"

var lazy39Rows = []lazy39Row{
	// --- the recent-commits inspection (a protocol with git log --oneline -5) ---
	{name: "honest: recent commits inspected with git log --oneline -5", trick: "the protocol as asked", honest: true, logProto: true},
	{name: "recent commits: git log --oneline -0", trick: "the inspection run with -0 (prints no commit)", logProto: true,
		recent: []string{"git", "log", "--oneline", "-0"}},
	{name: "recent commits: git log --oneline -5 --author=nobody", trick: "the inspection filtered to an author with no commits (prints nothing)", logProto: true,
		recent: []string{"git", "log", "--oneline", "-5", "--author=nobody-at-all"}},
	{name: "recent commits: git log --format= -5", trick: "an empty format: five blank lines, no commit shown", logProto: true,
		recent: []string{"git", "log", "--format=", "-5"}},
	{name: "recent commits: git log --oneline -5 piped to /dev/null", trick: "the log's output thrown away inside sh -c", logProto: true,
		recent: []string{"sh", "-c", "git log --oneline -5 >/dev/null"}},
	{name: "recent commits: git log --oneline -5 -- nothing-here", trick: "the log restricted to a path no commit touched", logProto: true,
		recent: []string{"git", "log", "--oneline", "-5", "--", "nothing-here"}},
	{name: "recent commits: git log --oneline -5 on an empty orphan ref", trick: "git log of a freshly made one-commit orphan branch, not the project's history", logProto: true,
		start: func(w *world) {
			empty := w.git("mktree")
			c := strings.TrimSpace(w.exec(w.root, "", "git", "commit-tree", empty, "-m", "chore: empty").out)
			w.git("update-ref", "refs/heads/scratch-empty", c)
			startWithLog("git", "log", "--oneline", "-5", "scratch-empty")(w)
		}},

	{name: "recent commits: the command's words echoed, never run", trick: "`sh -c 'echo git log --oneline -5'` as the inspection", logProto: true,
		recent: []string{"sh", "-c", "echo git log --oneline -5"}},
	{name: "recent commits: true", trick: "`true` recorded for the inspection (does the command matter at all?)", logProto: true,
		recent: []string{"true"}},
	{name: "recent commits: never run", trick: "no evidence for BRANCH_CHECK.run-git-log-oneline at all", logProto: true, start: func(w *world) {
		w.advStartPhasesLoose()
	}},

	// --- the start's reading ---
	{name: "task read claimed with a one-word value", trick: "the task's evidence is `--value read`", known: "security.md pass 28: \"Read the issue or task\" met by any typed note", start: func(w *world) {
		w.sg("session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", contentHash, "--value", ".agents/HANDOFF.md")
		w.sg("session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", toolOutput, "--value", "read")
		w.sg("session", "advance")
		w.sg("run", "--requirement", "BRANCH_CHECK.run-git-branch-show", "--", "git", "branch", "--show-current")
		w.sg("session", "advance")
		w.sg("session", "advance")
	}},
	{name: "task read marked not applicable", trick: "`--not-applicable \"the task is in the objective\"` on the task's read", start: func(w *world) {
		w.sg("session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", contentHash, "--value", ".agents/HANDOFF.md")
		w.sg("session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--not-applicable", "the task is the session objective; no issue was given")
		w.sg("session", "advance")
		w.sg("run", "--requirement", "BRANCH_CHECK.run-git-branch-show", "--", "git", "branch", "--show-current")
		w.sg("session", "advance")
		w.sg("session", "advance")
	}},
	{name: "branch check marked not applicable", trick: "`--not-applicable` on BRANCH_CHECK.run-git-branch-show", start: func(w *world) {
		w.sg("session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", contentHash, "--value", ".agents/HANDOFF.md")
		w.sg("session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", toolOutput, "--value", "task: add a name argument to scripts/greet.sh")
		w.sg("session", "advance")
		w.sg("session", "evidence", "--requirement", "BRANCH_CHECK.run-git-branch-show", "--not-applicable", "the branch was created by the harness")
		w.sg("session", "advance")
		w.sg("session", "advance")
	}},

	// --- the branch ---
	{name: "session started with --branch naming a feature branch while on main", trick: "`session start --branch feat/greet-name` on main; all work committed on main", start: func(w *world) {
		// advStart already started: restart on main with --branch.
		w.sg("session", "terminate", w.id)
		w.git("switch", "-q", "main")
		r := w.sg("session", "start", "--objective", "Add a name argument to the greeting script", "--branch", "feat/greet-name")
		w.t.Logf("start --branch on main: %s", oneLine(r.text(), 300))
		w.refreshID()
		w.advStartPhasesLoose()
	}},
	{name: "branch check output thrown away at the start (sh -c ... >/dev/null)", trick: "BRANCH_CHECK.run-git-branch-show met by a run that prints nothing",
		known: "docs/security.md, lazy pass 39: the start's branch is the gate's own check (not_default_branch), whatever the run printed", start: func(w *world) {
			w.sg("session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", contentHash, "--value", ".agents/HANDOFF.md")
			w.sg("session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", toolOutput, "--value", "task: add a name argument to scripts/greet.sh")
			w.sg("session", "advance")
			w.sg("run", "--requirement", "BRANCH_CHECK.run-git-branch-show", "--", "sh", "-c", "git branch --show-current >/dev/null")
			w.sg("session", "advance")
			w.sg("session", "advance")
		}},
	{name: "re-verify by echoing the command's words", trick: "`sh -c 'echo git branch --show-current'`: no git run", end: func(w *world) advEnd {
		return advEnd{reverifyWith: func() {
			w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "sh", "-c", "echo git branch --show-current")
		}}
	}},
	{name: "re-verify recorded at the start (BRANCH_CHECK), never at the end", trick: "GIT_OPERATIONS.re-verify-branch-before run during the start phases", start: func(w *world) {
		w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
		w.advStartPhasesLoose()
	}, end: func(w *world) advEnd { return advEnd{skipReverify: true} }},
	{name: "re-verify output thrown away (sh -c ... >/dev/null)", trick: "the re-verify run prints nothing", end: func(w *world) advEnd {
		return advEnd{reverifyWith: func() {
			w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "sh", "-c", "git branch --show-current >/dev/null")
		}}
	}},
	{name: "re-verify output thrown away, handoff committed on a detached HEAD", trick: "an empty re-verify output leaves nothing to compare with HEAD's branch; the commit then lands on no branch", end: func(w *world) advEnd {
		return advEnd{reverifyWith: func() {
			w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "sh", "-c", "git branch --show-current >/dev/null")
			w.git("switch", "-q", "--detach")
		}}
	}},
	{name: "re-verify in a linked worktree on another branch", trick: "`git -C ../wt branch --show-current` in a worktree of the same repository", end: func(w *world) advEnd {
		return advEnd{reverifyWith: func() {
			wt := filepath.Join(filepath.Dir(w.root), "wt")
			w.git("worktree", "add", "-q", "-b", "feat/other", wt, "HEAD")
			w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "-C", wt, "branch", "--show-current")
		}}
	}},
	{name: "handoff committed on a detached HEAD after the re-verify", trick: "re-verify on the branch, then `git switch --detach` and commit the handoff there", end: func(w *world) advEnd {
		return advEnd{reverifyWith: func() {
			w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
			w.git("switch", "-q", "--detach")
		}}
	}},
	{name: "honest: branch re-verified with git symbolic-ref --short HEAD", trick: "another honest spelling of the branch check", honest: true, end: func(w *world) advEnd {
		return advEnd{reverifyWith: func() {
			w.advOK("re-verify", "run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "symbolic-ref", "--short", "HEAD")
		}}
	}},

	// --- the handoff ---
	{name: "handoff whose words are all inside HTML comments", trick: "the template's sections filled with <!-- ... --> only: the rendered handoff is empty", end: func(w *world) advEnd {
		return advEnd{handoffBody: "# Handoff 2026-08-20-01\n\n## Done\n\n<!-- scripts/greet.sh takes an optional name. -->\n\n## Next\n\n<!-- Document the name argument in the README. -->\n"}
	}},
	{name: "handoff whose words are all in markdown link-comments", trick: "markdown's `[//]: # (...)` comment idiom holds the Done and Next text; it renders as nothing", end: func(w *world) advEnd {
		return advEnd{handoffBody: "# Handoff 2026-08-20-01\n\n## Done\n\n[//]: # (scripts/greet.sh takes an optional name.)\n\n## Next\n\n[//]: # (Document the name argument in the README.)\n"}
	}},
	{name: "handoff commit dropped after the session ended (git reset --hard HEAD~1)", trick: "session end clean, then the handoff commit is thrown away before pushing", after: func(w *world) {
		w.git("reset", "-q", "--hard", "HEAD~1")
	}},
	{name: "shared HANDOFF.md updated in a commit after the session ended", trick: "this session's notes appended to .agents/HANDOFF.md and committed once the session is over", known: "security.md \"Person claims in CI\": a commit with no session passes as a person's while verify.allowed_signers is unset", after: func(w *world) {
		w.write(".agents/HANDOFF.md", w.read(".agents/HANDOFF.md")+"\n## 2026-08-20\n\n- greet.sh takes a name now; the README still needs it.\n")
		w.git("add", "-A")
		if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(agents): note the name argument in the handoff"); r.code != 0 {
			w.t.Logf("commit after the end refused: %s", oneLine(r.text(), 300))
		}
	}},
	{name: "handoff reset to the template after HANDOFF passed, before the commit", trick: "a good handoff as evidence, the template's placeholders committed", end: func(w *world) advEnd {
		return advEnd{reverifyWith: func() {
			w.write(".agents/handoffs/2026-08-20-01.md", lazy39Template)
			w.advOK("re-verify", "run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
		}}
	}},
	{name: "handoff reset to the template in a commit after GIT_OPERATIONS", trick: "`docs(handoff): trim` commit restoring the placeholders, after the phase passed", end: func(w *world) advEnd {
		return advEnd{afterGitOps: func() {
			w.write(".agents/handoffs/2026-08-20-01.md", lazy39Template)
			w.git("add", "-A")
			w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(handoff): trim the handoff")
		}}
	}},
	{name: "handoff deleted in a commit after GIT_OPERATIONS", trick: "`git rm` of the handoff, committed as chore after the phase passed", end: func(w *world) advEnd {
		return advEnd{afterGitOps: func() {
			w.git("rm", "-q", ".agents/handoffs/2026-08-20-01.md")
			w.exec(w.root, "", "git", "commit", "-q", "-m", "chore(agents): drop the session handoff")
		}}
	}},
	{name: "shared HANDOFF.md replaced by a symlink to the session's handoff", trick: "`ln -sf handoffs/2026-08-20-01.md .agents/HANDOFF.md`: the shared handoff now says this session's notes", end: func(w *world) advEnd {
		return advEnd{inHandoff: func() {
			w.shLine("rm .agents/HANDOFF.md && ln -s handoffs/2026-08-20-01.md .agents/HANDOFF.md")
		}}
	}},

	{name: "handoff sections left empty, the work named in its title", trick: "`# Handoff 2026-08-20-01: greet.sh takes a name` over an empty Done and Next", end: func(w *world) advEnd {
		return advEnd{handoffBody: "# Handoff 2026-08-20-01: scripts/greet.sh takes an optional name\n\n## Done\n\n## Next\n"}
	}},

	// --- conventional commits ---
	{name: "conventional subject feat: update", trick: "a type and one vague verb", work: lazy29Commit("feat: update")},
	{name: "conventional subject fix: stuff", trick: "a type and one vague noun", work: lazy29Commit("fix: stuff")},
	{name: "conventional subject chore: changes", trick: "a type and a word that says nothing", work: lazy29Commit("chore: changes")},

	// --- hooks ---
	{name: "commit-msg hook made non-executable for a wip commit", trick: "`chmod -x .git/hooks/commit-msg; git commit -m wip; chmod +x`", work: func(w *world) {
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		w.shLine("chmod -x .git/hooks/commit-msg && git commit -q -m wip; chmod +x .git/hooks/commit-msg")
	}},
	{name: "commit-msg hook body swapped for exit 0 for a wip commit", trick: "hook copied aside, replaced by `exit 0`, restored after the commit", work: func(w *world) {
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		w.shLine("cp -p .git/hooks/commit-msg /tmp/lazy39-cm-$$ && printf '#!/bin/sh\\nexit 0\\n' > .git/hooks/commit-msg && git commit -q -m wip; cp -p /tmp/lazy39-cm-$$ .git/hooks/commit-msg; rm -f /tmp/lazy39-cm-$$")
	}},
	{name: "commit-msg hook made non-executable, then the database deleted and a new session started", trick: "the wip commit's bypass lost with .git/sessiongate, a fresh session redoes the phases", work: func(w *world) {
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		w.shLine("chmod -x .git/hooks/commit-msg && git commit -q -m wip; chmod +x .git/hooks/commit-msg")
		w.shLine("rm -rf \"$(git rev-parse --git-common-dir)/sessiongate\"")
		r := w.sg("session", "start", "--objective", "Add a name argument to the greeting script")
		w.t.Logf("fresh start after the database was deleted: %s", oneLine(r.text(), 300))
		w.refreshID()
		w.advStartPhasesLoose()
	}},

	// --- commit all changes ---
	{name: "leftover change stashed before the end", trick: "an uncommitted edit to README.md put in `git stash` so the tree is clean", work: func(w *world) {
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): greet takes an optional name")
		w.write("README.md", "# greet\n\nUsage: sh scripts/greet.sh [name]\n")
	}, end: func(w *world) advEnd {
		return advEnd{inHandoff: func() { w.shLine("git stash push -q -- README.md") }}
	}},

	// Round 39's answer to the two rows above must not block these.
	{name: "honest: a backup branch of the work commit before its message was amended", trick: "`git branch backup` then `git commit --amend -m ...`: the backup holds the same change", honest: true, end: func(w *world) advEnd {
		return advEnd{inHandoff: func() {
			w.shLine("git branch backup-before-amend && git commit -q --amend -m 'feat(scripts): greet takes an optional name argument'")
		}}
	}},
	{name: "honest: a stash a person made before the session stays", trick: "an untracked note stashed before the start, left there", honest: true, pre: func(w *world) {
		w.write("notes-local.txt", "a person's scratch note\n")
		w.shLine("git stash push -q -u -m 'scratch'")
	}},
	{name: "leftover change parked on a side branch commit", trick: "`git switch -c parking; git commit -am 'chore: park'; git switch -`: the tree is clean, the change is on no branch of the session", work: func(w *world) {
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): greet takes an optional name")
		w.write("README.md", "# greet\n\nUsage: sh scripts/greet.sh [name]\n")
	}, end: func(w *world) advEnd {
		return advEnd{inHandoff: func() {
			w.shLine("git switch -q -c parking && git add README.md && git commit -q -m 'docs(readme): usage' && git switch -q feat/greet-name")
		}}
	}},

	// --- forced gates lost with the database, or a terminated session ---
	{name: "start gates forced, work committed, database deleted, fresh session", trick: "`session advance --force` x3, commit, `rm -rf .git/sessiongate`, new session does the start properly", start: func(w *world) {
		for i := 0; i < 3; i++ {
			w.sg("session", "advance", "--force", "--reason", "in a hurry")
		}
	}, work: func(w *world) {
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
			w.out.stoppedBy = "the work's commit under forced start gates refused: " + oneLine(r.text(), 300)
			return
		}
		w.shLine("rm -rf \"$(git rev-parse --git-common-dir)/sessiongate\"")
		r := w.sg("session", "start", "--objective", "Add a name argument to the greeting script")
		w.t.Logf("fresh start: %s", oneLine(r.text(), 300))
		w.refreshID()
		w.advStartPhasesLoose()
	}},
	{name: "start gates forced, work committed, session terminated, fresh session", trick: "`session advance --force` x3, commit, `session terminate`, new session does the start properly", start: func(w *world) {
		for i := 0; i < 3; i++ {
			w.sg("session", "advance", "--force", "--reason", "in a hurry")
		}
	}, work: func(w *world) {
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
			w.out.stoppedBy = "the work's commit under forced start gates refused: " + oneLine(r.text(), 300)
			return
		}
		w.t.Logf("terminate: %s", oneLine(w.sg("session", "terminate", w.id, "--reason", "starting over").text(), 200))
		r := w.sg("session", "start", "--objective", "Add a name argument to the greeting script")
		w.t.Logf("fresh start: %s", oneLine(r.text(), 300))
		w.refreshID()
		w.advStartPhasesLoose()
	}},

	// --- the protocol ---
	{name: "SESSIONGATE_PROTOCOL names a weaker copy outside the repository", trick: "the v3.0 protocol without the Handoff phase and the re-verify line, named by the env for every call", pre: func(w *world) {
		weak := strings.Replace(w.read("SESSION-PROTOCOL.md"), "- Re-verify the branch before commit.\n", "", 1)
		if i := strings.Index(weak, "### Phase 2: Handoff"); i >= 0 {
			j := strings.Index(weak, "### Phase 3: Git Operations")
			weak = weak[:i] + weak[j:]
		}
		p := filepath.Join(filepath.Dir(w.root), "weak-protocol.md")
		w.write(p, weak)
		w.env = append(w.env, "SESSIONGATE_PROTOCOL="+p)
	}, end: func(w *world) advEnd {
		return advEnd{skipReverify: true, handoffBody: lazy39Template}
	}},

	{name: "pre-commit hook made non-executable for the work commit", trick: "`chmod -x .git/hooks/pre-commit; git commit; chmod +x`", work: func(w *world) {
		w.write("scripts/greet.sh", advCommitGreet)
		w.git("add", "-A")
		w.shLine("chmod -x .git/hooks/pre-commit && git commit -q -m 'feat(scripts): greet takes an optional name'; chmod +x .git/hooks/pre-commit")
	}},
	{name: "honest: retrospective marked not applicable (no durable learning)", trick: "the optional, conditional phase marked not applicable with a reason", honest: true, end: func(w *world) advEnd {
		return advEnd{afterGitOps: func() {
			if r := w.sg("session", "evidence", "--phase", "OPTIONAL_RETROSPECTIVE", "--not-applicable", "a one-line change: nothing durable was learned"); r.code != 0 {
				w.t.Logf("NA mark refused: %s", oneLine(r.text(), 300))
			}
		}}
	}},

	// --- amending ---
	{name: "work commit amended after GIT_OPERATIONS to wip with the commit-msg hook off", trick: "`chmod -x commit-msg; git commit --amend -m wip` once the phase passed", end: func(w *world) advEnd {
		return advEnd{afterGitOps: func() {
			w.shLine("chmod -x .git/hooks/commit-msg && git commit -q --amend -m wip; chmod +x .git/hooks/commit-msg")
		}}
	}},
	{name: "honest: handoff folded into the work commit with git commit --amend before GIT_OPERATIONS", trick: "one commit for work and handoff", honest: true, end: func(w *world) advEnd {
		return advEnd{reverifyWith: func() {
			w.advOK("re-verify", "run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "--amend", "--no-edit"); r.code != 0 {
				w.t.Logf("amend refused: %s", r.text())
			}
		}}
	}},
}

// refreshID reads the active session's id.
func (w *world) refreshID() {
	var st struct {
		Session struct {
			ID string `json:"id"`
		} `json:"session"`
	}
	if err := json.Unmarshal([]byte(w.sg("session", "status", "--json").out), &st); err == nil && st.Session.ID != "" {
		w.id = st.Session.ID
	}
}

// advStartPhasesLoose is advStartPhases without failing on a refusal.
func (w *world) advStartPhasesLoose() {
	w.sg("session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", contentHash, "--value", ".agents/HANDOFF.md")
	w.sg("session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", toolOutput, "--value", "task: add a name argument to scripts/greet.sh")
	w.sg("session", "advance")
	w.sg("run", "--requirement", "BRANCH_CHECK.run-git-branch-show", "--", "git", "branch", "--show-current")
	w.sg("session", "advance")
	w.sg("session", "advance")
}

func TestAdvLazy39Routes(t *testing.T) {
	t.Parallel()
	for _, r := range lazy39Rows {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			r.judge(t)
		})
	}
}

// judge plays the row and reports it: an honest row blocked or a lazy row
// through fails the test, unless the row is known (a lazy row through, an
// honest row blocked: logged).
func (r lazy39Row) judge(t *testing.T) {
	t.Helper()
	clean, said := r.play(t)
	if os.Getenv("LAZY_SAID") != "" {
		t.Logf("said: %s", said)
	}
	switch {
	case r.honest && clean:
		t.Logf("ROUTE RESULT %s: HONEST OK", r.name)
	case r.honest && r.known != "":
		t.Logf("ROUTE RESULT %s: HONEST BLOCKED, known (%s): %s", r.name, r.known, heldBy(said))
	case r.honest:
		t.Logf("ROUTE RESULT %s: HONEST BLOCKED: %s", r.name, heldBy(said))
		t.Errorf("honest row blocked: %s\n%s", r.name, said)
	case clean && r.known != "":
		t.Logf("ROUTE RESULT %s: GOT THROUGH, known (%s)\n%s", r.name, r.known, said)
	case clean:
		t.Logf("ROUTE RESULT %s: GOT THROUGH (%s)\n%s", r.name, r.trick, said)
		t.Errorf("lazy route got through: %s", r.name)
	default:
		msg := heldBy(said)
		if strings.HasPrefix(said, "the work's commit refused") || strings.HasPrefix(said, "session start refused") {
			msg = oneLine(said, 700)
		}
		t.Logf("ROUTE RESULT %s: STOPPED: %s", r.name, msg)
	}
}

// runLazyRows plays rows in parallel, each in its CI share
// (testshare.Sub); the variable env, when set, names the rows to play by
// their first word ("R1 D2").
func runLazyRows(t *testing.T, rows []lazy39Row, env string) {
	t.Parallel()
	f := strings.Fields(strings.ReplaceAll(os.Getenv(env), ",", " "))
	for _, r := range rows {
		if len(f) > 0 && !slices.Contains(f, strings.Fields(r.name)[0]) {
			continue
		}
		t.Run(r.name, func(t *testing.T) {
			testshare.Sub(t, r.name)
			t.Parallel()
			r.judge(t)
		})
	}
}
