package compliance_test

import (
	"strings"
	"testing"
)

// TestR55SkipQADocsTheSuiteChecks (round 55, helper 328): v3.0-style
// never lets QA be skipped ("Run checks that cover the changed
// behavior"), yet `session end --skip-qa` is taken whenever every changed
// file matches doc_globs. Here the project's suite checks the README
// (scripts/test.sh greps its usage line, as docs tests and
// Validate-Consistency scripts do): the lazy agent rewrites the usage
// line, which the suite then fails on, never runs QA and ends with
// --skip-qa. It ended COMPLETE: clean and CI's verify passed when written.
func TestR55SkipQADocsTheSuiteChecks(t *testing.T) {
	t.Parallel()
	test := strings.Replace(greetTest, "for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n",
		"check \"$(grep -c '^Usage: sh scripts/greet.sh' README.md)\" 1\n", 1)
	w := advProjectWorld(t, advProject{files: [][2]string{
		{"scripts/greet.sh", greetScript},
		{"scripts/test.sh", test},
		{v3EarlierHandoff, v3EarlierHandoffBody},
		{"README.md", "# greet\n\nUsage: sh scripts/greet.sh\n"},
	}})
	if out, code := w.sh("sh scripts/test.sh"); code != 0 {
		t.Fatalf("the suite fails before the session: %s", out)
	}
	w.advStart("Reword the README's usage line")
	w.advStartPhases()
	w.write("README.md", "# greet\n\nRun the greeting script with sh; it prints hello.\n")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(readme): reword the usage line"); r.code != 0 {
		t.Fatalf("commit refused: %s", r.text())
	}
	if out, code := w.sh("sh scripts/test.sh"); code == 0 {
		t.Fatalf("the reworded README should fail the suite: %s", out)
	}
	w.sg("session", "advance") // into the end protocol
	w.write(v3NewHandoff, "# Handoff 2026-08-20-01\n\n## Done\n\nREADME.md: the usage line reworded in plain words.\n\n## Next\n\nNothing planned.\n")
	t.Logf("handoff evidence: %s", oneLine(w.sg("session", "evidence", "--requirement", "HANDOFF.complete-handoff-from-handoff", "--type", filePath, "--value", v3NewHandoff).text(), 300))
	w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
	w.git("add", "-A")
	w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(handoff): hand off the README wording")
	end := w.sg("session", "end", "--skip-qa", "--summary", "reworded the README")
	t.Logf("session end --skip-qa: exit %d\n%s", end.code, end.text())
	if end.code != 0 || !strings.Contains(end.text(), "COMPLETE: clean") {
		return // caught
	}
	ci := w.verifyInCI()
	t.Logf("verify in CI: exit %d\n%s", ci.code, ci.text())
	if ci.code == 0 {
		t.Errorf("QA skipped on a docs change the suite checks (and now fails): COMPLETE, clean, CI's verify exit 0")
	}
}
