package compliance_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Adversarial pass (issue "How to check": play the lazy agent). Each
// TestAdv* drives the real binary through one route a lazy agent with a
// shell can take, and fails while the route gets through: COMPLETE with a
// clean verify though the work a phase asks for was skipped. Each test's
// comment gives the route's exact commands; all are closed now, and the
// tests keep them closed.

// advProject is a project an adversarial test plays in: the v3.0-style
// protocol, its handoff and a README, plus files; needs are the programs
// the route needs (a skip, a failure under CI=true); qaCommand is what
// `sessiongate init` must make QA_VALIDATION's command ("" to not check).
type advProject struct {
	needs     []string
	files     [][2]string // path, body, written in order
	qaCommand string
	// beforeBranch runs after publishing, before the feature branch (e.g.
	// setting a file's mtime back).
	beforeBranch func(w *world)
	// afterInit runs after `sessiongate init`, before publishing (e.g. a
	// person taking QA's command out of sessiongate.yaml).
	afterInit func(w *world)
	// afterInitKey names what afterInit does when that depends on nothing
	// of the row's (no path of its world, no variable): the set-up is then
	// made once and copied (adv_template_test.go). "" builds it per row.
	afterInitKey string
}

// advProjectWorld is a repository holding p, adopted with `sessiongate
// init`, published on main, hooks installed, on a feature branch.
func advProjectWorld(t *testing.T, p advProject) *world {
	t.Helper()
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	for _, prog := range p.needs {
		if _, err := exec.LookPath(prog); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is missing (CI=true)", prog)
			}
			t.Skipf("%s is missing: the route needs it", prog)
		}
	}
	// A copy of the project's set-up made once (adv_template_test.go),
	// else the set-up here.
	w := templateWorld(t, p)
	if w == nil {
		w = newWorld(t)
		setUpProject(w, p)
	}
	if p.beforeBranch != nil {
		p.beforeBranch(w)
	}
	w.git("switch", "-q", "-c", "feat/greet-name")
	return w
}

// setUpProject writes p into w's empty repository, adopts it with
// `sessiongate init` and publishes it on main with the hooks installed.
func setUpProject(w *world, p advProject) {
	t := w.t
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(moduleRoot, "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatalf("read the v3.0-style protocol: %v", err)
	}
	w.write("SESSION-PROTOCOL.md", string(doc))
	w.write(".agents/HANDOFF.md", v3Handoff)
	w.write(".agents/handoffs/.gitkeep", "")
	w.write("README.md", "# greet\n")
	for _, f := range p.files {
		w.write(f[0], f[1])
	}
	w.sgOK("init")
	if p.qaCommand != "" && !strings.Contains(w.read("sessiongate.yaml"), p.qaCommand) {
		t.Fatalf("init did not make %s QA's command:\n%s", p.qaCommand, w.read("sessiongate.yaml"))
	}
	if p.afterInit != nil {
		p.afterInit(w)
	}
	publish(w)
}

// advQA is QA_VALIDATION done through cmd: its run bound to the run
// requirement and the claim that nothing failed (passed: what the output
// said). must: the run has to pass (an honest session); otherwise the
// lazy agent goes on whatever happens.
func (w *world) advQA(must bool, passed string, cmd ...string) {
	w.t.Helper()
	args := append([]string{"run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--"}, cmd...)
	ev := []string{"session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput,
		"--value", strings.Join(cmd, " ") + " reported no failure: " + passed}
	if must {
		w.advOK("QA run", args...)
		w.advOK("QA fix", ev...)
		return
	}
	w.sg(args...)
	w.sg(ev...)
}

// setMtimeBack sets a file's mtime an hour back, as a checkout an hour ago
// left it.
func (w *world) setMtimeBack(rel string) {
	w.t.Helper()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(w.root, rel), old, old); err != nil {
		w.t.Fatal(err)
	}
}

// advWorld is a repository under the v3.0-style protocol, adopted with
// `sessiongate init`, published on main, hooks installed, on a feature
// branch. withTests: the project has scripts/test.sh, which init makes
// QA_VALIDATION's command; without it init finds no test command.
func advWorld(t *testing.T, withTests bool) *world {
	t.Helper()
	p := advProject{files: [][2]string{{"scripts/greet.sh", greetScript}}}
	if withTests {
		p.files = append(p.files, [2]string{"scripts/test.sh", strings.Replace(greetTest,
			"for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n", "", 1)})
	}
	return advProjectWorld(t, p)
}

