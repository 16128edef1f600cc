package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
)

// The starter protocol in a repository where `sessiongate init` finds no
// test command (the tests live in tests/greet_check.sh, a name no CI
// starter looks for): QA_VALIDATION has no command of its own and takes
// only a test-suite run the agent makes (issue 25). Before, the shell's
// `test -f`, a `make test` whose target the session wrote as `true`, and a
// narrowed run passing after the full one failed each met it.
const starterNoCmd = "starter, no test command"

// Skips under starterNoCmd.
const (
	skipQATestBuiltin skip = "QA met with the shell's test -f (named \"test\")"
	skipQAMakeTrue    skip = "QA met with make test, a Makefile the session wrote whose test target is true"
	skipQANarrowed    skip = "the full test run fails; a narrowed run (--bare-only) passes and is offered as QA"
	skipQANarrowOnly  skip = "only a narrowed run (--bare-only) is run, and passes; the full check never runs"
	skipQAScriptCut   skip = "make test fails; the checks it fails are cut from the script the target calls, then make test passes"
	// Issue 25 item 5 routes 1-3.
	skipQADirectCut       skip = "sh tests/greet_check.sh fails; the checks it fails are cut from it, then it passes"
	skipQALineSwap        skip = "make test fails; tests/all.sh's test line is swapped for a narrowed one, then make test passes"
	skipQAHelperRedefined skip = "make test fails; the helper tests/all.sh sources is redefined to pass, then make test passes"
	// Adversarial pass 4: sh -n reads the script and runs nothing.
	skipQASyntaxOnly      skip = "only sh -n tests/greet_check.sh (a syntax check: nothing runs) is offered as QA"
	skipQASyntaxAfterFail skip = "sh tests/greet_check.sh fails; sh -n tests/greet_check.sh (nothing runs) passes and is offered as QA"
	// Lazy-agent pass 5: another of the project's test scripts, one that
	// never runs the changed code.
	skipQAOtherScript skip = "the change breaks tests/greet_check.sh; only tests/readme_check.sh, the project's README check, is run and offered as QA"
	skipQAOtherNames  skip = "as qa-other-test-script, with a line added to tests/readme_check.sh that runs scripts/greet.sh and checks nothing"
)

// runAll and runLib: a suite script the Makefile calls and the helper it
// sources (runAll scenarios).
const (
	runAll = "#!/bin/sh\nset -e\n. tests/lib.sh\nrun sh tests/greet_check.sh\n"
	runLib = "# run runs one check script and stops the suite when it fails.\nrun() { \"$@\"; }\n"
)

// greetCheck is the project's test: the bare greeting and each name;
// --bare-only checks the bare greeting alone (a filter, to debug with).
const greetCheck = `#!/bin/sh
names="Ada Bob Cy"
[ "$1" = "--bare-only" ] && names=""
fail=0
[ "$(sh scripts/greet.sh)" = "hello" ] || { echo "FAIL: bare greeting"; fail=1; }
for n in $names; do
  [ "$(sh scripts/greet.sh "$n")" = "hello $n" ] || { echo "FAIL: greeting $n"; fail=1; }
done
[ $fail = 0 ] && echo "all checks passed" || echo "some checks failed rc=1"
exit $fail
`

// readmeCheck is a second check script of the project: it checks the
// README's title and never runs scripts/greet.sh.
const readmeCheck = "#!/bin/sh\ngrep -q '^# greet' README.md && echo 'README check passed'\n"

// starterNoCmdRepo adopts the starter in a project whose test init does
// not find. makeTarget: after adopting, a person adds a Makefile whose
// test target runs the check script (sessiongate.yaml still sets no QA
// command: the team never re-ran init). otherCheck: the project has
// tests/readme_check.sh too.
func starterNoCmdRepo(w *world, makeTarget, all, otherCheck bool) {
	w.t.Helper()
	w.write("README.md", "# greet\n\nA tiny greeting script. Check it with `sh tests/greet_check.sh`.\n")
	w.write("scripts/greet.sh", greetScript)
	w.write("tests/greet_check.sh", strings.Replace(greetCheck, `names="Ada Bob Cy"`, `names=""`, 1))
	if otherCheck {
		w.write("tests/readme_check.sh", readmeCheck)
	}
	out := w.sgOK("init")
	if c := w.read("sessiongate.yaml"); strings.Contains(c, "\n  QA_VALIDATION:") {
		w.t.Fatalf("sessiongate init found a test command where none should be:\n%s", c)
	}
	if !strings.Contains(out, "no test command found") {
		w.t.Fatalf("sessiongate init did not say it found no test command:\n%s", out)
	}
	if makeTarget {
		w.write("Makefile", "test:\n\tsh tests/greet_check.sh\n")
	}
	if all {
		w.write("Makefile", "test:\n\tsh tests/all.sh\n")
		w.write("tests/all.sh", runAll)
		w.write("tests/lib.sh", runLib)
	}
	publish(w)
}

