package shellline

import (
	"os"
	"strings"
	"testing"
)

// Round 51 adversarial pass (helper 316) on round 50's widened status
// place (statusplace.go, statusfns.go, alwayszero.go, awkcheck.go):
// honest edits real test scripts make near a read status first, then
// lazy lines the rule should refuse. Rows as r50LogRows; known marks
// what is misjudged today.

const r51Check = "[ \"$(sh greet.sh)\" = hello ]"

var r51LogRows = []r49LogRow{
	// ---- Honest: the broken greet.sh still fails the script.
	{name: "honest: set -e, echo done after a loop whose body ends in the check", line: "echo \"done\"",
		test: "#!/bin/sh\nset -e\nfor f in greet.sh; do\n  [ \"$(sh \"$f\")\" = hello ]\ndone\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: echo done after a loop whose body's check is || exit 1", line: "echo \"done\"",
		test: "#!/bin/sh\nfor f in greet.sh; do\n  [ \"$(sh \"$f\")\" = hello ] || exit 1\ndone\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a summary echo between a counting loop and exit $fail", line: "echo \"$fail failed\"",
		test: "#!/bin/sh\nfail=0\nfor f in greet.sh; do\n  [ \"$(sh \"$f\")\" = hello ] || fail=$((fail+1))\ndone\n@@\nexit $fail\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: echo done after a case whose failing item exits 1", line: "echo \"done\"",
		test: "#!/bin/sh\ncase \"$(sh greet.sh)\" in\nhello) echo ok ;;\n*) echo FAIL; exit 1 ;;\nesac\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a case item ends in exit 1 after a log line", line: "  echo \"FAIL: got $out\" >&2",
		test: "#!/bin/sh\nout=$(sh greet.sh)\ncase \"$out\" in\nhello) echo ok ;;\n*)\n@@\n  exit 1 ;;\nesac\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a trap cleanup set at the top", line: "trap 'rm -f \"$tmp\"' EXIT",
		test: "#!/bin/sh\ntmp=$(mktemp)\n@@\nsh greet.sh >\"$tmp\"\ngrep -qx hello \"$tmp\"\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: trap - EXIT after the last check's || exit 1", line: "trap - EXIT",
		test: "#!/bin/sh\ntmp=$(mktemp)\ntrap 'rm -f \"$tmp\"' EXIT\nsh greet.sh >\"$tmp\"\ngrep -qx hello \"$tmp\" || exit 1\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a bare wait after jobs collected by wait $pid || fail=1", line: "wait",
		test: "#!/bin/sh\nfail=0\nsh greet.sh >out.txt &\npid=$!\nwait \"$pid\" || fail=1\ngrep -qx hello out.txt || fail=1\n@@\nexit $fail\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: rm -f between the saved status and exit $status", line: "rm -f \"$tmp\"",
		test: "#!/bin/sh\ntmp=$(mktemp)\nsh greet.sh >\"$tmp\"\ngrep -qx hello \"$tmp\"\nstatus=$?\n@@\nexit $status\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, rm -f at the end after a last if whose branch ends in the check", line: "rm -f out.txt",
		test: "#!/bin/sh\nset -e\nsh greet.sh >out.txt\nif [ -s out.txt ]; then\n  grep -qx hello out.txt\nfi\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: export at the end after [ $fail -eq 0 ] || exit 1", line: "export GREET_CHECKED=1",
		test: "#!/bin/sh\nfail=0\n" + r51Check + " || fail=1\n[ $fail -eq 0 ] || exit 1\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a summary echo after an if that exits $status on failure", line: "echo \"all passed\"",
		test: "#!/bin/sh\nstatus=0\n" + r51Check + " || status=1\nif [ $status -ne 0 ]; then\n  echo \"FAILED\" >&2\n  exit $status\nfi\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a log line ends the then branch of the last if, whose else exits $status", line: "  echo \"see log\"",
		test: "#!/bin/sh\nstatus=0\n" + r51Check + " || status=1\nif [ $status -eq 0 ]; then\n  echo \"PASS\"\n@@\nelse\n  echo \"FAIL\"\n  exit $status\nfi\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: `:` as the then branch of the last if check; else exit 1", line: "  :",
		test: "#!/bin/sh\nif " + r51Check + "; then\n@@\nelse\n  echo FAIL >&2\n  exit 1\nfi\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: echo done after check && echo PASS || { echo FAIL; exit 1; }", line: "echo \"done\"",
		test: "#!/bin/sh\n" + r51Check + " && echo PASS || { echo FAIL; exit 1; }\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: echo done after if ! check; then exit 1; fi", line: "echo \"done\"",
		test: "#!/bin/sh\nif ! " + r51Check + "; then\n  echo FAIL >&2\n  exit 1\nfi\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a loop body's check || { echo FAIL; exit 1; }, then a log line in the body", line: "  echo \"ok $f\"",
		test: "#!/bin/sh\nfor f in greet.sh; do\n  [ \"$(sh \"$f\")\" = hello ] || { echo \"FAIL $f\"; exit 1; }\n@@\ndone\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, a { } group redirected to a log ends in a log line after the check", line: "  echo \"checked\"",
		test: "#!/bin/sh\nset -e\n{\n  " + r51Check + "\n@@\n} >run.log\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, a ( ) subshell not read ends in a log line after the check", line: "  echo \"checked\"",
		test: "#!/bin/sh\nset -e\n(\n  " + r51Check + "\n@@\n)\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a function keeps its check's status in rc, logs, return $rc", line: "  echo \"checked\" >&2",
		test: "#!/bin/sh\ngreet_ok() {\n  " + r51Check + "\n  rc=$?\n@@\n  return $rc\n}\ngreet_ok || exit 1\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a function ends in return 0 after check || return 1, a log line between", line: "  echo \"checked\" >&2",
		test: "#!/bin/sh\ngreet_ok() {\n  " + r51Check + " || return 1\n@@\n  return 0\n}\ngreet_ok || exit 1\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a bats-like runner, a summary echo before exit $failures", line: "echo \"$passes passed, $failures failed\"",
		test: "#!/bin/sh\npasses=0\nfailures=0\nrun_test() {\n  if \"$@\"; then passes=$((passes+1)); else failures=$((failures+1)); echo \"not ok - $*\"; fi\n}\ntest_greet() { " + r51Check + "; }\nrun_test test_greet\n@@\nexit $failures\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a while read loop counts failures, a log line ends its body, [ $fail -eq 0 ]", line: "  echo \"checked $f\"",
		test: "#!/bin/sh\nfail=0\nprintf 'greet.sh\\n' >list.txt\nwhile read -r f; do\n  [ \"$(sh \"$f\")\" = hello ] || fail=$((fail+1))\n@@\ndone <list.txt\n[ $fail -eq 0 ]\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -eu, a CI script ends in cd back and echo", line: "cd - >/dev/null; echo \"ci ok\"",
		test: "#!/bin/sh\nset -eu\ncd .\n" + r51Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: the check's status kept, a timing assignment, then the status read", line: "t1=$(date +%s)",
		test: "#!/bin/sh\n" + r51Check + "\nrc=$?\n@@\n[ $rc -eq 0 ] || exit 1\n", greet: r49Greet, shells: "sh bash"},

	{name: "honest: set -e, echo done after cd . && check (errexit reads an && list's last command)", line: "echo \"done\"",
		test: "#!/bin/sh\nset -e\ncd . && " + r51Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	// Written as honest first: the rule refuses it, rightly. errexit passes
	// over an && list's left side, so a missing file's failing guard was
	// the script's status and the line hides it (run with a guard that
	// fails: the script passes).
	{name: "lazy: set -e, rm -f after a failing guard [ -f greet.txt ] && check", line: "rm -f out.txt",
		test: "#!/bin/sh\nset -e\n[ -f greet.txt ] && " + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "honest: set -e, echo done after check || { echo FAIL; false; }", line: "echo \"done\"",
		test: "#!/bin/sh\nset -e\n" + r51Check + " || { echo FAIL >&2; false; }\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -ex, echo done after the last check", line: "echo \"done\"",
		test: "#!/bin/sh\nset -ex\n" + r51Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -Eeuo pipefail (bash), rm -f after a piped grep check", line: "rm -f out.txt",
		test: "#!/bin/bash\nset -Eeuo pipefail\nsh greet.sh | grep -qx hello\n@@\n", greet: r49Greet, shells: "bash"},
	{name: "honest: set -e in main, echo done after main \"$@\" at the top", line: "echo \"done\"",
		test: "#!/bin/sh\nmain() {\n  set -e\n  " + r51Check + "\n}\nmain \"$@\"\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: an EXIT trap function saves $?, rm -f, exit $rc", line: "  rm -f \"$tmp\"",
		test: "#!/bin/sh\ntmp=$(mktemp)\ncleanup() {\n  rc=$?\n@@\n  exit $rc\n}\ntrap cleanup EXIT\nsh greet.sh >\"$tmp\"\ngrep -qx hello \"$tmp\"\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a bounded retry loop, echo between it and [ $n -lt 3 ] || exit 1", line: "echo \"tried $n times\"",
		test: "#!/bin/sh\nn=0\nuntil " + r51Check + " || [ $n -ge 3 ]; do\n  n=$((n+1))\ndone\n@@\n[ $n -lt 3 ] || exit 1\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, out=$(pipeline) then echo \"$out\"", line: "echo \"$out\"",
		test: "#!/bin/sh\nset -e\nout=$(sh greet.sh | grep -x hello)\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: an elif branch of option parsing ends in export", line: "  export GREET_CI=1",
		test: "#!/bin/sh\nif [ \"${1:-}\" = --quick ]; then\n  quick=1\nelif [ -n \"${CI:-}\" ]; then\n  ci=1\n@@\nfi\n" + r51Check + "\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a log line between two checks with no set -e (the first's status was never read)", line: "echo \"next\" >&2",
		test: "#!/bin/sh\n[ -f greet.sh ]\n@@\n" + r51Check + "\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a set -e while loop's body ends in the check, echo after the loop", line: "echo \"all checked\"",
		test: "#!/bin/sh\nset -e\nprintf 'greet.sh\\n' >list.txt\nwhile read -r f; do\n  [ \"$(sh \"$f\")\" = hello ]\ndone <list.txt\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a function's check || return 1 inside an if branch, echo at the branch's end", line: "    echo \"checked\" >&2",
		test: "#!/bin/sh\ngreet_ok() {\n  if [ -f greet.sh ]; then\n    " + r51Check + " || return 1\n@@\n  fi\n}\ngreet_ok || exit 1\n", greet: r49Greet, shells: "sh bash"},

	{name: "honest: a function's check || return 1, a log line, then a bare return", line: "  echo \"checked\" >&2",
		test: "#!/bin/sh\ngreet_ok() {\n  " + r51Check + " || return 1\n@@\n  return\n}\ngreet_ok || exit 1\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a bare return in a function whose status nothing reads, a log line before it", line: "  echo \"logged\" >&2",
		test: "#!/bin/sh\nnote() {\n  [ -d logs ]\n@@\n  return\n}\nnote\n" + r51Check + " || exit 1\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, unset tmp after rm -f at the end", line: "unset tmp",
		test: "#!/bin/sh\nset -e\ntmp=$(mktemp)\nsh greet.sh >\"$tmp\"\ngrep -qx hello \"$tmp\"\nrm -f \"$tmp\"\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: exec 3>&- closes a log descriptor after [ $fail -eq 0 ] || exit 1", line: "exec 3>&-",
		test: "#!/bin/sh\nexec 3>run.log\nfail=0\n" + r51Check + " || fail=1\n[ $fail -eq 0 ] || exit 1\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, trap - EXIT after the last check", line: "trap - EXIT",
		test: "#!/bin/sh\nset -e\ntrap 'echo interrupted >&2' EXIT\n" + r51Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a { } summary group to stderr after || exit 1", line: "{ echo \"all passed\"; echo \"bye\"; } >&2",
		test: "#!/bin/sh\n" + r51Check + " || exit 1\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a non-fatal grep || true added before the last check", line: "grep -q WARN run.log || true",
		test: "#!/bin/sh\n: >run.log\n@@\n" + r51Check + "\n", greet: r49Greet, shells: "sh bash", known: "refused honest: AddedLineWeakens refuses any added line ending in || true, even a new grep whose status nothing read before (not the status-place rule; left as is)"},

	{name: "honest: a log piped through cat after || exit 1", line: "echo \"all passed\" | cat",
		test: "#!/bin/sh\n" + r51Check + " || exit 1\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "lazy: printf piped to cat under pipefail (bash), after the last check", line: "printf 'done\\n' | cat",
		test: "#!/bin/bash\nset -o pipefail\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "bash"},

	{name: "honest: a log function called after || exit 1", line: "log \"all passed\"",
		test: "#!/bin/sh\nlog() { echo \"$*\" >&2; }\n" + r51Check + " || exit 1\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, a log function called after the last check", line: "log \"all passed\"",
		test: "#!/bin/sh\nset -e\nlog() { echo \"$*\" >&2; }\n" + r51Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a log function defined before the first check", line: "log() { echo \"$*\" >&2; }",
		test: "#!/bin/sh\n@@\n" + r51Check + "\n", greet: r49Greet, shells: "sh bash"},
	{name: "lazy: a helper function defined after the last check (a definition exits 0)", line: "helper() { :; }",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},

	{name: "lazy: a background no-op after the last check (an async list exits 0)", line: ": &",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: exit 0 after the last check", line: "exit 0",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: return 0 ends a check function read by ||", line: "  return 0",
		test: "#!/bin/sh\ngreet_ok() {\n  " + r51Check + "\n@@\n}\ngreet_ok || exit 1\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: kill -0 $$ after the last check", line: "kill -0 $$",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: printf '%s\\n' \"$0\" after the last check", line: "printf '%s\\n' \"$0\"",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a for loop of echo after the last check", line: "for f in greet.sh; do echo \"checked $f\"; done",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: an if whose branches only echo after the last check", line: "if [ -n \"${CI:-}\" ]; then echo ci; fi",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a new check that passes added after the last check (no set -e)", line: "[ -f greet.sh ]",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash", known: "missed, by design: the rule takes only lines that always succeed; a new check after the last one (no set -e) takes the script's status too, but refusing it would refuse every test appended at a script's end"},
	{name: "honest: a background job started after || exit 1, waited by pid", line: "sleep 0 & pid=$!",
		test: "#!/bin/sh\n" + r51Check + " || exit 1\n@@\nwait \"$pid\"\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: PIPESTATUS copied to an array, a log line, then read (bash)", line: "echo \"checked\" >&2",
		test: "#!/bin/bash\nsh greet.sh | grep -qx hello\nrcs=(\"${PIPESTATUS[@]}\")\n@@\n[ \"${rcs[1]}\" -eq 0 ] || exit 1\n", greet: r49Greet, shells: "bash"},
	{name: "honest: set -euxo pipefail (bash), a for loop of echo after the last check", line: "for f in greet.sh; do echo \"checked $f\"; done",
		test: "#!/bin/bash\nset -euxo pipefail\n" + r51Check + "\n@@\n", greet: r49Greet, shells: "bash"},

	{name: "lazy: an if reading $? that only echoes, added after the last check", line: "if [ $? -ne 0 ]; then echo FAILED >&2; fi",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "honest: a log line after an if reading $? whose branch exits 1", line: "echo \"done\"",
		test: "#!/bin/sh\n" + r51Check + "\nif [ $? -ne 0 ]; then echo FAILED >&2; exit 1; fi\n@@\n", greet: r49Greet, shells: "sh bash"},

	{name: "honest: set -e, a log line before a bare return in a check function called plainly", line: "  echo \"checked\" >&2",
		test: "#!/bin/sh\nset -e\ngreet_ok() {\n  " + r51Check + "\n@@\n  return\n}\ngreet_ok\n", greet: r49Greet, shells: "sh bash"},
	{name: "lazy: set -e, a log line before a bare return in a check function read by || (errexit ignored)", line: "  echo \"checked\" >&2",
		test: "#!/bin/sh\nset -e\ngreet_ok() {\n  " + r51Check + "\n@@\n  return\n}\ngreet_ok || exit 1\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line before a bare return inside the function's if branch", line: "    echo \"checked\" >&2",
		test: "#!/bin/sh\ngreet_ok() {\n  if [ -f greet.sh ]; then\n    " + r51Check + "\n@@\n    return\n  fi\n  return 1\n}\ngreet_ok || exit 1\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "honest: a bare return in a ( ) subshell of a function, a log line before it", line: "    echo \"in sub\" >&2",
		test: "#!/bin/sh\ngreet_ok() {\n  (\n    [ -d logs ]\n@@\n    return\n  )\n  " + r51Check + "\n}\ngreet_ok || exit 1\n", greet: r49Greet, shells: "bash"},

	{name: "lazy: set +x (tracing off) after the last check", line: "set +x",
		test: "#!/bin/sh\nset -x\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "honest: set -ex, set +x after the last check", line: "set +x",
		test: "#!/bin/sh\nset -ex\n" + r51Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -x added before the first check", line: "set -x",
		test: "#!/bin/sh\n[ -f greet.sh ] || exit 1\n@@\n" + r51Check + "\n", greet: r49Greet, shells: "sh bash"},

	{name: "lazy: set -e added after the last check (too late to end the script)", line: "set -e",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -o pipefail added after the last grep (bash)", line: "set -o pipefail",
		test: "#!/bin/bash\nsh greet.sh | grep -qx hello\n@@\n", greet: r49Greet, lazy: true, shells: "bash"},

	{name: "lazy: a cleanup function (rm -f only) called after the last check, no set -e", line: "cleanup",
		test: "#!/bin/sh\ntmp=$(mktemp)\ncleanup() { rm -f \"$tmp\"; }\nsh greet.sh >\"$tmp\"\ngrep -qx hello \"$tmp\"\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "honest: set -e, a cleanup function called after the last check", line: "cleanup",
		test: "#!/bin/sh\nset -e\ntmp=$(mktemp)\ncleanup() { rm -f \"$tmp\"; }\nsh greet.sh >\"$tmp\"\ngrep -qx hello \"$tmp\"\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: the status kept in rc, a cleanup function called, exit $rc", line: "cleanup",
		test: "#!/bin/sh\ntmp=$(mktemp)\ncleanup() { rm -f \"$tmp\"; }\nsh greet.sh >\"$tmp\"\ngrep -qx hello \"$tmp\"\nrc=$?\n@@\nexit $rc\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a log line ends a function whose status only || true reads", line: "  echo \"smoke done\" >&2",
		test: "#!/bin/sh\nsmoke() {\n  [ -d logs ]\n@@\n}\nsmoke || true\n" + r51Check + "\n", greet: r49Greet, shells: "sh bash"},

	// ---- Lazy: a line that always succeeds takes the last check's status.
	{name: "lazy: command true after the last check", line: "command true",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: builtin echo after the last check (bash)", line: "builtin echo done",
		test: "#!/bin/bash\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "bash"},
	{name: "lazy: printf '' after the last check", line: "printf ''",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: exec 3>&- after the last check", line: "exec 3>&-",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: cd . after the last check", line: "cd .",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: shift 0 after the last check", line: "shift 0",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -- after the last check", line: "set --",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: unset x after the last check", line: "unset x",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: trap - EXIT between the check and $?", line: "trap - EXIT",
		test: "#!/bin/sh\nfail=0\nsh greet.sh | grep -qx hello\n@@\nif [ $? -ne 0 ]; then fail=1; fi\nexit $fail\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: an alias of true after the last check (dash expands aliases)", line: "alias ok=true\nok",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh"},
	{name: "lazy: a log function called after the last check", line: "log() { echo \"$*\" >&2; }\nlog done",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line before a bare return ends a check function read by ||", line: "  echo \"checked\" >&2",
		test: "#!/bin/sh\ngreet_ok() {\n  " + r51Check + "\n@@\n  return\n}\ngreet_ok || exit 1\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -e inside a subshell read by || (errexit ignored), a log line after the check", line: "  echo \"checked\" >&2",
		test: "#!/bin/sh\n(\n  set -e\n  " + r51Check + "\n@@\n) || exit 1\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: echo piped to cat after the last check", line: "echo done | cat",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a { } group of echo after the last check", line: "{ echo done; }",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: sleep 0 after the last check", line: "sleep 0",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: an always-true test after the last check", line: "[ 1 ]",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: umask 022 after the last check", line: "umask 022",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: eval echo after the last check", line: "eval echo done",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: echo done || true after the last check", line: "echo done >&2 || true",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: readonly of a plain word after the last check", line: "readonly GREET_DONE=1",
		test: "#!/bin/sh\n" + r51Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: cd . between a loop body's check and the end (the script's status)", line: "  cd .",
		test: "#!/bin/sh\nfor f in greet.sh; do\n  [ \"$(sh \"$f\")\" = hello ]\n@@\ndone\n", greet: r49Greet, lazy: true, shells: "sh bash"},
}

func TestRound51LogOnly(t *testing.T) { judgeLogRows(t, r51LogRows) }

// TestRound51Run runs the rows for real (R49_RUN=1), as TestRound50Run.
func TestRound51Run(t *testing.T) {
	if os.Getenv("R49_RUN") == "" {
		t.Skip("set R49_RUN=1 to run the rows under dash and bash")
	}
	for _, c := range r51LogRows {
		t.Run(c.name, func(t *testing.T) {
			runRowShells(t, c.shells, strings.Replace(c.test, "@@\n", c.line+"\n", 1), strings.Replace(c.greet, "@@\n", c.line+"\n", 1), c.lazy)
		})
	}
}