// advStart starts a session and returns its id.
func (w *world) advStart(objective string) string {
	w.t.Helper()
	// The id from start's own last line (`export SESSIONGATE_SESSION=ID`):
	// a `session status --json` after it was one more process per row.
	out := w.sgOK("session", "start", "--objective", objective)
	_, id, _ := strings.Cut(out, "export SESSIONGATE_SESSION=")
	if id = strings.TrimSpace(id); id == "" || strings.ContainsAny(id, " \n") {
		w.t.Fatalf("session start printed no session id:\n%s", out)
	}
	w.id = id
	return w.id
}

// advOK runs sessiongate and fails the test when it does not exit 0.
func (w *world) advOK(what string, args ...string) string {
	w.t.Helper()
	r := w.sg(args...)
	if r.code != 0 {
		w.t.Fatalf("%s: sessiongate %s: exit %d\n%s", what, strings.Join(args, " "), r.code, r.text())
	}
	return r.out
}

// advStartPhases does the start protocol as the protocol asks.
func (w *world) advStartPhases() {
	w.t.Helper()
	w.advOK("read the handoff", "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", contentHash, "--value", ".agents/HANDOFF.md")
	w.advOK("read the task", "session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", toolOutput, "--value", "task: add a name argument to scripts/greet.sh")
	w.advOK("advance past CONTEXT_RETRIEVAL", "session", "advance")
	w.advOK("branch check", "run", "--requirement", "BRANCH_CHECK.run-git-branch-show", "--", "git", "branch", "--show-current")
	w.advOK("advance past BRANCH_CHECK", "session", "advance")
	w.advOK("advance past SESSION_LOG", "session", "advance")
}

// advEnd is what the end protocol's lazy agent does differently.
type advEnd struct {
	qa           func() // in place of running scripts/test.sh for QA_VALIDATION
	skipReverify bool   // GIT_OPERATIONS' "Re-verify the branch before commit" not done
	// reverifyAfter: the branch is re-verified after the commit, not before.
	reverifyAfter bool
	handoffBody   string // the handoff's whole body ("": built from handoffDone)
	handoff       string // the session's handoff file ("" for .agents/handoffs/2026-08-20-01.md)
	handoffDone   string // its Done section ("" for the greet name argument)
	// inHandoff runs in HANDOFF after its evidence, before advancing (e.g.
	// committing the handoff there); GIT_OPERATIONS then commits only what
	// is left.
	inHandoff func()
	// reverifyWith replaces the branch re-check's command.
	reverifyWith func()
	// afterGitOps runs once GIT_OPERATIONS has passed, before the end
	// (e.g. a commit amended there).
	afterGitOps func()
}