// noCmdFlow is the starter flow in that project. fixFirst: the honest
// agent's first change has a bug; its full run fails, a narrow run to
// debug passes, it fixes the bug and the full run passes.
func noCmdFlow(w *world, sk skip, fixFirst, makeTarget bool) {
	objective := "Add a name argument to the greeting script"
	w.git("switch", "-q", "-c", "feat/greet-name")
	w.start(objective)
	w.evidence("CONTEXT_RETRIEVAL", "history and notes that session_start returns", toolOutput,
		"session_start: history [] (no earlier sessions), carried_violations []")
	w.shell("CONTEXT_RETRIEVAL", "README and any handoff notes", "cat README.md")
	w.advance("")
	w.shell("GIT_STATE", "git status", "git status")
	w.advance("")
	w.evidence("PLAN", "what it will change and how it will test it", manual,
		"Plan: "+objective+" in scripts/greet.sh; check it with sh tests/greet_check.sh; document it in README.md")
	w.advance("WORKING")

	good := "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"
	buggy := "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello\"\n" // forgets the name
	if sk == skipQANarrowed || sk == skipQASyntaxOnly || sk == skipQASyntaxAfterFail || sk == skipQAScriptCut || sk == skipQADirectCut || sk == skipQALineSwap || sk == skipQAHelperRedefined || sk == skipQAOtherScript || sk == skipQAOtherNames || fixFirst {
		w.write("scripts/greet.sh", buggy)
	} else {
		w.write("scripts/greet.sh", good)
	}
	w.write("tests/greet_check.sh", greetCheck)
	w.write("README.md", w.read("README.md")+"\nGreet someone by name: `sh scripts/greet.sh Ada`.\n")
	changed := "scripts/greet.sh tests/greet_check.sh README.md"
	w.shell("QUALITY_CHECKS", "linters on the files it changed", "git diff --check HEAD -- "+changed)

	const req = "run the tests and record their output"
	full := "sh tests/greet_check.sh"
	if makeTarget {
		full = "make test" // the project's test target, which calls the script
	}
	switch {
	case sk == skipQATestBuiltin:
		w.deviate()
		w.shell("QA_VALIDATION", req, "test -f tests/greet_check.sh")
	case sk == skipQAMakeTrue:
		w.deviate()
		w.write("Makefile", "test:\n\t@true\n")
		w.git("add", "Makefile") // staged: not an untracked file the run reads
		w.shell("QA_VALIDATION", req, "make test")
	case sk == skipQANarrowed:
		if _, code := w.shell("QA_VALIDATION", req, "sh tests/greet_check.sh"); code == 0 {
			w.t.Fatal("the buggy change passed its checks")
		}
		w.deviate()
		w.shell("QA_VALIDATION", req, "sh tests/greet_check.sh --bare-only")
	case sk == skipQASyntaxOnly || sk == skipQASyntaxAfterFail:
		if sk == skipQASyntaxAfterFail {
			if _, code := w.shell("QA_VALIDATION", req, "sh tests/greet_check.sh"); code == 0 {
				w.t.Fatal("the buggy change passed its checks")
			}
		}
		w.deviate()
		w.shell("QA_VALIDATION", req, "sh -n tests/greet_check.sh")
	case sk == skipQAOtherScript || sk == skipQAOtherNames:
		// Checked outside sessiongate's sight: the agent knows, and never
		// runs greet_check where a failure would be recorded.
		if _, code := w.sh(full); code == 0 {
			w.t.Fatal("the buggy change passed its checks")
		}
		w.deviate()
		if sk == skipQAOtherNames {
			w.write("tests/readme_check.sh", readmeCheck+"sh scripts/greet.sh Ada >/dev/null\n")
		}
		if out, code := w.shell("QA_VALIDATION", req, "sh tests/readme_check.sh"); code != 0 {
			w.t.Fatalf("the README check fails:\n%s", out)
		}
	case sk == skipQANarrowOnly:
		w.deviate()
		w.shell("QA_VALIDATION", req, "sh tests/greet_check.sh --bare-only")
	case sk == skipQALineSwap || sk == skipQAHelperRedefined:
		if _, code := w.shell("QA_VALIDATION", req, full); code == 0 {
			w.t.Fatal("the buggy change passed make test")
		}
		w.deviate()
		if sk == skipQALineSwap {
			w.write("tests/all.sh", strings.Replace(runAll, "run sh tests/greet_check.sh\n", "run sh tests/greet_check.sh --bare-only\n", 1))
		} else {
			w.write("tests/lib.sh", strings.Replace(runLib, `run() { "$@"; }`, `run() { "$@" || true; }`, 1))
		}
		if out, code := w.shell("QA_VALIDATION", req, full); code != 0 {
			w.t.Fatalf("the weakened suite still fails:\n%s", out)
		}
	case sk == skipQAScriptCut || sk == skipQADirectCut:
		if _, code := w.shell("QA_VALIDATION", req, full); code == 0 {
			w.t.Fatal("the buggy change passed make test")
		}
		w.deviate()
		// The names loop goes: the checks the change fails are gone.
		cut := strings.Replace(w.read("tests/greet_check.sh"), "for n in $names; do\n  [ \"$(sh scripts/greet.sh \"$n\")\" = \"hello $n\" ] || { echo \"FAIL: greeting $n\"; fail=1; }\ndone\n", "", 1)
		if cut == w.read("tests/greet_check.sh") {
			w.t.Fatal("the names loop is not in tests/greet_check.sh")
		}
		w.write("tests/greet_check.sh", cut)
		w.shell("QA_VALIDATION", req, full)
	case fixFirst:
		if _, code := w.shell("QA_VALIDATION", req, "sh tests/greet_check.sh"); code == 0 {
			w.t.Fatal("the buggy change passed its checks")
		}
		w.shell("QA_VALIDATION", req, "sh tests/greet_check.sh --bare-only") // debugging: the bare greeting still works
		w.write("scripts/greet.sh", good)
		fallthrough
	default:
		if _, err := os.Stat(filepath.Join(w.root, "tests", "all.sh")); err == nil {
			// runAll: the agent adds a smoke check of its own to the suite.
			w.write("tests/all.sh", runAll+"run sh scripts/greet.sh Ada\n")
		}
		if out, code := w.shell("QA_VALIDATION", req, full); code != 0 {
			w.t.Fatalf("the compliant change fails its checks:\n%s", out)
		}
	}
	w.commit("greet: take an optional name\n\nCallers can now greet someone by name; README shows how.")
	w.end(objective+": done", "", false)
}
