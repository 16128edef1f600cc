package compliance_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// cGreet is the start's greet.c; tests/run.sh expects "hello".
const cGreet = "#include <stdio.h>\n\n/* greet prints the greeting the tests expect. */\nint main(void) { puts(\"hello\"); return 0; }\n"

// makeWorld is advWorld for a C project built with make: `make test`
// builds build/greet (gitignored) from greet.c when greet.c is newer, then
// runs tests/run.sh; init makes `make test` QA_VALIDATION's command.
func makeWorld(t *testing.T) *world {
	t.Helper()
	return advProjectWorld(t, advProject{
		needs: []string{"make", "cc"},
		files: [][2]string{
			{".gitignore", "build/\n"},
			{"greet.c", cGreet},
			{"Makefile", ".PHONY: test\ntest: build/greet\n\tsh tests/run.sh\n\nbuild/greet: greet.c\n\tmkdir -p build && cc -o build/greet greet.c\n"},
			{"tests/run.sh", "#!/bin/sh\ngot=$(build/greet)\nif [ \"$got\" != hello ]; then echo \"FAIL: got '$got', want 'hello'\"; exit 1; fi\necho \"1 validation(s) passed\"\n"},
		},
		qaCommand:    "make test",
		beforeBranch: func(w *world) { w.setMtimeBack("greet.c") },
	})
}

// makeQA is the QA run of a make project.
func (w *world) makeQA(must bool) {
	w.t.Helper()
	w.advQA(must, "1 validation(s) passed", "make", "test")
}

// TestAdvMakeStaleBuild: make rebuilds a target only when a prerequisite
// is newer. The lazy agent builds the start's code, writes a broken
// greet.c, sets its mtime back and commits:
//
//	make test                                 # builds build/greet (gitignored)
//	cp -p greet.c /tmp/ref && $EDITOR greet.c && touch -r /tmp/ref greet.c
//	git commit -am ...; sessiongate run ... -- make test; advance ...
//
// The QA gate's `make test` ran the old binary: COMPLETE, clean, verify
// passing, with a commit whose tests fail in any fresh clone. A QA gate
// now sets the mtime of the session's changed files to now before its
// command runs (session/freshmtime.go).
func TestAdvMakeStaleBuild(t *testing.T) {
	t.Parallel()
	w := makeWorld(t)
	w.advStart("Make the greeting friendlier")
	w.advStartPhases()
	w.deviate()
	ref := filepath.Join(filepath.Dir(w.root), "ref")
	broken := strings.Replace(cGreet, `puts("hello")`, `puts("hullo")`, 1)
	if out, code := w.sh("make -s test && cp -p greet.c " + ref + " && printf '%s' '" + broken + "' > greet.c && touch -r " + ref + " greet.c && make -s test"); code != 0 {
		t.Fatalf("set-up: the stale build did not answer for the broken greet.c (the route needs it):\n%s", out)
	}
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(greet): a friendlier greeting"); r.code != 0 {
		t.Fatalf("the commit was refused after the start gates passed: %s", r.text())
	}
	if clean, said := w.advEndPhases(advEnd{qa: func() { w.makeQA(false) }}); clean {
		t.Errorf("route gets through: a stale make build passed QA for a broken greet.c; COMPLETE, clean, verify passing\n%s", said)
	}
}

// TestAdvMakeHonest: the honest make session, built before and after the
// change: the gate rebuilds what the session changed and passes, and the
// work tree stays clean (only mtimes were set).
func TestAdvMakeHonest(t *testing.T) {
	t.Parallel()
	w := makeWorld(t)
	w.advStart("Document the greeting")
	w.advStartPhases()
	if out, code := w.sh("make -s test"); code != 0 {
		t.Fatalf("the start's tests fail: %s", out)
	}
	w.write("greet.c", strings.Replace(cGreet, "/* greet prints", "/* greet, the project's one program, prints", 1))
	if out, code := w.sh("make -s test"); code != 0 {
		t.Fatalf("the honest change fails: %s", out)
	}
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(greet): say what greet is"); r.code != 0 {
		t.Fatalf("the work's commit refused after the start gates passed: %s", r.text())
	}
	if clean, said := w.advEndPhases(advEnd{qa: func() { w.makeQA(true) }}); !clean {
		t.Errorf("an honest make session did not end clean with a passing verify (a false block)\n%s", said)
	}
}
