package shellline

import (
	"os"
	"strings"
	"testing"
)

// Round 50 fixes (helper 313): guards for the status-place rule's trap
// handler and set -e function readers (statusfns.go): the lazy shapes
// next to the honest rows helper 312 found refused stay refused.

var r50FixRows = []r49LogRow{
	// Trap handlers.
	{name: "honest: an INT and TERM trap handler ends in a log line after a check", line: "  echo \"cleaned\" >&2",
		test:  "#!/bin/sh\ncleanup() {\n  [ -f out.txt ] && rm -f out.txt\n@@\n}\ntrap 'cleanup; exit 130' INT TERM\n" + r50Check + " || exit 1\n",
		greet: r49Greet, shells: "sh bash"},
	{name: "honest: trap -- cleanup EXIT, the handler ends in a log line", line: "  echo \"cleaned\" >&2",
		test:  "#!/bin/sh\ncleanup() {\n  [ -f out.txt ] && rm -f out.txt\n@@\n}\ntrap -- cleanup EXIT\n" + r50Check + " || exit 1\n",
		greet: r49Greet, shells: "sh bash"},
	{name: "lazy: an EXIT trap passes the handler's status on with exit $?", line: "  echo \"cleaned\" >&2",
		test:  "#!/bin/sh\nfinish() {\n  " + r50Check + "\n@@\n}\ntrap 'finish; exit $?' EXIT\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a trap handler also called with || exit 1", line: "  echo \"checked\" >&2",
		test:  "#!/bin/sh\nfinish() {\n  " + r50Check + "\n@@\n}\ntrap finish EXIT\nfinish || exit 1\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a trap handler also called by name through a variable", line: "  echo \"checked\" >&2",
		test:  "#!/bin/sh\nfinish() {\n  " + r50Check + "\n@@\n}\ntrap finish EXIT\nz=finish\n$z || exit 1\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: a trap action tests the handler (finish || exit 1)", line: "  echo \"checked\" >&2",
		test:  "#!/bin/sh\nfinish() {\n  " + r50Check + "\n@@\n}\ntrap 'finish || exit 1' EXIT\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	// Where set -e is on (statusfns.go: errexitAtStmt).
	{name: "honest: set +e around a status kept, set -e again before the last check", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -e\nset +e\nsh greet.sh >/dev/null\nrc=$?\nset -e\n" + r50Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, then set -- a b (positional words), a log line after the last check", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -e\nset -- a b\n" + r50Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "honest: set -e, a check as the last of an && list, a log line after", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -e\ncd . && " + r50Check + "\n@@\n", greet: r49Greet, shells: "sh bash"},
	{name: "lazy: set -e, a helper called before the check turns it off", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -e\nrelax() { set +e; }\nrelax\n" + r50Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -e, set +e in an if before the check", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -e\nif [ -f greet.sh ]; then set +e; fi\n" + r50Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -e, set -x 0 -e (positional words after 0)", line: "echo \"done\" >&2",
		test: "#!/bin/sh\nset -x 0 -e\n" + r50Check + "\n@@\n", greet: r49Greet, lazy: true, shells: "sh bash"},
	// set -e and a function called plainly.
	{name: "honest: set -e, main called plainly and not last; a log line after its last check", line: "  echo \"done\" >&2",
		test:  "#!/bin/sh\nset -e\nmain() {\n  " + r50Check + "\n@@\n}\nmain\necho bye\n",
		greet: r49Greet, shells: "sh bash"},
	{name: "lazy: set -e, the function called with || (errexit ignored in it)", line: "  echo \"done\" >&2",
		test:  "#!/bin/sh\nset -e\nfail=0\ngreet_ok() {\n  " + r50Check + "\n@@\n}\ngreet_ok || fail=1\n[ $fail -eq 0 ]\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -e, the function called in an if (errexit ignored in it)", line: "  echo \"done\" >&2",
		test:  "#!/bin/sh\nset -e\ngreet_ok() {\n  " + r50Check + "\n@@\n}\nif ! greet_ok; then exit 1; fi\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -e, then set +e before the plain call", line: "  echo \"done\" >&2",
		test:  "#!/bin/sh\nset -e\ngreet_ok() {\n  " + r50Check + "\n@@\n}\nset +e\ngreet_ok\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -e, a called helper turns it off before the plain call", line: "  echo \"done\" >&2",
		test:  "#!/bin/sh\nset -e\nrelax() { set +e; }\ngreet_ok() {\n  " + r50Check + "\n@@\n}\nrelax\ngreet_ok\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -e, the check in an && list in the plainly called function", line: "  echo \"done\" >&2",
		test:  "#!/bin/sh\nset -e\ngreet_ok() {\n  " + r50Check + " && echo ok\n@@\n}\ngreet_ok\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -e inside main, main called with || exit 1 (errexit ignored)", line: "  echo \"done\" >&2",
		test:  "#!/bin/sh\nmain() {\n  set -e\n  " + r50Check + "\n@@\n}\nmain \"$@\" || exit 1\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -e inside main, set +e after it before the check", line: "  echo \"done\" >&2",
		test:  "#!/bin/sh\nmain() {\n  set -e\n  set +e\n  " + r50Check + "\n@@\n}\nmain \"$@\"\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
	{name: "lazy: set -e, the plain call in a pipeline", line: "  echo \"done\" >&2",
		test:  "#!/bin/sh\nset -e\ngreet_ok() {\n  " + r50Check + "\n@@\n}\ngreet_ok | cat\n",
		greet: r49Greet, lazy: true, shells: "sh bash"},
}

// Carries (countercarry.go): a trap that only logs to stderr or exits
// keeps the carry; one that writes the file or sets a count does not.
var r50FixCarryRows = []advRow{
	{name: "honest: a TERM trap printf to /dev/stderr, then exit 143", added: "trap 'printf \"terminated\\n\" >/dev/stderr; exit 143' TERM\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: false, shells: "sh bash"},
	{name: "honest: -- before an INT trap's action that logs and exits", added: "trap -- 'echo interrupted >&2; exit 130' INT\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: false, shells: "sh bash"},
	{name: "lazy: a USR1 trap's echo to stderr, then stdout to the kept file", added: "trap 'echo 0 >&2 >.fails' USR1\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\nkill -USR1 $$\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: a USR1 trap logging to stderr with printf -v the count's file name", added: "trap 'printf -v x %s .fails >&2; echo 0 >$x' USR1\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\nkill -USR1 $$\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: a USR1 trap's stderr log runs a command that zeroes the file", added: "trap 'echo \"$(echo 0 >.fails)\" >&2' USR1\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\nkill -USR1 $$\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: a USR1 trap's action in double quotes, expanded when set", added: "z='echo 0 >.fails'\ntrap \"$z\" USR1\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\nkill -USR1 $$\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "sh bash"},
}

func TestRound50FixCarries(t *testing.T) {
	for _, c := range r50FixCarryRows {
		t.Run(c.name, func(t *testing.T) {
			src := advHead + c.added + c.tail
			found, got := advResets(t, src, c.added)
			if (found != "") != c.reset {
				t.Errorf("reset = %q, want reset %v\n%s\nall: %v", found, c.reset, src, got)
			}
		})
	}
}

func TestRound50Fixes(t *testing.T) { judgeLogRows(t, r50FixRows) }

// TestRound50FixesRun runs the rows for real (R49_RUN=1).
func TestRound50FixesRun(t *testing.T) {
	if os.Getenv("R49_RUN") == "" {
		t.Skip("set R49_RUN=1 to run the rows under dash and bash")
	}
	for _, c := range r50FixCarryRows {
		t.Run(c.name, func(t *testing.T) {
			runRowShells(t, c.shells, advHead+c.added+c.tail, r49Greet, c.reset)
		})
	}
	for _, c := range r50FixRows {
		t.Run(c.name, func(t *testing.T) {
			runRowShells(t, c.shells, strings.Replace(c.test, "@@\n", c.line+"\n", 1), strings.Replace(c.greet, "@@\n", c.line+"\n", 1), c.lazy)
		})
	}
}
