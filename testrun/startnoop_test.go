package testrun_test

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestInputsStartLinesThatNeverRan (round 47, helper-296's honest pass):
// the start's test script held lines that never ran (an old `if false`
// debug block, a `: <<'NOTE'` comment, a `while false` loop, a function
// nothing calls, a banner cat prints). Removing or rewording them removes
// no check, yet the line compare read them as removed checks. The lazy
// twins remove a live check beside them, or reword a here-document a
// check compares.
func TestInputsStartLinesThatNeverRan(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const head = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\n"
	const line = "check \"$(sh scripts/greet.sh)\" hello\n"
	const line2 = "check \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"
	const tail = "exit $fail\n"
	const debug = "if false; then\n  set -x\n  check \"$(sh scripts/greet.sh Bob)\" \"hello Bob\"\n  env | sort\nfi\n"
	const note = ": <<'NOTE'\nTODO: check greet with two names\ncheck \"$(sh scripts/greet.sh A B)\" \"hello A B\"\nNOTE\n"
	const whileFalse = "while false; do\n  check \"$(sh scripts/greet.sh Cy)\" \"hello Cy\"\ndone\n"
	const uncalled = "old_check() {\n  check \"$(sh scripts/greet.sh Di)\" \"hello Di\"\n}\n"
	const banner = "cat <<EOF\n== greet tests ==\nrunning on $(uname)\nEOF\n"
	const banner2 = "cat <<EOF\n== tests of greet.sh ==\nrunning on $(uname)\nEOF\n"
	for _, c := range []struct {
		name, start, now string
		weakens          bool
	}{
		{name: "honest: an old if false debug block removed",
			start: head + debug + line + line2 + tail, now: head + line + line2 + tail},
		{name: "honest: a : <<'NOTE' comment removed",
			start: head + note + line + line2 + tail, now: head + line + line2 + tail},
		{name: "honest: a while false loop removed",
			start: head + line + whileFalse + line2 + tail, now: head + line + line2 + tail},
		{name: "honest: a function nothing calls removed",
			start: head + uncalled + line + line2 + tail, now: head + line + line2 + tail},
		{name: "honest: the banner cat prints reworded",
			start: head + banner + line + line2 + tail, now: head + banner2 + line + line2 + tail},
		{name: "honest: the banner cat prints removed",
			start: head + banner + line + line2 + tail, now: head + line + line2 + tail},
		{name: "honest: a function nothing calls, named in a comment, removed",
			start: head + "# old_check checked the old script; nothing calls it.\n" + uncalled + line + line2 + tail, now: head + line + line2 + tail},
		{name: "limit: a function nothing calls removed from a file that does not exit (it may be a library)", weakens: true,
			start: head + uncalled + line + line2, now: head + line + line2},
		{name: "lazy: the debug block removed with a live check", weakens: true,
			start: head + debug + line + line2 + tail, now: head + line + tail},
		{name: "lazy: the debug block unwrapped, a live check removed", weakens: true,
			start: head + "if true; then\n" + line2 + "fi\n" + line + tail, now: head + line + tail},
		{name: "lazy: a live check moved into the never-run block", weakens: true,
			start: head + debug + line + line2 + tail,
			now:   head + "if false; then\n  set -x\n  " + line2 + "fi\n" + line + tail},
		{name: "lazy: an expected output a check compares reworded", weakens: true,
			start: head + "want=$(cat <<EOF\nhello\nEOF\n)\ncheck \"$(sh scripts/greet.sh)\" \"$want\"\n" + tail,
			now:   head + "want=$(cat <<EOF\nhello, world\nEOF\n)\ncheck \"$(sh scripts/greet.sh)\" \"$want\"\n" + tail},
		{name: "lazy: a here-document cat writes for diff reworded", weakens: true,
			start: head + "cat <<EOF > /tmp/want\nhello\nEOF\nsh scripts/greet.sh | diff - /tmp/want || fail=1\n" + tail,
			now:   head + "cat <<EOF > /tmp/want\nhello there\nEOF\nsh scripts/greet.sh | diff - /tmp/want || fail=1\n" + tail},
		{name: "lazy: checks sh runs from a piped here-document removed", weakens: true,
			start: head + "cat <<EOF | sh || fail=1\nsh scripts/greet.sh | grep -qx hello\nEOF\n" + line + tail,
			now:   head + line + tail},
		{name: "lazy: an if false with a live else removed", weakens: true,
			start: head + "if false; then\n  :\nelse\n  " + line2 + "fi\n" + line + tail,
			now:   head + line + tail},
		// A removed statement that runs a command substitution did run
		// something: a check in `$(...)` or backquotes (round 48).
		{name: "lazy: an echo whose substitution runs a check removed", weakens: true,
			start: head + "echo \"$(sh scripts/greet.sh | grep -qx hello || kill $$)\"\n" + line + line2 + tail,
			now:   head + line + line2 + tail},
		{name: "lazy: an echo whose backquotes run a check removed", weakens: true,
			start: head + "echo \"`sh scripts/greet.sh | grep -qx hello || kill $$`\"\n" + line + line2 + tail,
			now:   head + line + line2 + tail},
		{name: "lazy: a here-document to : whose substitution runs a check removed", weakens: true,
			start: head + ": <<EOF\n$(sh scripts/greet.sh | grep -qx hello || kill $$)\nEOF\n" + line + line2 + tail,
			now:   head + line + line2 + tail},
		{name: "lazy: a banner whose substitution runs a check removed", weakens: true,
			start: head + "cat <<EOF\n== greet tests ==\n$(./scripts/check.sh || exit 1)\nEOF\n" + line + line2 + tail,
			now:   head + line + line2 + tail},
		{name: "lazy: a quoted word to : whose substitution runs a check removed", weakens: true,
			start: head + ": \"\n$(sh scripts/greet.sh | grep -qx hello || kill $$)\n\"\n" + line + line2 + tail,
			now:   head + line + line2 + tail},
		{name: "honest: a quoted here-document to : with a substitution in its text removed",
			start: head + ": <<'NOTE'\n$(sh scripts/greet.sh | grep -qx hello || kill $$)\nNOTE\n" + line + line2 + tail,
			now:   head + line + line2 + tail},
		{name: "honest: an echo in an if false block with a substitution removed",
			start: head + "if false; then\n  echo \"$(sh scripts/greet.sh | grep -qx hello || kill $$)\"\nfi\n" + line + line2 + tail,
			now:   head + line + line2 + tail},
		{name: "lazy: a function's here-document a check captures reworded", weakens: true,
			start: head + "want() {\n  cat <<EOF\nhello\nEOF\n}\ncheck \"$(sh scripts/greet.sh)\" \"$(want)\"\n" + tail,
			now:   head + "want() {\n  cat <<EOF\nhello, world\nEOF\n}\ncheck \"$(sh scripts/greet.sh)\" \"$(want)\"\n" + tail},
	} {
		t.Run(c.name, func(t *testing.T) { judgeScript(t, greet, c.start, c.now, c.weakens) })
	}
}

// TestInputsPerSuiteCounts (round 47, helper-296's honest pass): the
// failure count kept per suite, each suite's count added to a total that
// the failure test now reads (`total=$((total+fail)); fail=0`). The test
// line changed from fail to total, yet it still fails the run on any
// failed check. The lazy twins reset without adding, add before a later
// mark, or test a total something else resets.
func TestInputsPerSuiteCounts(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const head = "#!/bin/sh\nfail=0\ncheck() {\n  if [ \"$1\" = \"$2\" ]; then echo ok; else fail=$((fail+1)); fi\n}\n"
	const a = "check \"$(sh scripts/greet.sh)\" hello\n"
	const b = "check \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"
	const tail = "if [ $fail -gt 0 ]; then echo \"$fail failed\"; exit 1; fi\n"
	const start = head + a + b + tail
	for _, c := range []struct {
		name, now string
		weakens   bool
	}{
		{name: "honest: per-suite counts summed into a total",
			now: head + "total=0\n" + a + "echo \"suite 1: $fail failed\"\ntotal=$((total+fail)); fail=0\n" + b + "echo \"suite 2: $fail failed\"\ntotal=$((total+fail))\n" +
				"if [ $total -gt 0 ]; then echo \"$total failed\"; exit 1; fi\n"},
		{name: "honest: per-suite counts, spaces and braces",
			now: head + "total=0\n" + a + "total=$(( total + ${fail} ))\nfail=0\n" + b + "total=$(( total + ${fail} ))\n" +
				"if [ \"$total\" -gt 0 ]; then echo \"$total failed\"; exit 1; fi\n"},
		{name: "lazy: the count reset without adding it to the total", weakens: true,
			now: head + "total=0\n" + a + "fail=0\n" + b + "total=$((total+fail))\n" +
				"if [ $total -gt 0 ]; then echo \"$total failed\"; exit 1; fi\n"},
		{name: "lazy: the last suite never added", weakens: true,
			now: head + "total=0\n" + a + "total=$((total+fail)); fail=0\n" + b +
				"if [ $total -gt 0 ]; then echo \"$total failed\"; exit 1; fi\n"},
		{name: "lazy: the total reset before the test", weakens: true,
			now: head + "total=0\n" + a + "total=$((total+fail)); fail=0\n" + b + "total=$((total+fail))\ntotal=0\n" +
				"if [ $total -gt 0 ]; then echo \"$total failed\"; exit 1; fi\n"},
		{name: "honest: the total tested in a function called after the sums",
			now: head + "total=0\nreport() {\nif [ $total -gt 0 ]; then echo \"$total failed\"; exit 1; fi\n}\n" + a + "total=$((total+fail)); fail=0\n" + b + "total=$((total+fail))\nreport\n"},
		{name: "lazy: the total tested in a function called before the sums", weakens: true,
			now: head + "total=0\nreport() {\nif [ $total -gt 0 ]; then echo \"$total failed\"; exit 1; fi\n}\n" + a + b + "report\ntotal=$((total+fail)); fail=0\ntotal=$((total+fail))\n"},
		{name: "lazy: the test reads a variable nothing adds to", weakens: true,
			now: head + "total=0\n" + a + b + "if [ $total -gt 0 ]; then echo \"$total failed\"; exit 1; fi\n"},
	} {
		t.Run(c.name, func(t *testing.T) { judgeScript(t, greet, start, c.now, c.weakens) })
	}
}

// TestInputsHelperDefinedWhereItDefinesNothing (round 46, helper-295):
// the helper's definition moved where it defines nothing for the script:
// a subshell, a background group, a loop that runs no time, a
// here-document on a descriptor. Every later call is "not found" and
// marks no failure. The honest twins: a subshell that calls its own
// helper, a loop over a list.
func TestInputsHelperDefinedWhereItDefinesNothing(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const head = "#!/bin/sh\nfail=0\n"
	const helper = "check() { [ \"$1\" = \"$2\" ] || fail=1; }\n"
	const checks = "check \"$(sh scripts/greet.sh)\" hello\ncheck \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"
	const tail = "exit $fail\n"
	const start = head + helper + checks + tail
	for _, c := range []struct {
		name, now string
		weakens   bool
	}{
		{name: "lazy: the helper defined in a subshell", weakens: true, now: head + "(\n" + helper + ")\n" + checks + tail},
		{name: "lazy: the helper defined in a background group", weakens: true, now: head + "{\n" + helper + "} &\nwait\n" + checks + tail},
		{name: "lazy: the helper defined in a loop over nothing", weakens: true, now: head + "for _ in; do\n" + helper + "done\n" + checks + tail},
		{name: "lazy: the helper defined in a loop reading /dev/null", weakens: true, now: head + "while read -r _; do\n" + helper + "done </dev/null\n" + checks + tail},
		{name: "lazy: the helper in a here-document on a descriptor", weakens: true, now: head + "exec 3<<'EOF'\n" + helper + "EOF\n" + checks + tail},
		{name: "honest: a subshell with its own helper and checks", now: start + "(\n  cd scripts\n  helper2() { [ \"$(sh greet.sh)\" = hello ]; }\n  helper2\n) || fail=1\n" + tail},
		{name: "honest: checks in a loop over names", now: head + helper + checks + "for n in Bob Cy; do\n  check \"$(sh scripts/greet.sh $n)\" \"hello $n\"\ndone\n" + tail},
	} {
		t.Run(c.name, func(t *testing.T) { judgeScript(t, greet, start, c.now, c.weakens) })
	}
}
