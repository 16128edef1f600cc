package compliance_test

import (
	"strings"
	"testing"
)

// TestR55SkipQAAfterSupersededWork (round 55, helper 328): under the
// starter protocol ("MAY skip QA only when every changed file is
// documentation"), the broken work is committed in a first session (its
// start phases passed, so the hooks let it through), then `session start`
// again (the first session superseded, ABANDONED); the second session
// touches only the README and ends with --skip-qa. verify passes an
// abandoned session's commits when a later session started from them ends
// COMPLETE "having been judged on their work", but skip_qa's docs-only
// rule read only the second session's own diff: QA never ran on the broken
// greet.sh, the end was COMPLETE: clean and CI's verify exit 0 (failing
// first). Honest twin: a first session that changed only docs, resumed the
// same way, may still skip QA.
func TestR55SkipQAAfterSupersededWork(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		first  map[string]string // the superseded session's commit
		honest bool
	}{
		{"broken code in the superseded session", map[string]string{"scripts/greet.sh": "#!/bin/sh\n# greet prints a greeting.\necho \"helo${1:+ $1}\"\n"}, false},
		{"honest: docs only in both sessions", map[string]string{"README.md": "# greet\n\nA tiny greeting script, in POSIX sh.\n\n## Usage\n\n```sh\nsh scripts/greet.sh\n```\n"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			starterRepo(w, false)
			w.git("switch", "-q", "-c", "feat/greet-name")
			start := func(objective string) {
				w.advOK("start", "session", "start", "--objective", objective)
				w.refreshID()
				w.advOK("history", "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", toolOutput, "--value", "session_start: history [] (no earlier sessions), carried_violations []")
				w.advOK("read", "run", "--phase", "CONTEXT_RETRIEVAL", "--", "cat", "README.md")
				w.advOK("advance", "session", "advance")
				w.advOK("git status", "run", "--phase", "GIT_STATE", "--", "git", "status")
				w.advOK("advance", "session", "advance")
				w.advOK("plan", "session", "evidence", "--phase", "PLAN", "--type", manual, "--value", "Plan: "+objective+"; test with scripts/test.sh")
				w.advOK("advance", "session", "advance")
			}
			start("Give greet a name argument")
			for f, body := range c.first {
				w.write(f, body)
			}
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(scripts): greet takes an optional name"); r.code != 0 {
				t.Fatalf("first commit refused: %s", r.text())
			}
			start("Document the greeting script")
			w.write("README.md", w.read("README.md")+"\nGreet someone by name: `sh scripts/greet.sh Ada`.\n")
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(readme): show the name argument"); r.code != 0 {
				t.Fatalf("docs commit refused: %s", r.text())
			}
			end := w.sg("session", "end", "--skip-qa", "--summary", "documented the name argument")
			t.Logf("session end --skip-qa: exit %d\n%s", end.code, end.text())
			ended := end.code == 0 && strings.Contains(end.text(), "COMPLETE")
			if !ended {
				if c.honest {
					t.Errorf("an honest docs-only session resumed after a docs-only one may not skip QA (a false block): %s", end.text())
				}
				return
			}
			ci := w.verifyInCI()
			t.Logf("verify in CI: exit %d\n%s", ci.code, ci.text())
			switch {
			case c.honest && ci.code != 0:
				t.Errorf("honest docs-only sessions failed CI's verify")
			case !c.honest && ci.code == 0:
				t.Errorf("broken work of a superseded session passed CI: the next session skipped QA as docs-only")
			}
		})
	}
}
