package compliance_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cGreet is the start's greet.c; tests/run.sh expects "hello".
const cGreet = "#include <stdio.h>\n\n/* greet prints the greeting the tests expect. */\nint main(void) { puts(\"hello\"); return 0; }\n"

// makeWorld is advWorld for a C project built with make: `make test`
// builds build/greet (gitignored) from greet.c when greet.c is newer, then
// runs tests/run.sh; init makes `make test` QA_VALIDATION's command.
func makeWorld(t *testing.T) *world {
	t.Helper()
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	for _, p := range []string{"make", "cc"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is missing (CI=true)", p)
			}
			t.Skipf("%s is missing: the stale-build route needs it", p)
		}
	}
	w := newWorld(t)
	doc, err := os.ReadFile(filepath.Join(moduleRoot, "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatalf("read the v3.0-style protocol: %v", err)
	}
	w.write("SESSION-PROTOCOL.md", string(doc))
	w.write(".agents/HANDOFF.md", v3Handoff)
	w.write(".agents/handoffs/.gitkeep", "")
	w.write("README.md", "# greet\n")
	w.write(".gitignore", "build/\n")
	w.write("greet.c", cGreet)
	w.write("Makefile", ".PHONY: test\ntest: build/greet\n\tsh tests/run.sh\n\nbuild/greet: greet.c\n\tmkdir -p build && cc -o build/greet greet.c\n")
	w.write("tests/run.sh", "#!/bin/sh\ngot=$(build/greet)\nif [ \"$got\" != hello ]; then echo \"FAIL: got '$got', want 'hello'\"; exit 1; fi\necho \"1 validation(s) passed\"\n")
	w.sgOK("init")
	if !strings.Contains(w.read("sessiongate.yaml"), "make test") {
		t.Fatalf("init did not make `make test` QA's command:\n%s", w.read("sessiongate.yaml"))
	}
	publish(w)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(w.root, "greet.c"), old, old); err != nil {
		t.Fatal(err)
	}
	w.git("switch", "-q", "-c", "feat/greet-name")
	return w
}

// makeQA is the QA run of a make project.
func (w *world) makeQA(must bool) {
	w.t.Helper()
	args := []string{"run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "make", "test"}
	ev := []string{"session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "make test reported no failure: 1 validation(s) passed"}
	if must {
		w.advOK("QA run", args...)
		w.advOK("QA fix", ev...)
		return
	}
	w.sg(args...)
	w.sg(ev...)
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
