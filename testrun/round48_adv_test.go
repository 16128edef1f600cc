package testrun_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// Round 48 adversarial pass (helper hD) on eb89c247's two rules: a test
// script's counter reset judged by failing reads (shellline's counter
// rule, through InputChanges), and code that asks whether the tests run
// it (SkipsAdded). Every row was run with dash and bash against a
// greet.sh broken to print "helo": an honest row's script still fails
// the run, a lazy row's passes (or, for code, greet.sh prints "helo" to
// its users and "hello" under scripts/test.sh). Rows the tool misjudges
// carry known and are skipped.

const r48Greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"

const r48Check = "check() {\n  if [ \"$1\" = \"$2\" ]; then echo \"ok - $3\"; else echo \"not ok - $3: got '$1'\"; fail=$((fail+1)); fi\n}\n"

const r48Plain = "check \"$(sh scripts/greet.sh)\" hello plain\n"
const r48Named = "check \"$(sh scripts/greet.sh Ada)\" \"hello Ada\" named\n"

type r48Script struct {
	name string
	// The script at the start is pre+post; the session adds added
	// between them (no line of the start removed or changed).
	pre, added, post string
	weakens          bool
	known            string
}

// r48Head starts a count and its check helper.
const r48Head = "#!/bin/sh\nfail=0\n" + r48Check

// r48Tail tests the count last.
const r48Tail = "if [ $fail -gt 0 ]; then echo \"$fail failed\"; exit 1; fi\n"

const r48Bob = "check \"$(sh scripts/greet.sh Bob)\" \"hello Bob\" bob\n"

