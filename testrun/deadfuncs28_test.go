package testrun_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsCheckMovedIntoUncalledFunction28 (round 28, c4; round 27 c2's
// open row): the statement compare pairs top-level statements, and the
// line compare found each check line still in the script, so a check
// moved into a function nothing calls (or defined and never run) read as
// the same script: the check never runs. An honest twin moves the checks
// into a function the script calls.
func TestInputsCheckMovedIntoUncalledFunction28(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const head = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\n"
	const line = "check \"$(sh scripts/greet.sh)\" hello\n"
	const line2 = "check \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"
	const tail = "exit $fail\n"
	for _, c := range []struct {
		name, now string
		weakens   bool
	}{
		{name: "lazy: the checks moved into a function never called", weakens: true,
			now: head + "unused() {\n" + line + line2 + "}\n" + tail},
		{name: "lazy: one check moved into a function never called", weakens: true,
			now: head + line + "later() {\n  " + line2 + "}\n" + tail},
		{name: "lazy: the function called only from another never called", weakens: true,
			now: head + "a() {\n" + line + line2 + "}\nb() { a; }\n" + tail},
		{name: "honest: a helper added and not yet called",
			now: head + line + line2 + "later() {\n  echo todo\n}\n" + tail},
		{name: "honest: the checks moved into a function the script calls",
			now: head + "main() {\n  " + line + "  " + line2 + "}\nmain\n" + tail},
		{name: "honest: a function called through a variable",
			now: head + "run_all() {\n" + line + line2 + "}\nf=run_all\n$f\n" + tail},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, start := commitStart(t, root, map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": head + line + line2 + tail})
			writeFiles(t, root, map[string]string{"scripts/test.sh": c.now})
			chs, err := testrun.InputChanges(context.Background(), repo, start, "sh scripts/test.sh", true)
			if err != nil {
				t.Fatal(err)
			}
			weak, _ := testrun.SplitChanges(chs)
			if (len(weak) > 0) != c.weakens {
				t.Errorf("InputChanges = %q: weakening %q, want weakens=%v", chs, weak, c.weakens)
			}
			// verify's rerun guard reads the same (onlyAddsChecks).
			// (A library of functions only, dead on both sides, compares
			// as before: TestInputsLibraryFunctionsDead28.)
			if got := testrun.ChecksMadeDead("scripts/test.sh", head+line+line2+tail, c.now); (got != "") != c.weakens {
				t.Errorf("ChecksMadeDead = %q, want a line %v", got, c.weakens)
			}
		})
	}
}

// TestInputsLibraryFunctionsDead28: a sourced library holds only
// functions, none called in it. A weakened check in one must still read as
// a changed line (the dead-function rule leaves a library's lines alone).
func TestInputsLibraryFunctionsDead28(t *testing.T) {
	gittest.Require(t)
	const lib = "check() {\n  [ \"$1\" = \"$2\" ] || exit 1\n  echo \"ok $1\"\n}\n"
	root := t.TempDir()
	repo, start := commitStart(t, root, map[string]string{"scripts/greet.sh": "echo hello\n", "scripts/lib.sh": lib,
		"scripts/test.sh": "#!/bin/sh\n. scripts/lib.sh\ncheck \"$(sh scripts/greet.sh)\" hello\n"})
	writeFiles(t, root, map[string]string{"scripts/lib.sh": "check() {\n  echo \"ok $1\"\n}\n"})
	chs, err := testrun.InputChanges(context.Background(), repo, start, "sh scripts/test.sh", true)
	if err != nil {
		t.Fatal(err)
	}
	if weak, _ := testrun.SplitChanges(chs); len(weak) == 0 {
		t.Errorf("InputChanges = %q: the library's check removed reads as no weakening", chs)
	}
}

// TestInputsScriptPopsBeforeLaterTests28 (round 27 c2's open row): the
// script gains `git stash -q; true; git stash pop -q` after its tests and
// the configured line runs pytest after it: with a clean tree the pop
// applies an older stash that pytest then reads.
func TestInputsScriptPopsBeforeLaterTests28(t *testing.T) {
	gittest.Require(t)
	const script = "#!/bin/sh\nsh scripts/greet.sh\n"
	// A change the start's script already made: not this session's.
	const stashed = "#!/bin/sh\ngit stash -q\npython3 -m pytest -q\ngit stash pop -q\n"
	for _, c := range []struct {
		name, line, now string
		weakens         bool
	}{
		{"lazy: a pop at the script's end, tests after it", "sh scripts/test.sh && python3 -m pytest -q", script + "git stash -q\ntrue\ngit stash pop -q\n", true},
		{"honest: the same script, nothing tested after it", "sh scripts/test.sh", script + "git stash -q\ntrue\ngit stash pop -q\n", false},
		{"honest: the start's script already had its stash, tests and pop; a check added", "sh scripts/test.sh && python3 -m pytest -q",
			stashed + "sh scripts/greet.sh Ada\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			start := script
			if strings.HasPrefix(c.name, "honest: the start's") {
				start = stashed
			}
			repo, start := commitStart(t, root, map[string]string{"scripts/greet.sh": "echo hello\n", "scripts/test.sh": start})
			writeFiles(t, root, map[string]string{"scripts/test.sh": c.now})
			chs, err := testrun.InputChanges(context.Background(), repo, start, c.line, false)
			if err != nil {
				t.Fatal(err)
			}
			if weak, _ := testrun.SplitChanges(chs); (len(weak) > 0) != c.weakens {
				t.Errorf("InputChanges = %q: weakening %q, want %v", chs, weak, c.weakens)
			}
		})
	}
}
