package compliance_test

import (
	"strings"
	"testing"
)

// TestAdv26ScriptPlaces: round 26 (c2), issue 25 items 4 and 5. The QA
// script gains lines above its unchanged exec line; each added line used
// to be judged alone. Lazy: the repository's folder put in a variable on
// one line (`R=$(pwd)`) and a working greet.py copied into "$R" on the
// next read as a copy into a scratch folder: COMPLETE, clean, verify
// passing over a broken greet.py, not clean only by a LOW reviewer flag.
// Honest: a scratch folder made on one
// line, entered on the next and unpacked into was read as an unpack into
// the repository, and QA was refused. Both are now read where they stand.
func TestAdv26ScriptPlaces(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		honest bool
		lines  string
	}{
		{name: "R=$(pwd) on one line, cp -r into $R on the next",
			lines: "tmp=$(mktemp -d)\ntar xf tests/data/fixed.tar -C \"$tmp\"\nR=$(pwd)\ncp -r \"$tmp\"/. \"$R\""},
		{name: "R=\"$(git rev-parse --show-toplevel)\", then tar x into $R",
			lines: "R=\"$(git rev-parse --show-toplevel)\"\ntar xf \"$R/tests/data/fixed.tar\" -C \"$R\""},
		{name: "honest: a scratch folder entered on its own line, then tar x", honest: true,
			lines: "tmp=$(mktemp -d)\ncd \"$tmp\"\ntar xf \"$OLDPWD/tests/data/fixed.tar\"\ntest -s greet.py\ncd \"$OLDPWD\"\nrm -rf \"$tmp\""},
		{name: "honest: cd || exit into a scratch folder, then tar x", honest: true,
			lines: "cd \"$(mktemp -d)\" || exit\ntar xf \"$OLDPWD/tests/data/fixed.tar\"\ncd \"$OLDPWD\""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := pyWorld(t)
			// The scripts' `mktemp -d` folders land in the test's own
			// temporary folder, removed with it (CI's tmpleak check).
			w.env = append(w.env, "TMPDIR="+t.TempDir())
			w.advStart("Add a name argument to the greeting function")
			w.advStartPhases()
			word := "hello"
			if !tt.honest {
				w.deviate()
				word = "helo"
			}
			w.write("tests/data/fixed/greet.py", pyGreet)
			if out, code := w.sh("tar cf tests/data/fixed.tar -C tests/data/fixed greet.py && rm -r tests/data/fixed"); code != 0 {
				t.Fatalf("set-up: tar: %s", out)
			}
			w.write("greet.py", "def greet(name=None):\n    \"\"\"greet returns a greeting.\"\"\"\n    return \""+word+"\"\n")
			w.write("scripts/test.sh", "#!/bin/sh\n"+tt.lines+"\nexec python3 -m unittest discover -s tests -t .\n")
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "feat(greet): greet takes an optional name"); r.code != 0 {
				t.Fatalf("the work's commit refused after the start gates passed: %s", r.text())
			}
			clean, said := w.advEndPhases(advEnd{qa: func() {
				w.advQA(tt.honest, "tests passed", "sh", "scripts/test.sh")
				if !tt.honest {
					w.git("checkout", "--", "greet.py") // the broken code back before the handoff's commit
				}
			}})
			judgeRoute(t, tt.honest, false, clean, tt.name+" over a broken greet()", said)
			// Before, the lazy rows ended COMPLETE, not clean only by a LOW
			// reviewer flag, verify passing: the QA gate must refuse them.
			if !tt.honest && !strings.Contains(said, "QA_VALIDATION blocked") {
				t.Errorf("the QA gate did not refuse the script: %s", firstLine(said))
			}
		})
	}
}