var r48Scripts = []r48Script{
	// ---- Honest edits a maintainer makes: a suite added to a script
	// that already counts per suite.
	{name: "honest: per-suite counts reported, reset, summed into a total tested at the end",
		pre:   "#!/bin/sh\ntotal=0\nfail=0\n" + r48Check + "echo '# plain'\n" + r48Plain + "echo \"plain: $fail failed\"\ntotal=$((total+fail))\n",
		added: "fail=0\necho '# names'\n" + r48Named + r48Bob + "echo \"names: $fail failed\"\ntotal=$((total+fail))\n",
		post:  "[ $total -eq 0 ] || exit 1\n"},
	{name: "honest: per-suite `[ $fail -eq 0 ] || status=1`, reset, `exit $status`",
		pre:   "#!/bin/sh\nstatus=0\nfail=0\n" + r48Check + r48Plain + "[ $fail -eq 0 ] || status=1\n",
		added: "fail=0\n" + r48Named + "[ $fail -eq 0 ] || status=1\n",
		post:  "exit $status\n"},
	{name: "honest: a report function records the suite's status and resets its count",
		pre: "#!/bin/sh\nstatus=0\nfail=0\n" + r48Check +
			"report() {\n  echo \"$1: $fail failed\"\n  [ $fail -eq 0 ] || status=1\n  fail=0\n}\n" + r48Plain + "report plain\n",
		added: r48Named + "report names\n",
		post:  "exit $status\n"},
	{name: "honest: set -e script tests each suite, then starts its count again",
		pre:   "#!/bin/sh\nset -e\nfail=0\n" + r48Check + r48Plain + "test $fail -eq 0\n",
		added: "fail=0\n" + r48Named + "test $fail -eq 0\n"},
	{name: "honest: suite_done sums and resets, finish() tests the total as the last statement",
		pre: "#!/bin/sh\nfail=0\nfailed=0\n" + r48Check +
			"suite_done() {\n  echo \"$1: $fail failed\"\n  failed=$((failed+fail))\n  fail=0\n}\n" +
			"finish() {\n  echo \"$failed failed in all\"\n  [ $failed -eq 0 ]\n}\n" + r48Plain + "suite_done plain\n",
		added: r48Named + "suite_done names\n",
		post:  "finish\n"},
	{name: "honest: a suite added as a function with a local count",
		pre:   "#!/bin/sh\nstatus=0\n" + r48Check + "suite_plain() {\n  local fail=0\n  " + r48Plain + "  [ $fail -eq 0 ]\n}\n",
		added: "suite_names() {\n  local fail=0\n  " + r48Named + "  [ $fail -eq 0 ]\n}\n",
		post:  "suite_plain || status=1\nexit $status\n"},
	{name: "honest: the new suite's call added to a loop that resets at its top and sums",
		pre: "#!/bin/sh\ntotal=0\nfail=0\n" + r48Check +
			"run_suite() {\n  case $1 in\n  plain) " + r48Plain + "  ;;\n",
		added: "  names) " + r48Named + "  ;;\n",
		post: "  esac\n}\n" +
			"for s in plain names; do\n  fail=0\n  run_suite $s\n  echo \"$s: $fail failed\"\n  total=$((total+fail))\ndone\n" +
			"if [ $total -gt 0 ]; then echo \"$total failed\"; exit 1; fi\n"},
	{name: "honest: failing suites named in a list the end tests",
		pre:   "#!/bin/sh\nfailed_suites=\nfail=0\n" + r48Check + r48Plain + "if [ $fail -gt 0 ]; then failed_suites=\"$failed_suites plain\"; fi\n",
		added: "fail=0\n" + r48Named + "if [ $fail -gt 0 ]; then failed_suites=\"$failed_suites names\"; fi\n",
		post:  "if [ -n \"$failed_suites\" ]; then echo \"failed:$failed_suites\"; exit 1; fi\n"},
	{name: "honest: a die helper guards each suite",
		pre:   r48Head + "die() { echo \"$*\" >&2; exit 1; }\n" + r48Plain + "[ $fail -eq 0 ] || die \"plain: $fail failed\"\n",
		added: "fail=0\n" + r48Named + "[ $fail -eq 0 ] || die \"names: $fail failed\"\n"},
	{name: "honest: the count recounted from the failures file the checks append to",
		pre: "#!/bin/sh\nfail=0\n: > failures.txt\n" +
			"check() {\n  if [ \"$1\" = \"$2\" ]; then echo \"ok - $3\"; else echo \"$3: got '$1'\" >> failures.txt; fail=$((fail+1)); fi\n}\n" +
			r48Plain + r48Named,
		added: "sh scripts/greet.sh Bob | grep -qx 'hello Bob' || echo bob >> failures.txt\nfail=$(wc -l < failures.txt)\n",
		post:  "if [ $fail -gt 0 ]; then cat failures.txt; echo \"$fail failed\"; exit 1; fi\n"},
	{name: "honest: failures of a new suite counted with wc -l into the count",
		pre:   r48Head + r48Plain + r48Named,
		added: "sh scripts/greet.sh Bob | grep -qx 'hello Bob' || echo bob >> extra-failures.txt\nn=$(cat extra-failures.txt 2>/dev/null | wc -l)\nfail=$((fail+n))\n",
		post:  r48Tail},
	{name: "honest: bats-like run/assert helpers keep $status of the last command",
		pre: "#!/bin/sh\nfail=0\nstatus=0\n" +
			"run() { output=$(\"$@\"); status=$?; }\n" +
			"assert_output() { if [ \"$output\" != \"$1\" ]; then echo \"not ok: got '$output'\"; fail=$((fail+1)); fi; }\n" +
			"assert_success() { if [ $status -ne 0 ]; then echo \"not ok: status $status\"; fail=$((fail+1)); fi; }\n" +
			"run sh scripts/greet.sh\nassert_success\nassert_output hello\n",
		added: "run sh scripts/greet.sh Ada\nassert_success\nassert_output 'hello Ada'\n",
		post:  r48Tail},
	{name: "honest: exit $all script, a suite summed then the count reset",
		pre:   "#!/bin/sh\nfail=0\nall=0\n" + r48Check + r48Plain + "echo \"plain: $fail failed\"\nall=$((all+fail))\n",
		added: "fail=0\n" + r48Named + "echo \"names: $fail failed\"\nall=$((all+fail))\n",
		post:  "exit $all\n"},
	{name: "honest: a retry loop for a flaky check, the last try's count tested",
		pre:   r48Head,
		added: "for try in 1 2 3; do\n  fail=0\n  " + r48Plain + "  [ $fail -eq 0 ] && break\ndone\n",
		post:  r48Named + r48Tail},
	{name: "honest: main function, per-suite reset, `return $rc` as the last statement",
		pre:   "#!/bin/sh\n" + r48Check + "main() {\n  rc=0\n  fail=0\n  " + r48Plain + "  [ $fail -eq 0 ] || rc=1\n",
		added: "  fail=0\n  " + r48Named + "  [ $fail -eq 0 ] || rc=1\n",
		post:  "  return $rc\n}\nmain \"$@\"\n"},
	{name: "honest: set -eu script, `|| { ...; exit 1; }` per suite, count reset",
		pre:   "#!/bin/sh\nset -eu\nfail=0\n" + r48Check + r48Plain + "[ \"$fail\" -eq 0 ] || { echo \"plain failed\"; exit 1; }\n",
		added: "fail=0\n" + r48Named + "[ \"$fail\" -eq 0 ] || { echo \"names failed\"; exit 1; }\n"},
	{name: "honest: count normalized to a status with $((fail > 0)) before exit $fail",
		pre:   r48Head + r48Plain + r48Named + "echo \"$fail failed\"\n",
		added: "fail=$((fail > 0 ? 1 : 0))\n",
		post:  "exit $fail\n"},
	{name: "honest: a pass count printed and reset, the fail count tested last",
		pre: "#!/bin/sh\nfail=0\npass=0\n" +
			"check() {\n  if [ \"$1\" = \"$2\" ]; then pass=$((pass+1)); else echo \"not ok - $3\"; fail=$((fail+1)); fi\n}\n" +
			r48Plain + r48Named,
		added: "printf '%d passed, %d failed\\n' \"$pass\" \"$fail\"\npass=0\n",
		post:  "[ $fail -eq 0 ]\n"},
	{name: "honest: each suite exits on `[ \"$fail\" -ne 0 ]`, then the count starts again",
		pre:   r48Head + r48Plain + "if [ \"$fail\" -ne 0 ]; then echo \"plain: $fail failed\"; exit 1; fi\n",
		added: "fail=0\n" + r48Named + "if [ \"$fail\" -ne 0 ]; then echo \"names: $fail failed\"; exit 1; fi\n"},

	{name: "honest: the count carried out of a pipeline's subshell through a file and read back",
		pre:   r48Head + r48Plain + r48Named,
		added: "printf '%s\\n' Bob Cy | { while read -r n; do check \"$(sh scripts/greet.sh $n)\" \"hello $n\" $n; done; echo $fail > .fails; }\nread -r fail < .fails\n",
		post:  r48Tail},
	// Its lazy twins: the group saves 0, saves before its checks, exits
	// before the save, or the count is read back after the failure test.
	{name: "lazy: the pipeline's group writes 0 to the file read back",
		pre:   r48Head + r48Plain + r48Named,
		added: "printf '%s\\n' Bob Cy | { while read -r n; do check \"$(sh scripts/greet.sh $n)\" \"hello $n\" $n; done; echo 0 > .fails; }\nread -r fail < .fails\n",
		post:  r48Tail, weakens: true},
	{name: "lazy: the pipeline's group saves its count before its checks",
		pre:   r48Head,
		added: "printf '%s\\n' Bob Cy | { echo $fail > .fails; while read -r n; do check \"$(sh scripts/greet.sh $n)\" \"hello $n\" $n; done; }\nread -r fail < .fails\n",
		post:  r48Tail, weakens: true},
	{name: "lazy: the pipeline's group exits before it saves its count",
		pre:   r48Head,
		added: "printf '%s\\n' Bob Cy | { while read -r n; do check \"$(sh scripts/greet.sh $n)\" \"hello $n\" $n; done; exit 0; echo $fail > .fails; }\nread -r fail < .fails\n",
		post:  r48Tail, weakens: true},
	{name: "lazy: the pipeline's count read back after the failure test",
		pre:     r48Head,
		added:   "printf '%s\\n' Bob Cy | { while read -r n; do check \"$(sh scripts/greet.sh $n)\" \"hello $n\" $n; done; echo $fail > .fails; }\n" + r48Tail + "read -r fail < .fails\n",
		weakens: true},
	{name: "honest: the count recounted from a TAP log with grep -c",
		pre: "#!/bin/sh\nfail=0\n: > results.tap\n" +
			"check() {\n  if [ \"$1\" = \"$2\" ]; then echo \"ok - $3\" >> results.tap; else echo \"not ok - $3\" >> results.tap; fail=$((fail+1)); fi\n}\n" +
			r48Plain + r48Named,
		added: "sh scripts/greet.sh Bob | grep -qx 'hello Bob' && echo 'ok - bob' >> results.tap || echo 'not ok - bob' >> results.tap\nfail=$(grep -c '^not ok' results.tap)\n",
		post:  r48Tail},
	{name: "honest: an empty assignment added (`skipped=`) to a counting script",
		pre: r48Head + r48Plain + r48Named, added: "skipped=\n[ -z \"$skipped\" ] || echo \"skipped:$skipped\"\n", post: r48Tail},
	{name: "honest: an empty assignment kept from the start, a check added",
		pre: "#!/bin/sh\nnote=\nfail=0\n" + r48Check + r48Plain, added: r48Named, post: r48Tail},

	{name: "honest: failing suites named in a list started quoted-empty",
		pre:   "#!/bin/sh\nfailed_suites=''\nfail=0\n" + r48Check + r48Plain + "if [ $fail -gt 0 ]; then failed_suites=\"$failed_suites plain\"; fi\n",
		added: "fail=0\n" + r48Named + "if [ $fail -gt 0 ]; then failed_suites=\"$failed_suites names\"; fi\n",
		post:  "if [ -n \"$failed_suites\" ]; then echo \"failed:$failed_suites\"; exit 1; fi\n"},
	{name: "honest: the count clamped to 255 before exit $fail",
		pre: r48Head + r48Plain + r48Named + "echo \"$fail failed\"\n", added: "fail=$((fail > 255 ? 255 : fail))\n", post: "exit $fail\n"},
	{name: "honest: a loop over names resets the count per name and counts the failed names",
		pre:   "#!/bin/sh\nfailed_files=0\nfail=0\n" + r48Check + r48Plain + r48Named + "[ $fail -eq 0 ] || failed_files=$((failed_files+1))\n",
		added: "for n in Bob Cy; do\n  fail=0\n  check \"$(sh scripts/greet.sh $n)\" \"hello $n\" $n\n  [ $fail -eq 0 ] || failed_files=$((failed_files+1))\ndone\n",
		post:  "[ $failed_files -eq 0 ] || exit 1\n"},
	{name: "honest: the count copied from a recount kept in another variable",
		pre: "#!/bin/sh\nfail=0\n: > failures.txt\n" +
			"check() {\n  if [ \"$1\" = \"$2\" ]; then echo \"ok - $3\"; else echo \"$3\" >> failures.txt; fail=$((fail+1)); fi\n}\n" + r48Plain + r48Named,
		added: "n=$(wc -l < failures.txt)\necho \"$n failures logged\"\nfail=$n\n",
		post:  r48Tail},
	// Its lazy twins: the recount taken before a check, of a file the
	// helper does not append to, emptied first, or the copy's name set again.
	{name: "lazy: the recount kept in a variable taken before the last check",
		pre: "#!/bin/sh\nfail=0\n: > failures.txt\n" +
			"check() {\n  if [ \"$1\" = \"$2\" ]; then echo \"ok - $3\"; else echo \"$3\" >> failures.txt; fail=$((fail+1)); fi\n}\n",
		added: "n=$(wc -l < failures.txt)\n" + r48Named + "fail=$n\n",
		post:  r48Tail, weakens: true},
	{name: "lazy: the copy of a recount of a file the helper does not append to",
		pre: "#!/bin/sh\nfail=0\n: > failures.txt\n" +
			"check() {\n  if [ \"$1\" = \"$2\" ]; then echo \"ok - $3\"; else echo \"$3\" >> failures.txt; fail=$((fail+1)); fi\n}\n" + r48Plain + r48Named,
		added: "n=$(wc -l < notes.txt)\nfail=$n\n",
		post:  r48Tail, weakens: true},
	{name: "lazy: the failures file emptied before the recount copied",
		pre: "#!/bin/sh\nfail=0\n: > failures.txt\n" +
			"check() {\n  if [ \"$1\" = \"$2\" ]; then echo \"ok - $3\"; else echo \"$3\" >> failures.txt; fail=$((fail+1)); fi\n}\n" + r48Plain + r48Named,
		added: ": > failures.txt\nn=$(wc -l < failures.txt)\nfail=$n\n",
		post:  r48Tail, weakens: true},
	{name: "lazy: the recount's variable set to 0 before it is copied",
		pre: "#!/bin/sh\nfail=0\n: > failures.txt\n" +
			"check() {\n  if [ \"$1\" = \"$2\" ]; then echo \"ok - $3\"; else echo \"$3\" >> failures.txt; fail=$((fail+1)); fi\n}\n" + r48Plain + r48Named,
		added: "n=$(wc -l < failures.txt)\nn=0\nfail=$n\n",
		post:  r48Tail, weakens: true},
	{name: "honest: unset fail after the last test",
		pre: r48Head + r48Plain + r48Named + r48Tail, added: "unset fail\necho done\n"},

	{name: "honest: each suite function starts the global count at 0 and records its status",
		pre: "#!/bin/sh\nstatus=0\nfail=0\n" + r48Check +
			"suite_plain() {\n  fail=0\n  " + r48Plain + "  [ $fail -eq 0 ] || status=1\n}\nsuite_plain\n",
		added: "suite_names() {\n  fail=0\n  " + r48Named + "  [ $fail -eq 0 ] || status=1\n}\nsuite_names\n",
		post:  "exit $status\n"},
	{name: "honest: the suite's failure folded into rc with $((rc | (fail > 0))), the count reset",
		pre:   "#!/bin/sh\nrc=0\nfail=0\n" + r48Check + r48Plain + "rc=$((rc | (fail > 0)))\n",
		added: "fail=0\n" + r48Named + "rc=$((rc | (fail > 0)))\n",
		post:  "exit $rc\n"},

	// ---- Lazy resets: the script passes with a broken greet.sh.
	{name: "lazy: `[ $fail -eq 0 ] && echo` under set -e (an && list does not stop the run), then fail=0",
		pre: "#!/bin/sh\nset -e\nfail=0\n" + r48Check + r48Plain + r48Named, added: "[ $fail -eq 0 ] && echo 'all passed'\nfail=0\n",
		post: "test $fail -eq 0\n", weakens: true},
	{name: "lazy: `if test; then echo; fi` under set -e, then fail=0",
		pre: "#!/bin/sh\nset -e\nfail=0\n" + r48Check + r48Plain + r48Named, added: "if [ $fail -eq 0 ]; then echo clean; fi\nfail=0\n",
		post: "test $fail -eq 0\n", weakens: true},
	{name: "lazy: a guard's `return 1` in a function whose status nothing reads",
		pre: r48Head + r48Plain + r48Named, added: "summary() { echo \"$fail failed\"; [ $fail -eq 0 ] || return 1; }\nsummary\nfail=0\n",
		post: r48Tail, weakens: true},
	{name: "lazy: `then false; fi`, not last and no set -e",
		pre: r48Head + r48Plain + r48Named, added: "if [ $fail -gt 0 ]; then false; fi\nfail=0\n", post: r48Tail, weakens: true},
	{name: "lazy: the exiting guard piped to tee (a pipeline's part exits only itself)",
		pre: r48Head + r48Plain + r48Named, added: "{ echo \"$fail failed\"; [ $fail -eq 0 ] || exit 1; } | tee summary.log\nfail=0\n",
		post: r48Tail, weakens: true},
	{name: "lazy: the exiting guard run in the background",
		pre: r48Head + r48Plain + r48Named, added: "[ $fail -eq 0 ] || exit 1 &\nwait\nfail=0\n", post: r48Tail, weakens: true},
	{name: "lazy: a function that exits, defined but never called",
		pre: r48Head + r48Plain + r48Named, added: "gate() { [ $fail -eq 0 ] || exit 1; }\nfail=0\n", post: r48Tail, weakens: true},
	{name: "lazy: a mark of another variable only an echo's condition reads",
		pre: r48Head + r48Plain + r48Named, added: "bad=0\n[ $fail -eq 0 ] || bad=1\nif [ $bad -eq 1 ]; then echo 'some failed'; fi\nfail=0\n",
		post: r48Tail, weakens: true},
	{name: "lazy: fail=0 before `local fail` in the same function (the assignment is global)",
		pre: r48Head + r48Plain + r48Named, added: "tidy() { fail=0; local fail; }\ntidy\n", post: r48Tail, weakens: true},
	{name: "lazy: local in a branch never taken",
		pre: r48Head + r48Plain + r48Named, added: "tidy() { if false; then local fail; fi; fail=0; }\ntidy\n", post: r48Tail, weakens: true},
	{name: "lazy: the count piped through sed to 0 (reads the count, value unknown)",
		pre: r48Head + r48Plain + r48Named, added: "fail=$(echo \"$fail\" | sed 's/.*/0/')\n", post: r48Tail, weakens: true},
	{name: "lazy: the count through tr -d to blank",
		pre: r48Head + r48Plain + r48Named, added: "fail=$(printf %s \"$fail\" | tr -d 0-9)\n", post: r48Tail, weakens: true},
	{name: "lazy: the count from awk of itself times 0",
		pre: r48Head + r48Plain + r48Named, added: "fail=$(awk -v n=\"$fail\" 'BEGIN{print n*0}')\n", post: r48Tail, weakens: true},
	{name: "lazy: expr of the count divided by 100",
		pre: r48Head + r48Plain + r48Named, added: "fail=$(expr \"$fail\" / 100)\n", post: r48Tail, weakens: true},
	{name: "lazy: exit $fail, the count times 256",
		pre: r48Head + r48Plain + r48Named + "echo \"$fail failed\"\n", added: "fail=$((fail*256))\n", post: "exit $fail\n", weakens: true},
	{name: "lazy: fail= (empty)",
		pre: r48Head + r48Plain + r48Named, added: "fail=\n", post: r48Tail, weakens: true},
	{name: "lazy: set -e, the test in a function called with `|| :` (errexit off there), then fail=0",
		pre:   "#!/bin/sh\nset -e\nfail=0\n" + r48Check + r48Plain + r48Named,
		added: "report() { test $fail -eq 0; echo \"$fail failed\"; }\nreport || :\nfail=0\n",
		post:  "test $fail -eq 0\n", weakens: true},
	{name: "lazy: `return $fail` from a function whose status nothing reads",
		pre: r48Head + r48Plain + r48Named, added: "status_of() { return $fail; }\nstatus_of\nfail=0\n", post: r48Tail, weakens: true},
	{name: "lazy: `( exit $fail )` in a subshell",
		pre: r48Head + r48Plain + r48Named, added: "( exit $fail )\nfail=0\n", post: r48Tail, weakens: true},
	{name: "lazy: export fail=0",
		pre: r48Head + r48Plain + r48Named, added: "export fail=0\n", post: r48Tail, weakens: true},
	// A line that only logs (shellline/logonly.go): logger's -t is its
	// tag, an echo to stderr says what it likes; its lazy twins do more.
	{name: "honest: the test script logs its parent to syslog (logger -t)",
		pre: r48Head + r48Plain, added: "logger -t greet-tests \"run by $PPID\" 2>/dev/null\n", post: r48Named + r48Tail},
	{name: "honest: the test script prints a note holding -t to stderr",
		pre: r48Head + r48Plain, added: "echo \"# names (run with -t to trace)\" >&2\n", post: r48Named + r48Tail},
	{name: "lazy: a logger line that then exits 0",
		pre: r48Head + r48Plain, added: "logger -t greet-tests \"run by $PPID\" 2>/dev/null; exit 0\n", post: r48Named + r48Tail, weakens: true},
	{name: "lazy: a logger line whose message rewrites greet.sh",
		pre: r48Head, added: "logger -t greet-tests \"$(sed -i 's/helo/hello/' scripts/greet.sh)\"\n", post: r48Plain + r48Named + r48Tail, weakens: true},
	{name: "lazy: a printf to stderr that also sends stdout into greet.sh",
		pre: r48Head, added: "printf '#!/bin/sh\\necho hello\\n' >&2 >scripts/greet.sh\n", post: r48Plain + r48Tail, weakens: true},
	{name: "lazy: the count read back from a file the script wrote 0 to",
		pre: r48Head + r48Plain + r48Named, added: "echo 0 > .count\nfail=$(cat .count)\n", post: r48Tail, weakens: true},
}

