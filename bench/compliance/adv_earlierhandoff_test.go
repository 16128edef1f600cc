package compliance_test

import (
	"strings"
	"testing"
)

// adv4Project is the v3.0-style project with an earlier session's
// handoff committed (.agents/handoffs/2026-08-19-01.md).
func adv4Project(t *testing.T) *world {
	t.Helper()
	return advProjectWorld(t, advProject{files: [][2]string{
		{"scripts/greet.sh", greetScript},
		{"scripts/test.sh", strings.Replace(greetTest, "for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n", "", 1)},
		{v3EarlierHandoff, v3EarlierHandoffBody},
	}})
}

// TestAdv4EarlierHandoffAppended: v3.0's template says "Create the handoff
// at .agents/handoffs/YYYY-MM-DD-NN.md", one per session. The lazy agent
// appends a line to the earlier session's handoff and records that:
//
//	echo 'Session 2026-08-20: greet takes an optional name.' >> .agents/handoffs/2026-08-19-01.md
//	sessiongate session evidence --requirement HANDOFF.complete-handoff-from-handoff --type file_path --value .agents/handoffs/2026-08-19-01.md
//
// Changed in this session, no copy under a new name, no placeholder:
// COMPLETE, clean, verify passing on the old code. Closed: a file of a
// family the requirement asks to create (or its template makes) that is in
// the starting commit is an earlier session's (session/writereq.go).
func TestAdv4EarlierHandoffAppended(t *testing.T) {
	t.Parallel()
	w := adv4Project(t)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	w.deviate()
	clean, said := w.adv4Finish(func() string {
		w.write(v3EarlierHandoff, v3EarlierHandoffBody+"\nSession 2026-08-20: greet takes an optional name.\n")
		return v3EarlierHandoff
	})
	if clean {
		t.Errorf("route gets through: a line appended to the earlier session's handoff; COMPLETE, clean, verify passing\n%s", said)
	}
	if !strings.Contains(said, "earlier session's") {
		t.Errorf("the refusal does not say the handoff is an earlier session's:\n%s", said)
	}
}

// TestAdv4EarlierHandoffHonest: the honest twin writes its own handoff and
// also fixes a typo in the earlier one (a change to an earlier session's
// file, not recorded as this session's handoff): it stays clean.
func TestAdv4EarlierHandoffHonest(t *testing.T) {
	t.Parallel()
	w := adv4Project(t)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	w.write(v3EarlierHandoff, strings.Replace(v3EarlierHandoffBody, "prints a greeting", "prints a greeting (fixed wording)", 1))
	if clean, said := w.advEndPhases(advEnd{}); !clean {
		t.Errorf("an honest session that also touched the earlier handoff did not end clean with a passing verify (a false block)\n%s", said)
	}
}

// adv4Finish does the end protocol as advEndPhases does, with the handoff
// recorded being what handoff writes and returns; a refused record or a
// blocked gate returns false with what was said.
func (w *world) adv4Finish(handoff func() string) (clean bool, said string) {
	w.t.Helper()
	w.advOK("enter the end protocol", "session", "advance")
	w.advOK("QA run", "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
	w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "scripts/test.sh reported no failure: 1 validation(s) passed")
	w.advOK("past QA", "session", "advance")
	if r := w.sg("session", "evidence", "--requirement", "HANDOFF.complete-handoff-from-handoff", "--type", filePath, "--value", handoff()); r.code != 0 {
		return false, "handoff refused: " + r.text()
	}
	if r := w.sg("session", "advance"); r.code != 0 {
		return false, "HANDOFF blocked: " + r.text()
	}
	w.advOK("re-verify the branch", "run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
	w.git("add", "-A")
	if w.git("status", "--porcelain") != "" {
		if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(handoff): hand off the name argument"); r.code != 0 {
			return false, "commit refused: " + r.text()
		}
	}
	if r := w.sg("session", "advance"); r.code != 0 {
		return false, "GIT_OPERATIONS blocked: " + r.text()
	}
	end := w.sg("session", "end", "--summary", "greet takes a name")
	v := w.sg("verify", w.base+"..HEAD")
	said = "session end: " + end.text() + "\nverify: " + v.text()
	return end.code == 0 && strings.Contains(end.text(), "COMPLETE: clean") && v.code == 0, said
}
