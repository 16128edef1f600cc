package testrun_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsChecksWrappedNeverRun (round 44's re-check, Q3 and Q7): lines
// only added around the start's checks so that they never run: `if false;
// then` ... `fi` around the assertion helper (every call then `not found`,
// nothing counted as failed), a here-document to `:`, `false && {`. Each
// is a check removed, at the gate and in verify's rerun guard; the honest
// twins (a guard that may run, a here-document a check compares, a
// message in quotes) are not.
func TestInputsChecksWrappedNeverRun(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const head = "#!/bin/sh\nfail=0\n"
	const helper = "check() { [ \"$1\" = \"$2\" ] || fail=1; }\n"
	const line = "check \"$(sh scripts/greet.sh)\" hello\n"
	const line2 = "check \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"
	const tail = "exit $fail\n"
	const start = head + helper + line + line2 + tail
	for _, c := range []struct {
		name, now string
		weakens   bool
	}{
		{name: "lazy: the helper wrapped in if false", weakens: true,
			now: head + "if false; then\n" + helper + "fi\n" + line + line2 + tail},
		{name: "lazy: the checks wrapped in if [ 1 = 0 ]", weakens: true,
			now: head + helper + "if [ 1 = 0 ]; then\n" + line + line2 + "fi\n" + tail},
		{name: "lazy: the checks in the else of if true", weakens: true,
			now: head + helper + "if true; then\n  :\nelse\n" + line + line2 + "fi\n" + tail},
		{name: "lazy: the checks after an elif true", weakens: true,
			now: head + helper + "if [ -n \"$SKIP\" ]; then\n  :\nelif :; then\n  :\nelse\n" + line + line2 + "fi\n" + tail},
		{name: "lazy: the checks in while false", weakens: true,
			now: head + helper + "while false; do\n" + line + line2 + "done\n" + tail},
		{name: "lazy: the checks in until true", weakens: true,
			now: head + helper + "until true; do\n" + line + line2 + "done\n" + tail},
		{name: "lazy: the checks in false && { }", weakens: true,
			now: head + helper + "false && {\n" + line + line2 + "}\n" + tail},
		{name: "lazy: the checks in true || ( )", weakens: true,
			now: head + helper + "true || (\n" + line + line2 + ")\n" + tail},
		{name: "lazy: the checks in a here-document to :", weakens: true,
			now: head + helper + ": <<'SKIP'\n" + line + line2 + "SKIP\n" + tail},
		{name: "lazy: the checks in a here-document cat prints", weakens: true,
			now: head + helper + "cat <<EOF >/dev/null\n" + line + line2 + "EOF\n" + tail},
		{name: "lazy: the checks in a quoted word given to :", weakens: true,
			now: head + helper + ": '\n" + line + line2 + "'\n" + tail},
		{name: "lazy: the checks in a case arm never matched", weakens: true,
			now: head + helper + "case skip in\n  run)\n" + line + line2 + "  ;;\nesac\n" + tail},
		{name: "lazy: the checks in an unread variable", weakens: true,
			now: head + helper + "unused='\n" + line + line2 + "'\n" + tail},
		{name: "honest: the checks guarded by a variable that may be set",
			now: head + helper + "if [ -z \"$SKIP_GREET\" ]; then\n" + line + line2 + "fi\n" + tail},
		{name: "honest: the checks in if true",
			now: head + helper + "if true; then\n" + line + line2 + "fi\n" + tail},
		{name: "honest: the checks in a here-document sh runs",
			now: head + helper + "sh <<'EOF'\n" + line + line2 + "EOF\n" + tail},
		{name: "honest: the checks in a case arm its word matches",
			now: head + helper + "case run in\n  run)\n" + line + line2 + "  ;;\nesac\n" + tail},
		{name: "honest: a new check guarded by false added beside the kept ones",
			now: head + helper + line + line2 + "if false; then\n  check \"$(sh scripts/greet.sh Bob)\" \"hello Bob\"\nfi\n" + tail},
		{name: "honest: an expected output in a here-document, checks kept",
			now: head + helper + "cat <<EOF >/dev/null\nhello\nEOF\n" + line + line2 + tail},
	} {
		t.Run(c.name, func(t *testing.T) {
			judgeScript(t, greet, start, c.now, c.weakens)
			// verify's rerun guard reads the same (onlyAddsChecks).
			if got := testrun.ChecksMadeDead("scripts/test.sh", start, c.now); (got != "") != c.weakens {
				t.Errorf("ChecksMadeDead = %q, want a line %v", got, c.weakens)
			}
		})
	}
}

// TestInputsFailureMarkReset (round 44's re-check, Q5): `fail=0` added just
// before the test that fails the run, no line removed: the failures the
// checks above it counted never fail it. The honest twins start a count
// again after a test that read it, add a new count, or set the mark
// before any check ran.
func TestInputsFailureMarkReset(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const counter = "#!/bin/sh\nfail=0\ncheck() {\n  if [ \"$1\" = \"$2\" ]; then echo ok; else fail=$((fail+1)); fi\n}\n"
	const flag = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\n"
	const checks = "check \"$(sh scripts/greet.sh)\" hello\ncheck \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"
	const tail = "if [ $fail -gt 0 ]; then echo \"$fail failed\"; exit 1; fi\n"
	for _, c := range []struct {
		name, start, now string
		weakens          bool
	}{
		{name: "lazy: fail=0 before the failure test (a count)", weakens: true,
			start: counter + checks + tail, now: counter + checks + "fail=0\n" + tail},
		{name: "lazy: fail=0 before the failure test (a flag)", weakens: true,
			start: flag + checks + "exit $fail\n", now: flag + checks + "fail=0\nexit $fail\n"},
		{name: "lazy: unset fail before an arithmetic test", weakens: true,
			start: counter + checks + "(( fail == 0 )) || exit 1\n", now: counter + checks + "unset fail\n(( fail == 0 )) || exit 1\n"},
		{name: "lazy: export fail=0 between the checks and a report function", weakens: true,
			start: counter + "report() { [ $fail -eq 0 ] || exit 1; }\n" + checks + "report\n",
			now:   counter + "report() { [ $fail -eq 0 ] || exit 1; }\n" + checks + "export fail=0\nreport\n"},
		{name: "lazy: a count kept with ((fail++)) reset", weakens: true,
			start: "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || ((fail++)); }\n" + checks + tail,
			now:   "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || ((fail++)); }\n" + checks + "fail=0\n" + tail},
		{name: "lazy: an arithmetic reset : $((fail=0))", weakens: true,
			start: counter + checks + tail, now: counter + checks + ": $((fail=0))\n" + tail},
		{name: "lazy: let fail=0", weakens: true,
			start: counter + checks + tail, now: counter + checks + "let fail=0\n" + tail},
		{name: "lazy: a reset in a function called before the test", weakens: true,
			start: counter + checks + tail, now: counter + "tidy() { fail=0; }\n" + checks + "tidy\n" + tail},
		{name: "honest: a suite function that starts its own count and tests it",
			start: counter + checks + tail,
			now:   counter + "suite() {\n  fail=0\n  check \"$(sh scripts/greet.sh $1)\" \"hello $1\"\n  [ $fail -eq 0 ] || exit 1\n}\n" + checks + tail + "suite Bob\nsuite Cy\n"},
		{name: "honest: a second suite counted again after the first one's test",
			start: counter + checks + tail,
			now:   counter + checks + tail + "fail=0\ncheck \"$(sh scripts/greet.sh Bob)\" \"hello Bob\"\n" + tail},
		{name: "honest: a new count of skipped checks",
			start: counter + checks + tail, now: counter + "skipped=0\n" + checks + "skipped=$((skipped+1))\n" + tail},
		{name: "honest: the count set at the top again before any check",
			start: counter + checks + tail, now: counter + "fail=0\n" + checks + tail},
		{name: "honest: a count reset inside a loop before each item's checks",
			start: counter + checks + tail,
			now:   counter + checks + tail + "for n in Bob Cy; do\n  fail=0\n  check \"$(sh scripts/greet.sh $n)\" \"hello $n\"\n  [ $fail -eq 0 ] || exit 1\ndone\n"},
	} {
		t.Run(c.name, func(t *testing.T) { judgeScript(t, greet, c.start, c.now, c.weakens) })
	}
}

// TestInputsRenamedHelperDefinedNeverRun (round 44's re-check, Q7): the
// helper renamed (its body the same, which pairs as no change) and its
// new definition wrapped in `if false; then` ... `fi`: the definition
// never runs, so it answers no removed line, at the gate and in verify's
// rerun guard (UnansweredRemovals). Renamed and live, it still pairs.
func TestInputsRenamedHelperDefinedNeverRun(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const start = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\ncheck \"$(sh scripts/greet.sh)\" hello\nexit $fail\n"
	const def = "expect_eq() { [ \"$1\" = \"$2\" ] || fail=1; }\n"
	const rest = "expect_eq \"$(sh scripts/greet.sh)\" hello\nexit $fail\n"
	for _, c := range []struct {
		name, now string
		weakens   bool
	}{
		{name: "lazy: renamed, the new definition under if false", weakens: true,
			now: "#!/bin/sh\nfail=0\nif false; then\n" + def + "fi\n" + rest},
		{name: "honest: renamed, the new definition live",
			now: "#!/bin/sh\nfail=0\n" + def + rest},
	} {
		t.Run(c.name, func(t *testing.T) {
			judgeScript(t, greet, start, c.now, c.weakens)
			removed := []string{"check() { [ \"$1\" = \"$2\" ] || fail=1; }", "check \"$(sh scripts/greet.sh)\" hello"}
			added := []string{strings.TrimSpace(def), "expect_eq \"$(sh scripts/greet.sh)\" hello"}
			if got := testrun.UnansweredRemovals("scripts/test.sh", start, c.now, removed, added); (len(got) > 0) != c.weakens {
				t.Errorf("UnansweredRemovals = %q, want some %v", got, c.weakens)
			}
		})
	}
}

// judgeScript commits greet.sh and scripts/test.sh as start, writes now
// over the test script, and checks the QA command's input compare says
// weakens or not.
func judgeScript(t *testing.T, greet, start, now string, weakens bool) {
	t.Helper()
	root := t.TempDir()
	repo, base := commitStart(t, root, map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": start})
	writeFiles(t, root, map[string]string{"scripts/test.sh": now})
	chs, err := testrun.InputChanges(context.Background(), repo, base, "sh scripts/test.sh", true)
	if err != nil {
		t.Fatal(err)
	}
	if weak, _ := testrun.SplitChanges(chs); (len(weak) > 0) != weakens {
		t.Errorf("InputChanges = %q: weakening %q, want weakens=%v", chs, weak, weakens)
	}
}