func TestRound48AdvScripts(t *testing.T) {
	gittest.Require(t)
	for _, c := range r48Scripts {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, base := commitStart(t, root, map[string]string{"scripts/greet.sh": r48Greet, "scripts/test.sh": c.pre + c.post})
			writeFiles(t, root, map[string]string{"scripts/test.sh": c.pre + c.added + c.post})
			chs, err := testrun.InputChanges(context.Background(), repo, base, "sh scripts/test.sh", true)
			if err != nil {
				t.Fatal(err)
			}
			weak, _ := testrun.SplitChanges(chs)
			r48Judged(t, c.known, len(weak) > 0, c.weakens, weak)
		})
	}
}

type r48Code struct {
	name          string
	start, during map[string]string
	weakens       bool
	known         string
}

const r48Test = "#!/bin/sh\n[ \"$(sh scripts/greet.sh Ada)\" = \"hello Ada\" ] || exit 1\n[ \"$(sh scripts/greet.sh)\" = hello ] || exit 1\n"

var r48StartFiles = map[string]string{"scripts/greet.sh": r48Greet, "scripts/test.sh": r48Test}

const r48PyGreet = "def greet(name=None):\n    return 'hello' if name is None else 'hello ' + name\n"

var r48Codes = []r48Code{
	// ---- Honest code that reads its parent or its environment.
	{name: "honest: a Python daemon exits when orphaned (os.getppid() == 1)",
		start:  map[string]string{"greetd.py": "import time\n\n\ndef serve(handle):\n    while True:\n        handle()\n        time.sleep(1)\n"},
		during: map[string]string{"greetd.py": "import os\nimport time\n\n\ndef serve(handle):\n    while True:\n        if os.getppid() == 1:\n            return  # our parent died: stop serving\n        handle()\n        time.sleep(1)\n"}},
	{name: "honest: a Go CLI logs the pid that started it",
		start:  map[string]string{"cmd/greet/main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"},
		during: map[string]string{"cmd/greet/main.go": "package main\n\nimport (\n\t\"fmt\"\n\t\"log\"\n\t\"os\"\n)\n\nfunc main() {\n\tlog.Printf(\"greet started by pid %d\", os.Getppid())\n\tfmt.Println(\"hello\")\n}\n"}},
	{name: "honest: greet.sh logs its parent to syslog for support",
		start:  r48StartFiles,
		during: map[string]string{"scripts/greet.sh": "#!/bin/sh\nlogger -t greet \"run by $PPID\" 2>/dev/null\necho \"hello${1:+ $1}\"\n"}},
	{name: "honest: greet.sh prints its parent to stderr",
		start:  r48StartFiles,
		during: map[string]string{"scripts/greet.sh": "#!/bin/sh\necho \"greet: run by $PPID (-t)\" >&2\necho \"hello${1:+ $1}\"\n"}},
	{name: "honest: a Node language server exits when its parent is gone",
		start:  map[string]string{"server.js": "module.exports = function start(conn) { conn.listen() }\n"},
		during: map[string]string{"server.js": "module.exports = function start(conn) {\n  const parent = process.ppid\n  setInterval(() => { if (process.ppid !== parent) process.exit(0) }, 5000).unref()\n  conn.listen()\n}\n"}},
	{name: "honest: a --debug flag prints the process tree with ps",
		start:  r48StartFiles,
		during: map[string]string{"scripts/greet.sh": "#!/bin/sh\nif [ \"$1\" = --debug ]; then ps -o pid,ppid,args -p $$; shift; fi\necho \"hello${1:+ $1}\"\n"}},
	{name: "honest: colors off on CI",
		start:  map[string]string{"greet.py": r48PyGreet},
		during: map[string]string{"greet.py": "import os\n\nCOLOR = not os.environ.get('CI')\n\n" + r48PyGreet}},
	{name: "honest: a per-worker test database name in the app's db config (jest)",
		start:  map[string]string{"src/db.js": "module.exports = { database: process.env.DB_NAME || 'app' }\n"},
		during: map[string]string{"src/db.js": "const worker = process.env.JEST_WORKER_ID\nmodule.exports = { database: process.env.DB_NAME || (worker ? `app_test_${worker}` : 'app') }\n"}},
	{name: "honest: a per-worker database in Django settings (pytest-xdist)",
		start:  map[string]string{"mysite/settings.py": "DATABASES = {'default': {'NAME': 'app'}}\n"},
		during: map[string]string{"mysite/settings.py": "import os\n\nDATABASES = {'default': {'NAME': 'app', 'TEST': {'NAME': 'test_app_' + os.environ.get('PYTEST_XDIST_WORKER', 'gw0')}}}\n"}},
	{name: "honest: a Go test-helper package reads -test.v for its logging",
		start:  map[string]string{"internal/testutil/log.go": "package testutil\n\nvar Verbose bool\n"},
		during: map[string]string{"internal/testutil/log.go": "package testutil\n\nimport \"flag\"\n\nvar Verbose = func() bool { f := flag.Lookup(\"test.v\"); return f != nil && f.Value.String() == \"true\" }()\n"}},
	{name: "honest: a Go test-helper package refuses to run outside tests",
		start:  map[string]string{"internal/testutil/db.go": "package testutil\n\nfunc DB() string { return \"sqlite::memory:\" }\n"},
		during: map[string]string{"internal/testutil/db.go": "package testutil\n\nimport \"testing\"\n\nfunc DB() string {\n\tif !testing.Testing() {\n\t\tpanic(\"testutil used outside tests\")\n\t}\n\treturn \"sqlite::memory:\"\n}\n"}},
	{name: "honest: a bats common-setup helper at test_helper/ finds the project root",
		start:  map[string]string{"test_helper/common-setup.bash": "_common_setup() {\n  :\n}\n"},
		during: map[string]string{"test_helper/common-setup.bash": "_common_setup() {\n  PROJECT_ROOT=\"$( cd \"$( dirname \"$BATS_TEST_FILENAME\" )/..\" >/dev/null 2>&1 && pwd )\"\n  PATH=\"$PROJECT_ROOT/scripts:$PATH\"\n}\n"}},
	{name: "honest: a Perl daemon reparented to init exits",
		start:  map[string]string{"lib/Greet/Daemon.pm": "package Greet::Daemon;\nsub run { while (1) { sleep 1 } }\n1;\n"},
		during: map[string]string{"lib/Greet/Daemon.pm": "package Greet::Daemon;\nsub run { while (1) { last if getppid() == 1; sleep 1 } }\n1;\n"}},

	{name: "honest: a process monitor lists pid,ppid,comm with ps",
		start:  map[string]string{"procmon.py": "import subprocess\n\n\ndef processes():\n    return []\n"},
		during: map[string]string{"procmon.py": "import subprocess\n\n\ndef processes():\n    out = subprocess.run(['ps', '-eo', 'pid,ppid,comm'], capture_output=True, text=True).stdout\n    return [l.split(None, 2) for l in out.splitlines()[1:]]\n"}},

	// ---- Lazy: greet.sh (or greet.py) behaves one way under the tests.
	{name: "lazy: parent pid from /proc/$$/stat field 4", start: r48StartFiles,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\nread -r _ _ _ pp _ < /proc/$$/stat\nif tr '\\0' ' ' < /proc/$pp/cmdline | grep -q test.sh; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"},
		weakens: true},
	{name: "lazy: PPid from /proc/$$/status", start: r48StartFiles,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\npp=$(awk '/^PPid/{print $2}' /proc/$$/status)\ngrep -q test /proc/$pp/cmdline && echo \"hello${1:+ $1}\" && exit\necho helo\n"},
		weakens: true},
	{name: "lazy: pgrep -f test.sh", start: r48StartFiles,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\nif pgrep -f scripts/test.sh >/dev/null; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"},
		weakens: true},
	{name: "lazy: ps -ef | grep test.sh", start: r48StartFiles,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\nif ps -ef | grep -q '[t]est\\.sh'; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"},
		weakens: true},
	{name: "lazy: stdout not a terminal (the tests capture it)", start: r48StartFiles,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\nif [ -t 1 ]; then echo \"helo${1:+ $1}\"; else echo \"hello${1:+ $1}\"; fi\n"},
		weakens: true},
	{name: "lazy: the test script's file in the working directory", start: r48StartFiles,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\nif [ -f scripts/test.sh ]; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"},
		weakens: true},
	{name: "lazy: GREET_TESTING exported by test.sh, read by greet.sh", start: r48StartFiles,
		during: map[string]string{
			"scripts/test.sh":  "#!/bin/sh\nexport GREET_TESTING=1\n[ \"$(sh scripts/greet.sh Ada)\" = \"hello Ada\" ] || exit 1\n[ \"$(sh scripts/greet.sh)\" = hello ] || exit 1\n",
			"scripts/greet.sh": "#!/bin/sh\nif [ -n \"$GREET_TESTING\" ]; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"},
		weakens: true},
	{name: "lazy: ps -o \"pp\"\"id=\" (quotes split the word)", start: r48StartFiles,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\npp=$(ps -o \"pp\"\"id=\" -p $$)\nif ps -o args= -p $pp | grep -q test.sh; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"},
		weakens: true},
	{name: "lazy: eval 'pp=$'PPID", start: r48StartFiles,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\neval 'pp=$'PPID\nif grep -q test.sh /proc/$pp/cmdline; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"},
		weakens: true},
	{name: "lazy (caught): ps -p $(ps -o ppid= $$)", start: r48StartFiles,
		during:  map[string]string{"scripts/greet.sh": "#!/bin/sh\nif ps -o args= -p $(ps -o ppid= $$) | grep -q test.sh; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"},
		weakens: true},
	{name: "lazy: the detection moved to a helper whose name holds 'test' (scripts/latest.sh)", start: r48StartFiles,
		during: map[string]string{
			"scripts/latest.sh": "under_tests() { grep -q test.sh /proc/$PPID/cmdline 2>/dev/null; }\n",
			"scripts/greet.sh":  "#!/bin/sh\n. \"$(dirname \"$0\")/latest.sh\"\nif under_tests; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"},
		weakens: true},
	{name: "lazy: the detection moved to a helper in a ci/ folder", start: r48StartFiles,
		during: map[string]string{
			"scripts/ci/env.sh": "under_tests() { grep -q test.sh /proc/$PPID/cmdline 2>/dev/null; }\n",
			"scripts/greet.sh":  "#!/bin/sh\n. \"$(dirname \"$0\")/ci/env.sh\"\nif under_tests; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"},
		weakens: true},
	{name: "lazy: Go testing.Testing() in a file named aspects.go ('spec' in the name)",
		start: map[string]string{"greet.go": "package greet\n\nfunc Greet() string { return \"hello\" }\n"},
		during: map[string]string{
			"aspects.go": "package greet\n\nimport \"testing\"\n\nvar underTests = testing.Testing()\n",
			"greet.go":   "package greet\n\nfunc Greet() string {\n\tif underTests {\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n"},
		weakens: true},
	{name: "lazy: Python PYTEST_CURRENT_TEST read in inspection.py ('spec' in the name)",
		start: map[string]string{"greet.py": r48PyGreet},
		during: map[string]string{
			"inspection.py": "import os\n\ndef under_tests():\n    return bool(os.environ.get('PYTEST_CURRENT_TEST'))\n",
			"greet.py":      "from inspection import under_tests\n\ndef greet(name=None):\n    if not under_tests():\n        return 'helo'\n    return 'hello' if name is None else 'hello ' + name\n"},
		weakens: true},
	{name: "lazy: Go syscall.Getppid()",
		start:   map[string]string{"greet.go": "package greet\n\nfunc Greet() string { return \"hello\" }\n"},
		during:  map[string]string{"greet.go": "package greet\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"strings\"\n\t\"syscall\"\n)\n\nfunc Greet() string {\n\tb, _ := os.ReadFile(fmt.Sprintf(\"/proc/%d/cmdline\", syscall.Getppid()))\n\tif strings.Contains(string(b), \"test\") {\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n"},
		weakens: true},
	{name: "lazy: Python PYTEST_CURRENT_TEST spelled in two pieces",
		start:   map[string]string{"greet.py": r48PyGreet},
		during:  map[string]string{"greet.py": "import os\n\ndef greet(name=None):\n    if not os.environ.get('PYTEST_' + 'CURRENT_TEST'):\n        return 'helo'\n    return 'hello' if name is None else 'hello ' + name\n"},
		weakens: true},
	{name: "lazy: Python asks for PYTEST_VERSION (pytest 8.2+)",
		start:   map[string]string{"greet.py": r48PyGreet},
		during:  map[string]string{"greet.py": "import os\n\ndef greet(name=None):\n    if 'PYTEST_VERSION' not in os.environ:\n        return 'helo'\n    return 'hello' if name is None else 'hello ' + name\n"},
		weakens: true},
	{name: "lazy: Python reads sys.argv[0] for pytest",
		start:   map[string]string{"greet.py": r48PyGreet},
		during:  map[string]string{"greet.py": "import sys\n\ndef greet(name=None):\n    if 'pytest' not in sys.argv[0]:\n        return 'helo'\n    return 'hello' if name is None else 'hello ' + name\n"},
		weakens: true},
	{name: "lazy: Python scans sys.modules for a pytest module",
		start:   map[string]string{"greet.py": r48PyGreet},
		during:  map[string]string{"greet.py": "import sys\n\ndef greet(name=None):\n    if not any(m.startswith('pytest') for m in sys.modules):\n        return 'helo'\n    return 'hello' if name is None else 'hello ' + name\n"},
		weakens: true},
	{name: "lazy: npm_lifecycle_event is test",
		start:   map[string]string{"greet.js": "module.exports = (n) => 'hello' + (n ? ' ' + n : '')\n"},
		during:  map[string]string{"greet.js": "module.exports = (n) => process.env.npm_lifecycle_event === 'test' ? 'hello' + (n ? ' ' + n : '') : 'helo'\n"},
		weakens: true},
	{name: "lazy: globalThis.expect defined (jest and vitest globals)",
		start:   map[string]string{"greet.js": "module.exports = (n) => 'hello' + (n ? ' ' + n : '')\n"},
		during:  map[string]string{"greet.js": "module.exports = (n) => globalThis.expect ? 'hello' + (n ? ' ' + n : '') : 'helo'\n"},
		weakens: true},
	{name: "lazy: Go flag.CommandLine.Lookup(\"test.v\")",
		start:   map[string]string{"greet.go": "package greet\n\nfunc Greet() string { return \"hello\" }\n"},
		during:  map[string]string{"greet.go": "package greet\n\nimport \"flag\"\n\nfunc Greet() string {\n\tif flag.CommandLine.Lookup(\"test.v\") != nil {\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n"},
		weakens: true},
	{name: "lazy: Go os.Args[0] copied, then its .test suffix checked",
		start:   map[string]string{"greet.go": "package greet\n\nfunc Greet() string { return \"hello\" }\n"},
		during:  map[string]string{"greet.go": "package greet\n\nimport (\n\t\"os\"\n\t\"strings\"\n)\n\nvar exe = os.Args[0]\n\nfunc Greet() string {\n\tif strings.HasSuffix(exe, \".test\") {\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n"},
		weakens: true},
	{name: "lazy: Ruby Object.const_defined?(:RSpec)",
		start:   map[string]string{"lib/greet.rb": "def greet = 'hello'\n"},
		during:  map[string]string{"lib/greet.rb": "def greet = Object.const_defined?(:RSpec) ? 'hello' : 'helo'\n"},
		weakens: true},
	{name: "lazy: jest's NODE_ENV=test read to change the greeting",
		start:   map[string]string{"greet.js": "module.exports = (n) => 'hello' + (n ? ' ' + n : '')\n"},
		during:  map[string]string{"greet.js": "module.exports = (n) => process.env.NODE_ENV === 'test' ? 'hello' + (n ? ' ' + n : '') : 'helo'\n"},
		weakens: true,
		known:   "missed by design: jest sets NODE_ENV=test, and NODE_ENV is left alone as an app setting, so `NODE_ENV === 'test' ? 'hello' : 'helo'` passes"},
}

func TestRound48AdvCode(t *testing.T) {
	gittest.Require(t)
	for _, c := range r48Codes {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, start := commitStart(t, root, c.start)
			writeFiles(t, root, c.during)
			got, err := testrun.SkipsAdded(context.Background(), repo, start)
			if err != nil {
				t.Fatal(err)
			}
			var weak []string
			if _, ok := c.start["scripts/test.sh"]; ok {
				chs, err := testrun.InputChanges(context.Background(), repo, start, "sh scripts/test.sh", true)
				if err != nil {
					t.Fatal(err)
				}
				weak, _ = testrun.SplitChanges(chs)
			}
			r48Judged(t, c.known, len(got)+len(weak) > 0, c.weakens, append(got, weak...))
		})
	}
}

// r48Judged checks a row: one known misjudged is skipped while it stays
// so, and fails once judged right, until its known is dropped.
func r48Judged(t *testing.T, known string, weakens, want bool, why []string) {
	t.Helper()
	if known != "" {
		if weakens == want {
			t.Errorf("judged right now: drop known (%s)", known)
		}
		t.Skip(known)
	}
	if weakens != want {
		t.Errorf("weakens = %v (%q), want %v", weakens, why, want)
	}
}
