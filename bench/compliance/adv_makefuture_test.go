package compliance_test

import (
	"strings"
	"testing"
)

// TestAdvMakeFutureBuild: the QA gate sets the session's changed files to
// now before its command (TestAdvMakeStaleBuild), but a build output dated
// after now stays newer than they are. The lazy agent builds the start's
// code, writes a broken greet.c and dates the output a year ahead:
//
//	make test && $EDITOR greet.c && touch -d '+1 year' build/greet
//	git commit -am ...; sessiongate run ... -- make test; advance ...
//
// make kept the old binary: COMPLETE, clean, verify passing (fails on the
// code before session/freshmtime.go's clampFuture). A QA gate now sets
// anything in the work tree dated after now back before it, then sets the
// session's files to now.
func TestAdvMakeFutureBuild(t *testing.T) {
	t.Parallel()
	w := makeWorld(t)
	w.advStart("Make the greeting friendlier")
	w.advStartPhases()
	w.deviate()
	broken := strings.Replace(cGreet, `puts("hello")`, `puts("hullo")`, 1)
	if out, code := w.sh("make -s test && printf '%s' '" + broken + "' > greet.c && touch -d '+1 year' build/greet && make -s test"); code != 0 {
		t.Fatalf("set-up: the future-dated build did not answer for the broken greet.c (the route needs it):\n%s", out)
	}
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(greet): a friendlier greeting"); r.code != 0 {
		t.Fatalf("the commit was refused after the start gates passed: %s", r.text())
	}
	if clean, said := w.advEndPhases(advEnd{qa: func() { w.makeQA(false) }}); clean {
		t.Errorf("route gets through: a future-dated build output passed QA for a broken greet.c; COMPLETE, clean, verify passing\n%s", said)
	}
}

// TestAdvMakeFutureHonest: the honest make session whose build output is
// dated ahead (a clock that ran fast, an archive unpacked from another
// machine): the gate sets it back, make rebuilds, QA passes, clean.
func TestAdvMakeFutureHonest(t *testing.T) {
	t.Parallel()
	w := makeWorld(t)
	w.advStart("Document the greeting")
	w.advStartPhases()
	w.write("greet.c", strings.Replace(cGreet, "/* greet prints", "/* greet, the project's one program, prints", 1))
	if out, code := w.sh("make -s test && touch -d '+1 year' build/greet build"); code != 0 {
		t.Fatalf("the honest change fails: %s", out)
	}
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(greet): say what greet is"); r.code != 0 {
		t.Fatalf("the work's commit refused after the start gates passed: %s", r.text())
	}
	if clean, said := w.advEndPhases(advEnd{qa: func() { w.makeQA(true) }}); !clean {
		t.Errorf("an honest make session with a future-dated build did not end clean with a passing verify (a false block)\n%s", said)
	}
}
