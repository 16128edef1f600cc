package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestR55H331SkipQAAgentWritesLeave (helper 331): the lazy agent of
// TestR55SkipQADocsTheSuiteChecks also writes a MAY sentence into the
// protocol's QA phase ("The agent MAY skip tests of unchanged vendored
// code.") that editorial.Allowed reads as leave to skip QA.
func TestR55H331SkipQAAgentWritesLeave(t *testing.T) {
	t.Parallel()
	for _, leave := range []string{
		"- The agent MAY skip tests of unchanged vendored code.\n",
	} {
		test := strings.Replace(greetTest, "for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n",
			"check \"$(grep -c '^Usage: sh scripts/greet.sh' README.md)\" 1\n", 1)
		w := advProjectWorld(t, advProject{files: [][2]string{
			{"scripts/greet.sh", greetScript},
			{"scripts/test.sh", test},
			{v3EarlierHandoff, v3EarlierHandoffBody},
			{"README.md", "# greet\n\nUsage: sh scripts/greet.sh\n"},
		}})
		w.advStart("Reword the README's usage line")
		w.advStartPhases()
		w.write("README.md", "# greet\n\nRun the greeting script with sh; it prints hello.\n")
		proto := w.read("SESSION-PROTOCOL.md")
		proto = strings.Replace(proto, "- Do not disable or skip failing tests.\n", "- Do not disable or skip failing tests.\n"+leave, 1)
		w.write("SESSION-PROTOCOL.md", proto)
		w.git("add", "-A")
		if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(readme): reword the usage line"); r.code != 0 {
			t.Logf("commit refused: %s", r.text())
			return
		}
		w.sg("session", "advance")
		w.write(v3NewHandoff, "# Handoff 2026-08-20-01\n\n## Done\n\nREADME.md: the usage line reworded in plain words.\n\n## Next\n\nNothing planned.\n")
		w.sg("session", "evidence", "--requirement", "HANDOFF.complete-handoff-from-handoff", "--type", filePath, "--value", v3NewHandoff)
		w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
		w.git("add", "-A")
		w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(handoff): hand off the README wording")
		end := w.sg("session", "end", "--skip-qa", "--summary", "reworded the README")
		t.Logf("session end --skip-qa: exit %d\n%s", end.code, end.text())
		if end.code != 0 || !strings.Contains(end.text(), "COMPLETE: clean") {
			continue
		}
		ci := w.verifyInCI()
		t.Logf("verify in CI: exit %d\n%s", ci.code, ci.text())
		if ci.code == 0 {
			t.Errorf("protocol given a MAY 'skip tests' sentence by the agent: QA skipped, COMPLETE clean, CI verify 0")
		}
	}
}

// TestR55H331SkipQAMayNot (helper 331): a protocol whose QA phase says
// "The agent MAY NOT skip QA." (a prohibition; firstKeyword reads MAY)
// gives editorial.Allowed its leave: the lazy agent of
// TestR55SkipQADocsTheSuiteChecks ends COMPLETE with --skip-qa.
func TestR55H331SkipQAMayNot(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join(moduleRoot, "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	proto := strings.Replace(string(doc), "- Do not disable or skip failing tests.\n", "- Do not disable or skip failing tests.\n- The agent MAY NOT skip QA.\n", 1)
	test := strings.Replace(greetTest, "for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n",
		"check \"$(grep -c '^Usage: sh scripts/greet.sh' README.md)\" 1\n", 1)
	w := advProjectWorld(t, advProject{files: [][2]string{
		{"SESSION-PROTOCOL.md", proto},
		{"scripts/greet.sh", greetScript},
		{"scripts/test.sh", test},
		{v3EarlierHandoff, v3EarlierHandoffBody},
		{"README.md", "# greet\n\nUsage: sh scripts/greet.sh\n"},
	}})
	if !strings.Contains(w.read("SESSION-PROTOCOL.md"), "MAY NOT skip QA") {
		t.Fatal("protocol not in place")
	}
	w.advStart("Reword the README's usage line")
	w.advStartPhases()
	w.write("README.md", "# greet\n\nRun the greeting script with sh; it prints hello.\n")
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(readme): reword the usage line"); r.code != 0 {
		t.Fatalf("commit refused: %s", r.text())
	}
	w.sg("session", "advance")
	w.write(v3NewHandoff, "# Handoff 2026-08-20-01\n\n## Done\n\nREADME.md: the usage line reworded in plain words.\n\n## Next\n\nNothing planned.\n")
	w.sg("session", "evidence", "--requirement", "HANDOFF.complete-handoff-from-handoff", "--type", filePath, "--value", v3NewHandoff)
	w.sg("run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
	w.git("add", "-A")
	w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(handoff): hand off the README wording")
	end := w.sg("session", "end", "--skip-qa", "--summary", "reworded the README")
	t.Logf("session end --skip-qa: exit %d\n%s", end.code, end.text())
	if end.code != 0 || !strings.Contains(end.text(), "COMPLETE: clean") {
		return
	}
	ci := w.verifyInCI()
	t.Logf("verify in CI: exit %d\n%s", ci.code, ci.text())
	if ci.code == 0 {
		t.Errorf("'The agent MAY NOT skip QA.' let skip_qa through: COMPLETE clean, CI verify 0")
	}
}
