package compliance_test

import (
	"strings"
	"testing"
)

// TestR63H361WorkUndoneAfterHandoff: helper 361 played the v3.0-style
// protocol with the real binary: the work committed (`feat(scripts): greet
// takes an optional name`), QA passed on it, the handoff written ("scripts/
// greet.sh takes an optional name") and HANDOFF passed; then greet.sh was
// put back as it was at the start and that committed, with the handoff as
// `chore:` or on its own as `chore: tidy greet` before GIT_OPERATIONS. The
// branch held only the handoff and the end said COMPLETE, clean, verify
// passing: HANDOFF's claim was judged while the commit still held the
// change. The honest twins: the plain session, and one whose last commit
// after HANDOFF adds to the README (the claimed change still there).
func TestR63H361WorkUndoneAfterHandoff(t *testing.T) {
	for _, c := range []struct {
		name string
		// after HANDOFF passed, before the last commit
		after  func(w *world)
		commit string // the last commit's message
		lazy   bool
	}{
		{"lazy: greet.sh put back, committed with the handoff as chore", func(w *world) {
			w.write("scripts/greet.sh", greetScript)
		}, "chore: hand off the name argument", true},
		{"lazy: greet.sh put back in its own chore commit", func(w *world) {
			w.write("scripts/greet.sh", greetScript)
			if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "chore(scripts): tidy greet", "--", "scripts/greet.sh"); r.code != 0 {
				w.t.Fatalf("commit refused: %s", r.text())
			}
		}, "chore: hand off the name argument", true},
		{"honest: the plain session", func(*world) {}, "docs(handoff): hand off the name argument", false},
		{"honest: a README line added after HANDOFF", func(w *world) {
			w.write("README.md", "# greet\n\n`sh scripts/greet.sh [NAME]` prints a greeting.\n")
		}, "docs: hand off the name argument, say it in the README", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := advWorld(t, true)
			w.advStart("greet.sh takes an optional name argument")
			w.advStartPhases()
			w.advWork()
			w.advOK("enter the end protocol", "session", "advance")
			w.advOK("QA run", "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
			w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "scripts/test.sh reported no failure: 1 validation(s) passed")
			w.advOK("advance past QA", "session", "advance")
			handoff := ".agents/handoffs/2026-08-20-01.md"
			w.write(handoff, "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name.\n\n## Next\n\nDocument the name argument in the README.\n")
			w.advOK("handoff", "session", "evidence", "--requirement", "HANDOFF.complete-handoff-from-handoff", "--type", filePath, "--value", handoff)
			w.advOK("advance past HANDOFF", "session", "advance")
			if c.lazy {
				w.deviate()
			}
			c.after(w)
			w.advOK("re-verify the branch", "run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
			w.commit(c.commit)
			adv := w.sg("session", "advance")
			end := w.sg("session", "end", "--summary", "greet takes a name")
			v := w.sg("verify", w.base+"..HEAD")
			said := "advance: " + adv.text() + "\nend: " + end.text() + "\nverify: " + v.text()
			clean := adv.code == 0 && end.code == 0 && strings.Contains(end.text(), "COMPLETE: clean") && v.code == 0
			switch {
			case c.lazy && clean:
				t.Fatalf("the work undone after HANDOFF passed, the branch holding only the handoff that claims it: COMPLETE, clean, verify OK\n%s", said)
			case c.lazy && !strings.Contains(said, "which this session did not change"):
				t.Errorf("stopped, but not for the handoff's claim:\n%s", said)
			case !c.lazy && !clean:
				t.Errorf("an honest session was stopped (a false block)\n%s", said)
			}
		})
	}
}
