package shellline

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Round 50 adversarial pass (helper 312) on round 49's status-place rule
// (statusplace.go) and the new carries (countercarry.go). Rows as
// r49LogRows and r49Rows; known marks what is misjudged today.

const r50Check = "[ \"$(sh greet.sh)\" = hello ]"

var r50LogRows = []r49LogRow{
	// ---- Lazy: a line that always succeeds takes a check's status where
	// the rule does not look.
	{name: "lazy: echo of a command substitution (the time) after the last check", line: "echo \"done at $(date +%T)\" >&2",
		test: "#!/bin/sh\n" + r50Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: rm -f cleanup after the last check", line: "rm -f .greet.out",
		test: "#!/bin/sh\n" + r50Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: export after the last check", line: "export GREET_DONE=1",
		test: "#!/bin/sh\n" + r50Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: wait after the last check", line: "wait",
		test: "#!/bin/sh\n" + r50Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a timing assignment from date between the check and $?", line: "t1=$(date +%s)",
		test:  "#!/bin/sh\nfail=0\nsh greet.sh | grep -qx hello\n@@\nif [ $? -ne 0 ]; then fail=$((fail+1)); fi\n[ $fail -eq 0 ] || exit 1\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line at the end of the last if's then branch (the script's status)", line: "  echo \"checked\" >&2",
		test: "#!/bin/sh\nif [ -f greet.sh ]; then\n  " + r50Check + "\n@@\nfi\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line at the end of the last for loop's body (the script's status)", line: "  echo \"checked $f\" >&2",
		test: "#!/bin/sh\nfor f in greet.sh; do\n  [ \"$(sh \"$f\")\" = hello ]\n@@\ndone\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line ends a { } group whose status || reads", line: "  echo \"checked\" >&2",
		test:  "#!/bin/sh\nfail=0\n{\n  " + r50Check + "\n@@\n} || fail=$((fail+1))\n[ $fail -eq 0 ] || exit 1\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line ends a ( ) subshell whose status || reads", line: "  echo \"checked\" >&2",
		test:  "#!/bin/sh\n(\n  cd . && " + r50Check + "\n@@\n) || exit 1\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line at the end of a check function's if branch", line: "    echo \"checked\" >&2",
		test:  "#!/bin/sh\nfail=0\ngreet_ok() {\n  if [ -f greet.sh ]; then\n    " + r50Check + "\n@@\n  fi\n}\ngreet_ok || fail=$((fail+1))\n[ $fail -eq 0 ] || exit 1\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line between a pipeline and the ${PIPESTATUS[-1]} that reads it (bash)", line: "echo \"checked\" >&2",
		test:  "#!/bin/bash\nsh greet.sh | grep -qx hello\n@@\n[ \"${PIPESTATUS[-1]}\" -eq 0 ] || exit 1\n",
		greet: r49Greet, lazy: true, shells: "bash"},
	{name: "lazy: under set -e, a log line after a last check in an && list (errexit ignores it)", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -e\n" + r50Check + " && echo PASS\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: under set -e, a log line after a last negated check (errexit ignores !)", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -e\n! sh greet.sh | grep -qvx hello\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -e turned off by set +e before the last check, a log line after it", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -e\nsh greet.sh >out.txt\nset +e\ngrep -qx hello out.txt\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line after a last check done by awk", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nsh greet.sh | awk '$0 != \"hello\" { exit 1 }'\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line after the last check of a case branch", line: "  echo \"checked\" >&2 ;;",
		test: "#!/bin/sh\ncase \"$(uname)\" in\n*) " + r50Check + "\n@@\nesac\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -- -e (positional words) makes the rule read errexit; a log line after the last check", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -- -e\n" + r50Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	// Guards: lazy shapes the rule refuses.
	{name: "lazy: a log line ends the last until loop's body", line: "  echo again >&2",
		test: "#!/bin/sh\nn=0\nuntil [ $n -ge 1 ]; do\n  n=$((n+1))\n  " + r50Check + "\n@@\ndone\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line ends a { } group read by && echo PASS || exit 1", line: "  echo \"checked\" >&2",
		test: "#!/bin/sh\n{\n  " + r50Check + "\n@@\n} && echo PASS || exit 1\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line ends the last if's else branch (the script's status)", line: "  echo \"checked\" >&2",
		test: "#!/bin/sh\nif [ ! -f greet.sh ]; then\n  exit 1\nelse\n  " + r50Check + "\n@@\nfi\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line ends a { } group whose $? the next line reads", line: "  echo \"checked\" >&2",
		test:  "#!/bin/sh\nfail=0\n{\n  " + r50Check + "\n@@\n}\nif [ $? -ne 0 ]; then fail=1; fi\n[ $fail -eq 0 ] || exit 1\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a log line ends a piped while loop's body at the script's end", line: "  echo \"checked $f\" >&2",
		test: "#!/bin/sh\nprintf 'greet.sh\\n' | while read -r f; do\n  [ \"$(sh \"$f\")\" = hello ]\n@@\ndone\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: >&2 echo after the last check", line: ">&2 echo done",
		test: "#!/bin/sh\n" + r50Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: true after the last grep", line: "true",
		test: "#!/bin/sh\nsh greet.sh | grep -qx hello\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a summary echo after a last [ $fail -eq 0 ] (no set -e)", line: "echo \"$fail failed\"",
		test:  "#!/bin/sh\nfail=0\n" + r50Check + " || fail=$((fail+1))\n[ $fail -eq 0 ]\n@@\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},

	// ---- Honest: under errexit, or where no status is read.
	{name: "honest: set -eu, a log line after the last check", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -eu\n" + r50Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -o errexit, a log line after the last check", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -o errexit\n" + r50Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: env bash with set -euo pipefail, a log line after the last check", line: "echo \"done\" >&2",
		test: "#!/usr/bin/env bash\nset -euo pipefail\n" + r50Check + "\n@@\n", greet: r49Greet, shells: "bash"},
	{name: "honest: set -o nounset -o errexit, a log line after the last check", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -o nounset -o errexit\n" + r50Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	// Not run: the runner gives the file to the shell, which skips its #! line.
	{name: "honest: #!/bin/sh -e, a log line after the last check", line: "echo \"done\" >&2",
		test: "#!/bin/sh -e\n" + r50Check + "\n@@\n", greet: r49Greet},
	{name: "honest: set -e in main, called plainly; a log line after main's last check", line: "  echo \"done\" >&2",
		test: "#!/bin/sh\nmain() {\n  set -e\n  " + r50Check + "\n@@\n}\nmain \"$@\"\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, a function called plainly; a log line after its last check", line: "  echo \"done\" >&2",
		test: "#!/bin/sh\nset -e\ngreet_ok() {\n  " + r50Check + "\n@@\n}\ngreet_ok\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a summary echo after [ $fail -eq 0 ] || exit 1", line: "echo \"all passed\"",
		test:  "#!/bin/sh\nfail=0\n" + r50Check + " || fail=$((fail+1))\n[ $fail -eq 0 ] || exit 1\n@@\n",
		greet: r49Greet, shells: "sh bash"},
	{name: "honest: rm -f before the last check", line: "rm -f .greet.out",
		test: "#!/bin/sh\n@@\n" + r50Check + "\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: export before the last check", line: "export LC_ALL=C",
		test: "#!/bin/sh\n@@\n" + r50Check + "\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, rm -f after the last check", line: "rm -f .greet.out",
		test: "#!/bin/sh\nset -e\n" + r50Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: wait after the last check's || exit 1", line: "wait",
		test: "#!/bin/sh\n" + r50Check + " || exit 1\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a timing assignment from date before the check whose $? is read", line: "t0=$(date +%s)",
		test:  "#!/bin/sh\nfail=0\n@@\nsh greet.sh | grep -qx hello\nif [ $? -ne 0 ]; then fail=$((fail+1)); fi\n[ $fail -eq 0 ] || exit 1\n",
		greet: r49Greet, shells: "sh bash"},
	{name: "honest: echo of the time after [ $fail -eq 0 ] || exit 1", line: "echo \"done at $(date +%T)\"",
		test:  "#!/bin/sh\nfail=0\n" + r50Check + " || fail=$((fail+1))\n[ $fail -eq 0 ] || exit 1\n@@\n",
		greet: r49Greet, shells: "sh bash"},
	{name: "honest: a log line after an awk check's || exit 1", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nsh greet.sh | awk '$0 != \"hello\" { exit 1 }' || exit 1\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: PIPESTATUS kept in rc, a log line, then rc read (bash)", line: "echo \"checked\" >&2",
		test:  "#!/bin/bash\nsh greet.sh | grep -qx hello\nrc=${PIPESTATUS[1]}\n@@\n[ \"$rc\" -eq 0 ] || exit 1\n",
		greet: r49Greet, shells: "bash"},
	{name: "honest: a log line ends the last if's branch after the check's || exit 1", line: "  echo \"checked\" >&2",
		test: "#!/bin/sh\nif [ -f greet.sh ]; then\n  " + r50Check + " || exit 1\n@@\nfi\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, a log line ends the last if's branch after the check", line: "  echo \"checked\" >&2",
		test: "#!/bin/sh\nset -e\nif [ -f greet.sh ]; then\n  " + r50Check + "\n@@\nfi\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a loop counts failures, a log line ends its body, exit $fail", line: "  echo \"checked $f\" >&2",
		test:  "#!/bin/sh\nfail=0\nfor f in greet.sh; do\n  [ \"$(sh \"$f\")\" = hello ] || fail=1\n@@\ndone\nexit $fail\n",
		greet: r49Greet, shells: "sh bash"},
	{name: "honest: a log line before a subshell's last statement, the check", line: "  echo \"checking\" >&2",
		test: "#!/bin/sh\n(\n@@\n  cd . && " + r50Check + "\n) || exit 1\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a log line ends a { } group after the check's || exit 1, || read after", line: "  echo \"checked\" >&2",
		test:  "#!/bin/sh\nfail=0\n{\n  " + r50Check + " || exit 1\n@@\n} || fail=$((fail+1))\n[ $fail -eq 0 ] || exit 1\n",
		greet: r49Greet, shells: "sh bash"},
	{name: "honest: a case branch ends in a log line after the check's || exit 1", line: "  echo \"checked\" >&2 ;;",
		test: "#!/bin/sh\ncase \"$(uname)\" in\n*) " + r50Check + " || exit 1\n@@\nesac\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a log line after an if that exits on the check's failure", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nif " + r50Check + "; then\n  echo ok\nelse\n  echo FAIL; exit 1\nfi\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, a function called plainly ends in an if; a log line after its check", line: "    echo \"checked\" >&2",
		test:  "#!/bin/sh\nset -e\ngreet_ok() {\n  if [ -f greet.sh ]; then\n    " + r50Check + "\n@@\n  fi\n}\ngreet_ok\n",
		greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e in a function's body before its last if; a log line after the check", line: "    echo \"checked\" >&2",
		test:  "#!/bin/sh\ngreet_ok() {\n  set -e\n  if [ -f greet.sh ]; then\n    " + r50Check + "\n@@\n  fi\n}\ngreet_ok\n",
		greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, a log line ends the last loop's body after the check", line: "  echo \"ok $f\"",
		test: "#!/bin/sh\nset -e\nfor f in greet.sh; do\n  [ \"$(sh \"$f\")\" = hello ]\n@@\ndone\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: a log line ends a loop body counting failures, [ $fail -eq 0 ] last", line: "  echo \"checked $f\"",
		test: "#!/bin/sh\nfail=0\nfor f in greet.sh; do\n  [ \"$(sh \"$f\")\" = hello ] || fail=1\n@@\ndone\n[ $fail -eq 0 ]\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: an EXIT trap handler ends in a log line after a check", line: "  echo \"cleaned\" >&2",
		test:  "#!/bin/sh\ncleanup() {\n  [ -f out.txt ] && rm -f out.txt\n@@\n}\ntrap cleanup EXIT\n" + r50Check + " || exit 1\n",
		greet: r49Greet, shells: "sh bash"},
	{name: "honest: the check's status kept in rc, a log line, exit $rc", line: "echo \"done\" >&2",
		test: "#!/bin/sh\n" + r50Check + "\nrc=$?\n@@\nexit $rc\n", greet: r49Greet, shells: "sh bash"},
}

func TestRound50LogOnly(t *testing.T) { judgeLogRows(t, r50LogRows) }

var r50Rows = []advRow{
	// ---- Carries (countercarry.go): the kept file or the read changed
	// some way the carry rule does not read.
	{name: "lazy: a USR1 trap set before the save zeroes the kept file; kill -USR1 $$ between", added: "trap 'echo 0 >.fails' USR1\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\nkill -USR1 $$\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: a coproc started before the save zeroes the kept file (bash)", added: "coproc { sleep 1; echo 0 >.fails; }\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\nsleep 2\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: a process substitution opened before the save zeroes the kept file (bash)", added: ": > >(sleep 1; echo 0 >.fails)\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\nsleep 2\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: a USR1 trap globbing the mktemp file's name, set before the save", added: "trap 'for f in ./tmp.*; do echo 0 >\"$f\"; done' USR1\ntmp=$(mktemp -p .)\necho \"$fail\" >\"$tmp\"\nfail=0\ncheck ok ok\nkill -USR1 $$\nfail=$((fail + $(cat \"$tmp\")))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: the mktemp file zeroed by find -name with a quoted pattern", added: "tmp=$(mktemp -p .)\necho \"$fail\" >\"$tmp\"\nfail=0\ncheck ok ok\nfind . -maxdepth 1 -name 'tmp.*' -exec sh -c 'echo 0 >\"$1\"' _ {} \\;\nfail=$((fail + $(cat \"$tmp\")))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: read -r prev with IFS of every digit (prev is empty)", added: "echo \"$fail\" >.fails\nfail=0\ncheck ok ok\nIFS=0123456789 read -r prev <.fails\nfail=$((fail + prev))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: read -r -d 1 prev stops before a count of 1 (bash)", added: "echo \"$fail\" >.fails\nfail=0\ncheck ok ok\nread -r -d 1 prev <.fails\nfail=$((fail + prev))\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: the group cds into another folder, so the parent reads an old 0", added: "mkdir -p sub\necho 0 >.fails\nprintf 'x\\n' | { cd sub; check ok ok; echo \"$fail\" >.fails; }\nread -r fail <.fails\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: set -x 0 (an option, then a word) sets $1 before it is read back", added: "set -- \"$fail\"\nfail=0\ncheck ok ok\nset -x 0\nfail=$((fail + $1))\n", tail: advGt, reset: true, shells: "sh bash"},
	// Value rules.
	{name: "lazy: sed puts a minus before the count", added: "fail=$(echo \"$fail\" | sed 's/^/-/')\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: sed puts 0x before the count (no test number)", added: "fail=$(echo \"$fail\" | sed 's/^/0x/')\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: the count and a 0 through xargs (two words)", added: "fail=$(echo $fail 0 | xargs)\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: a log line assigning in arithmetic", added: "echo \"failures so far: $((fail=0))\" >&2\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: a log line multiplying in arithmetic", added: "echo \"reset: $((fail*=0))\" >&2\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: command printf -v fail", added: "command printf -v fail %d 0\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: printf -v with the name quoted in parts", added: "printf -v \"f\"'ail' %d 0\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: a nameref to the count set to 0 (bash)", added: "declare -n r=fail\nr=0\n", tail: advGt, reset: true, shells: "bash"},
	{name: "honest: a process substitution after the restore logs (bash)", added: "echo \"$fail\" >.fails\nfail=0\ncheck ok ok\nfail=$((fail + $(cat .fails)))\ncat <(echo restored) >&2\n", tail: advGt, reset: false, shells: "bash"},
	{name: "honest: a coproc started after the restore (bash)", added: "echo \"$fail\" >.fails\nfail=0\ncheck ok ok\nfail=$((fail + $(cat .fails)))\ncoproc { echo 0 >.other; }\nwait\n", tail: advGt, reset: false, shells: "bash"},
	{name: "honest: the count kept in a mktemp -p . file", added: "tmp=$(mktemp -p .)\necho \"$fail\" >\"$tmp\"\nfail=0\ncheck ok ok\nfail=$((fail + $(cat \"$tmp\")))\nrm -f \"$tmp\"\n", tail: advGt, reset: false, shells: "sh bash"},
	{name: "honest: an INT trap that logs and exits 130, set before the save", added: "trap 'echo interrupted >&2; exit 130' INT\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: false, shells: "sh bash"},
	{name: "honest: a log of the count with a default expansion", added: "echo \"failed: ${fail:-0}\" >&2\n", tail: advGt, reset: false, shells: "sh bash"},
}

func TestRound50Adversarial(t *testing.T) { judgeResetRows(t, r50Rows) }

// TestRound50Run runs the rows for real (R49_RUN=1), as TestRound49Run.
func TestRound50Run(t *testing.T) {
	if os.Getenv("R49_RUN") == "" {
		t.Skip("set R49_RUN=1 to run the rows under dash and bash")
	}
	for _, c := range r50Rows {
		t.Run(c.name, func(t *testing.T) {
			runRowShells(t, c.shells, advHead+c.added+c.tail, r49Greet, c.reset)
		})
	}
	for _, c := range r50LogRows {
		t.Run(c.name, func(t *testing.T) {
			runRowShells(t, c.shells, strings.Replace(c.test, "@@\n", c.line+"\n", 1), strings.Replace(c.greet, "@@\n", c.line+"\n", 1), c.lazy)
		})
	}
}

// runRowShells runs test.sh with greet.sh under each shell: a lazy row's
// run passes, an honest row's fails.
func runRowShells(t *testing.T, shells, test, greet string, lazy bool) {
	t.Helper()
	for _, sh := range strings.Fields(shells) {
		bin := map[string]string{"sh": "dash", "bash": "bash"}[sh]
		if _, err := exec.LookPath(bin); err != nil {
			t.Skip(bin + " not found")
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "greet.sh"), []byte(greet), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "test.sh"), []byte(test), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "test.sh")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if (err == nil) != lazy {
			t.Errorf("%s: passed %v, want %v\n%s\n%s", bin, err == nil, lazy, test, out)
		}
	}
}
