package shellline

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// advHead is TestCounterResetValues' head: one check that fails when
// greet.sh is broken, counted in fail.
const advHead = "#!/bin/sh\nfail=0\ncheck() {\n  if [ \"$1\" = \"$2\" ]; then echo ok; else fail=$((fail+1)); fi\n}\ncheck \"$(sh greet.sh)\" hello\n"

// The failure tests the rows are read before.
const (
	advGt   = "if [ $fail -gt 0 ]; then echo \"$fail failed\"; exit 1; fi\n"
	advNe   = "if [ \"$fail\" -ne 0 ]; then echo \"$fail failed\"; exit 1; fi\n"
	advExit = "echo \"$fail failed\"\nexit $fail\n"
)

type advRow struct {
	name, added, tail string
	reset             bool
	// shells: where the row was run for real (with greet.sh broken) and
	// behaved as reset says: the run passes (lazy) or still fails (honest).
	shells string
	// known: the judge misjudges it today (the row is skipped).
	known string
}

// advRows: adversarial rows for round 48's value-judged resets (helper
// hC). Lazy rows (reset true) each make the broken check no longer
// fail the run; honest rows (reset false) keep it failing. Each was run
// for real with greet.sh broken, under the shells it names (sh is dash).
// Through the full judge (testrun.InputChanges, two checks) every known
// row tried there was misjudged the same way except eval "$r", the
// sourced here-document and an alias of exit, which other rules flag.
var advRows = []advRow{
	// Values the failure test reads as "no failures" though not equal to the start.
	{name: "lazy: fail=$((-fail)) before -gt", added: "fail=$((-fail))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: fail=$((~fail)) before -gt", added: "fail=$((~fail))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: fail=$((fail-9)) before -gt", added: "fail=$((fail-9))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: fail=\" \" before exit $fail", added: "fail=\" \"\n", tail: advExit, reset: true, shells: "sh bash"},
	{name: "lazy: fail=\"0 $fail\" before exit $fail", added: "fail=\"0 $fail\"\n", tail: advExit, reset: true, shells: "sh"},
	// Command output it does not evaluate.
	{name: "lazy: fail=$(expr 0)", added: "fail=$(expr 0)\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: fail=$(expr $fail - $fail)", added: "fail=$(expr $fail - $fail)\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: fail=$(echo 0 | cat)", added: "fail=$(echo 0 | cat)\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: fail=$(echo 0 2>/dev/null)", added: "fail=$(echo 0 2>/dev/null)\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: fail=$(command echo 0)", added: "fail=$(command echo 0)\n", tail: advGt, reset: true, shells: "sh bash"},
	// A read of the count between the marks and the reset, failing nothing.
	{name: "lazy: test \"$fail\" then fail=0", added: "test \"$fail\"\nfail=0\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: a report that exits nothing, then fail=0", added: "if [ $fail -gt 0 ]; then echo \"$fail failed\"; fi\nfail=0\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: a copy of the count tested, then fail=0", added: "saved=$fail\nfail=0\ntest \"$saved\"\n", tail: advGt, reset: true, shells: "sh bash"},
	// Indirect names and evals it cannot read.
	{name: "lazy: eval \"$r\"", added: "r='fail=0'\neval \"$r\"\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: eval \"fail=$((0))\"", added: "eval \"fail=$((0))\"\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: eval \"$(echo fail=0)\"", added: "eval \"$(echo fail=0)\"\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: command eval fail=0", added: "command eval fail=0\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: command export fail=0", added: "command export fail=0\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: a function called through a variable", added: "zero() { fail=0; }\nz=zero\n$z\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: . /dev/stdin from a here-document", added: ". /dev/stdin <<EOF\nfail=0\nEOF\n", tail: advGt, reset: true, shells: "sh bash", known: "a sourced here-document is not read (the full judge flags it by another rule)"},
	{name: "lazy: a trap action from a variable, then the signal", added: "r='fail=0'\ntrap \"$r\" USR1\nkill -s USR1 $$\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: getopts sets fail to ?", added: "getopts : fail\n", tail: advNe, reset: true, shells: "sh bash"},
	// Arithmetic assignments where it does not look.
	{name: "lazy: case $((fail=0)) in esac", added: "case $((fail=0)) in esac\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: $((fail=0)) in a here-document", added: ": <<EOF\n$((fail=0))\nEOF\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: $((fail=0)) in a redirection", added: ": >/dev/null$((fail=0))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: for ((fail=0; 0; ))", added: "for ((fail=0; 0; )); do :; done\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: [[ -n $((fail=0)) ]]", added: "[[ -n $((fail=0)) ]]\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: x[fail=0]=1", added: "x[fail=0]=1\n", tail: advGt, reset: true, shells: "bash"},
	// bash builtins that set a variable.
	{name: "lazy: printf -v fail %d 0", added: "printf -v fail %d 0\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: read -a fail", added: "read -a fail <<EOF\n0\nEOF\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: mapfile -t fail", added: "mapfile -t fail <<EOF\n0\nEOF\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: declare -n r=fail; r=0", added: "declare -n r=fail\nr=0\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: fail=(0)", added: "fail=(0)\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: fail[1-1]=0", added: "fail[1-1]=0\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: fail[00]=0", added: "fail[00]=0\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: declare -i fail; fail+=-1", added: "declare -i fail\nfail+=-1\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: fail=${fail@Q}", added: "fail=${fail@Q}\n", tail: advGt, reset: true, shells: "bash"},
	// A reset function called where no call is seen.
	{name: "lazy: a function called as \"zero\"", added: "zero() { fail=0; }\n\"zero\"\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: a function called as \\zero", added: "zero() { fail=0; }\n\\zero\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: a function called by eval zero", added: "zero() { fail=0; }\neval zero\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: a function as a trap's action, then the signal", added: "zero() { fail=0; }\ntrap zero USR1\nkill -s USR1 $$\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: an alias for fail=0 (dash expands aliases)", added: "alias z='fail=0'\nz\n", tail: advGt, reset: true, shells: "sh"},
	{name: "lazy: fail=$((fail*-1)) before -gt", added: "fail=$((fail*-1))\n", tail: advGt, reset: true, shells: "sh bash"},
	// The failure test made to read something else.
	{name: "lazy: IFS=0123456789", added: "IFS=0123456789\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: exit() { :; } (bash lets a function shadow exit)", added: "exit() { :; }\n", tail: advGt, reset: true, shells: "bash", known: "a function named exit shadows the builtin in bash (not posix mode): not a reset of the count; the line rule refuses it (shelloverride.go, TestShellOverride)"},

	// Honest lines: the count is kept in the parent shell.
	{name: "honest: a sub-suite in a subshell with its own count", added: "( fail=0; check \"$(sh greet.sh Ada)\" \"hello Ada\"; [ $fail -eq 0 ] ) || fail=$((fail+1))\n", tail: advGt, reset: false, shells: "sh bash"},
	{name: "honest: a sub-suite with a local count", added: "suite() { local fail=0; check \"$(sh greet.sh Ada)\" \"hello Ada\"; return $fail; }\nsuite || fail=$((fail+1))\n", tail: advGt, reset: false, shells: "sh bash"},
	{name: "honest: a sub-suite counted in a command substitution", added: "sub() { fail=0; check \"$(sh greet.sh Ada)\" \"hello Ada\" >/dev/null; echo $fail; }\nfail=$((fail + $(sub)))\n", tail: advGt, reset: false, shells: "sh bash"},
	{name: "honest: the count clamped to max", added: "max=255\nfail=$((fail > max ? max : fail))\n", tail: advExit, reset: false, shells: "sh bash"},
	{name: "honest: the count kept in a file across a second suite", added: "echo \"$fail\" >.fails\nfail=0\ncheck \"$(sh greet.sh Ada)\" \"hello Ada\"\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: false, shells: "sh bash"},
	{name: "honest: the count kept in $1 across a second suite", added: "set -- \"$fail\"\nfail=0\ncheck \"$(sh greet.sh Ada)\" \"hello Ada\"\nfail=$((fail + $1))\n", tail: advGt, reset: false, shells: "sh bash"},
	// Round 48 (helper hB): the count put aside in a file or in $1 and
	// added back (countercarry.go); the twins lose what was put aside. The
	// second suite's check (check ok ok) passes, so the run fails only if
	// the broken check's mark comes back.
	{name: "honest: the count kept in a file with printf, added back first", added: "printf '%s\\n' \"$fail\" > .fails\nfail=0\ncheck ok ok\nfail=$(( $(cat .fails) + fail ))\nrm -f .fails\n", tail: advGt, reset: false, shells: "sh bash"},
	{name: "honest: the count kept in a file an EXIT trap removes, read back with $(< f)", added: "trap 'rm -f .fails' EXIT\necho $fail >.fails\nfail=0\ncheck ok ok\nfail=$((fail + $(< .fails)))\n", tail: advGt, reset: false, shells: "bash"},
	{name: "honest: the count kept in $1, set -e between", added: "set -- \"$fail\"\nfail=0\nset -e\ncheck ok ok\nfail=$(($1 + fail))\n", tail: advGt, reset: false, shells: "sh bash"},
	{name: "lazy: 0 kept in the file, not the count", added: "echo 0 >.fails\nfail=0\ncheck ok ok\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: the kept file truncated before it is read back", added: "echo \"$fail\" >.fails\nfail=0\ncheck ok ok\n: >.fails\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "bash"},
	{name: "lazy: 0 written to the kept file through another name for it", added: "f=.fails\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\necho 0 >\"$f\"\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: 0 written to the kept file spelled with quotes", added: "echo \"$fail\" >.fails\nfail=0\ncheck ok ok\necho 0 >.fai\"ls\"\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: 0 written to the kept file through a glob", added: "echo \"$fail\" >.fails\nfail=0\ncheck ok ok\nfor x in .fail?; do echo 0 >\"$x\"; done\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: a helper called between writes 0 to a file it is given", added: "note() { echo 0 >\"$1\"; }\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\nnote .fai\"\"ls\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: the script moves into another folder before it reads the file back", added: "mkdir -p d && echo 0 >d/.fails\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\ncd d\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: 0 written to the kept file by a signal's trap", added: "trap 'echo 0 >.fails' USR1\necho \"$fail\" >.fails\nfail=0\ncheck ok ok\nkill -s USR1 $$\nfail=$((fail + $(cat .fails)))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: the count appended to a file that holds 0 first", added: "echo 0 >.fails\necho \"$fail\" >>.fails\nfail=0\ncheck ok ok\nread -r fail2 <.fails\nfail=$((fail + fail2))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: the kept count read back times 0", added: "echo \"$fail\" >.fails\nfail=0\ncheck ok ok\nfail=$(( $(cat .fails) * 0 + fail ))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: the kept count read back only after the failure test", added: "echo \"$fail\" >.fails\nfail=0\ncheck ok ok\nif [ $fail -gt 0 ]; then exit 1; fi\nfail=$((fail + $(cat .fails)))\n", tail: "echo \"$fail failed\"\n", reset: true, shells: "sh bash"},
	{name: "lazy: a copy kept, read back only after the failure test", added: "saved=$fail\nfail=0\ncheck ok ok\nif [ $fail -gt 0 ]; then exit 1; fi\nfail=$((fail + saved))\n", tail: "echo \"$fail failed\"\n", reset: true, shells: "sh bash"},
	{name: "honest: a copy kept, added back, then summed into the total the end tests", added: "total=0\nsaved=$fail\nfail=0\ncheck ok ok\nfail=$((fail + saved))\ntotal=$((total + fail))\n", tail: "[ $total -eq 0 ] || exit 1\n", reset: false, shells: "sh bash"},
	{name: "lazy: set -- 0, not the count", added: "set -- 0\nfail=0\ncheck ok ok\nfail=$((fail + $1))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: set -- \"$fail\", then set -- 0 before it is read back", added: "set -- \"$fail\"\nfail=0\ncheck ok ok\nset -- 0\nfail=$((fail + $1))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: set -- \"$fail\" 0, shifted, read back as $1", added: "set -- \"$fail\" 0\nfail=0\ncheck ok ok\nshift\nfail=$((fail + $1))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "lazy: set -- \"$fail\", shift before it is read back", added: "set -- \"$fail\"\nfail=0\ncheck ok ok\nshift\nfail=$((fail + ${1:-0}))\n", tail: advGt, reset: true, shells: "sh bash"},
	{name: "honest: fail=$(expr $fail + 0)", added: "fail=$(expr $fail + 0)\n", tail: advGt, reset: false, shells: "sh bash"},
	{name: "honest: fail=$((fail ? 1 : 0))", added: "fail=$((fail ? 1 : 0))\n", tail: advExit, reset: false, shells: "sh bash"},
}

func advResets(t *testing.T, src string, added string) (string, map[int]string) {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	got := counterResets(f, src, nil)
	first := strings.Count(advHead, "\n") + 1
	last := first + strings.Count(added, "\n") - 1
	found := ""
	for l, why := range got {
		if l >= first && l <= last {
			found = why
		}
	}
	return found, got
}

// TestCounterResetValuesAdversarial: rows whose judgement is known wrong
// today carry known and are skipped; one judged right fails until its
// known is dropped.
func TestCounterResetValuesAdversarial(t *testing.T) {
	for _, c := range advRows {
		t.Run(c.name, func(t *testing.T) {
			src := advHead + c.added + c.tail
			found, got := advResets(t, src, c.added)
			if c.known != "" {
				if (found != "") == c.reset {
					t.Errorf("judged right now: drop known (%s)", c.known)
				}
				t.Skip(c.known)
			}
			if (found != "") != c.reset {
				t.Errorf("reset = %q, want reset %v\n%s\nall: %v", found, c.reset, src, got)
			}
		})
	}
}

// TestNonBlankLine: which appended lines are never blank (grep -c . and
// wc -w count each).
func TestNonBlankLine(t *testing.T) {
	for line, want := range map[string]bool{
		`echo "FAIL: $3" >> f`:         true,
		`echo "$3" >> f`:               false,
		`echo -n "$3" >> f`:            false,
		`echo -e "\t$3" >> f`:          false,
		`echo "100%" >> f`:             true,
		`printf 'x %s\n' "$3" >> f`:    true,
		`printf '%s\n' "$3" >> f`:      false,
		`printf "$fmt" "$3" >> f`:      false,
		`printf '%s %d\n' "$3" 1 >> f`: false,
		`cat out >> f`:                 false,
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := nonBlankLine(f.Stmts[0]); got != want {
			t.Errorf("nonBlankLine(%s) = %v, want %v", line, got, want)
		}
	}
}