// changedSinceBase lists the files changed since the verified base:
// committed, staged, unstaged and untracked (handoffs aside).
func (w *world) changedSinceBase() []string {
	var out []string
	for _, f := range strings.Split(w.git("diff", "--name-only", w.base)+"\n"+w.git("ls-files", "--others", "--exclude-standard"), "\n") {
		if f = strings.TrimSpace(f); f != "" && !strings.HasPrefix(f, ".agents/") && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// advWork makes the change the task asks for and commits it through the hooks.
func (w *world) advWork() {
	w.t.Helper()
	w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
		w.t.Fatalf("the work's commit refused after the start gates passed: %s", r.text())
	}
}

// advEndPhases does the end protocol as the protocol asks (QA through
// scripts/test.sh when qa), commits, ends the session and runs verify over
// the branch. It returns whether the session ended COMPLETE with no
// violation and verify passed, and what they said.
func (w *world) advEndPhases(o advEnd) (clean bool, said string) {
	w.t.Helper()
	w.advOK("enter the end protocol", "session", "advance")
	if o.qa != nil {
		o.qa()
	} else {
		w.advOK("QA run", "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
		w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "scripts/test.sh reported no failure: 1 validation(s) passed")
	}
	if r := w.sg("session", "advance"); r.code != 0 {
		if o.qa == nil && !w.deviated {
			w.t.Fatalf("QA_VALIDATION blocked an honest run: %s", r.text())
		}
		return false, "QA_VALIDATION blocked: " + r.text()
	}
	handoff := ".agents/handoffs/2026-08-20-01.md"
	if o.handoff != "" {
		handoff = o.handoff
	}
	done := "scripts/greet.sh takes an optional name.\n\n## Next\n\nDocument the name argument in the README."
	if o.handoffDone != "" {
		done = o.handoffDone
	} else if files := w.changedSinceBase(); len(files) > 0 && !slices.Contains(files, "scripts/greet.sh") {
		// A handoff names the session's own work (NamesTheWork): the
		// default speaks of greet.sh, which this session did not touch.
		done = "Changed " + strings.Join(files, ", ") + ".\n\n## Next\n\nNothing planned."
	}
	body := o.handoffBody
	if body == "" {
		body = "# Handoff " + strings.TrimSuffix(filepath.Base(handoff), ".md") + "\n\n## Done\n\n" + done + "\n"
	}
	w.write(handoff, body)
	if w.deviated {
		// The lazy agent's handoff may be refused as evidence (a
		// template left unfilled): the route is closed there.
		if r := w.sg("session", "evidence", "--requirement", "HANDOFF.complete-handoff-from-handoff", "--type", filePath, "--value", handoff); r.code != 0 {
			return false, "handoff evidence refused: " + r.text()
		}
	} else {
		w.advOK("handoff", "session", "evidence", "--requirement", "HANDOFF.complete-handoff-from-handoff", "--type", filePath, "--value", handoff)
	}
	if o.inHandoff != nil {
		o.inHandoff()
	}
	if r := w.sg("session", "advance"); r.code != 0 {
		if !w.deviated {
			w.t.Fatalf("HANDOFF blocked an honest run: %s", r.text())
		}
		return false, "HANDOFF blocked: " + r.text()
	}
	reverify := func() {
		w.advOK("re-verify the branch", "run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
	}
	if o.reverifyWith != nil {
		reverify = o.reverifyWith
	}
	if !o.skipReverify && !o.reverifyAfter {
		reverify()
	}
	w.git("add", "-A")
	if w.git("status", "--porcelain") != "" {
		if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(handoff): hand off the name argument"); r.code != 0 {
			w.t.Fatalf("handoff commit refused: %s", r.text())
		}
	}
	if o.reverifyAfter {
		reverify()
	}
	if r := w.sg("session", "advance"); r.code != 0 {
		if !o.skipReverify && !w.deviated {
			w.t.Fatalf("GIT_OPERATIONS blocked an honest run: %s", r.text())
		}
		return false, "GIT_OPERATIONS blocked: " + r.text()
	}
	if o.afterGitOps != nil {
		o.afterGitOps()
	}
	end := w.sg("session", "end", "--summary", "greet takes a name")
	v := w.sg("verify", w.base+"..HEAD")
	said = "session end: " + end.text() + "\nverify: " + v.text()
	clean = end.code == 0 && strings.Contains(end.text(), "COMPLETE: clean") && v.code == 0
	if clean && !w.deviated && strings.Contains(w.t.Name(), "Honest") {
		// "clean" reads phase statuses: a FAIL check in a phase shown as
		// skipped (an optional one) is not in it. An honest session must
		// record none either (issue 25's third count), read from the store.
		w.readViolations()
		if len(w.out.failedGates) > 0 || len(w.out.violations) > 0 {
			w.t.Errorf("an honest session ended clean but recorded false FAILs %v, violations %v", w.out.failedGates, w.out.violations)
		}
	}
	return clean, said
}

// TestAdvHonestControl is the session every TestAdv* route departs from,
// done as the protocol asks: it must end COMPLETE, clean, verify passing,
// so a TestAdv* failure is the route's, not the set-up's.
func TestAdvHonestControl(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	if clean, said := w.advEndPhases(advEnd{}); !clean {
		t.Errorf("an honest v3.0-style session did not end clean with a passing verify (a false block)\n%s", said)
	}
}
