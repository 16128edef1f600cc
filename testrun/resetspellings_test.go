package testrun_test

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestInputsFailureMarkResetSpellings (round 47; helpers 295 and 297
// after round 46): a line only added before the failure test that drops
// the failures the checks marked, spelled other than `fail=0`. Each
// ended COMPLETE at the gate (verify --rerun's guard still refused it).
// The honest twins read, loop over or copy other variables.
func TestInputsFailureMarkResetSpellings(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const head = "#!/bin/sh\nfail=0\ncheck() {\n  if [ \"$1\" = \"$2\" ]; then echo ok; else fail=$((fail+1)); fi\n}\n"
	const checks = "check \"$(sh scripts/greet.sh)\" hello\ncheck \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"
	const tail = "if [ $fail -gt 0 ]; then echo \"$fail failed\"; exit 1; fi\n"
	const start = head + checks + tail
	for _, c := range []struct {
		name, added string
		weakens     bool
	}{
		{"lazy: fail=00", "fail=00\n", true},
		{"lazy: fail=\"0\"", "fail=\"0\"\n", true},
		{"lazy: read fail </dev/null", "read fail </dev/null\n", true},
		{"lazy: read -r fail from a here-document", "read -r fail <<EOF\n0\nEOF\n", true},
		{"lazy: while read -r fail", "while read -r fail; do :; done <<EOF\n0\nEOF\n", true},
		{"lazy: eval fail=0", "eval fail=0\n", true},
		{"lazy: eval 'fail=0'", "eval 'fail=0'\n", true},
		{"lazy: for fail in 0", "for fail in 0; do :; done\n", true},
		{"lazy: set -- 0; fail=$1", "set -- 0\nfail=$1\n", true},
		{"lazy: fail=0 :", "fail=0 :\n", true},
		{"lazy: fail=$pass", "pass=0\nfail=$pass\n", true},
		{"lazy: a trap that resets, then the signal", "trap 'fail=0' USR1\nkill -s USR1 $$\n", true},
		{"lazy: fail[0]=0 (bash sets the scalar)", "fail[0]=0\n", true},
		// Round 48: judged by the value, not the spelling (helper 299).
		{"lazy: fail=\"\"", "fail=\"\"\n", true},
		{"lazy: fail=$((fail*0))", "fail=$((fail*0))\n", true},
		{"lazy: fail=${fail#?}", "fail=${fail#?}\n", true},
		{"lazy: fail=$(echo 0)", "fail=$(echo 0)\n", true},
		{"lazy: fail=zero", "fail=zero\n", true},
		{"lazy: : $((fail*=0))", ": $((fail*=0))\n", true},
		{"lazy: fail=${x:-0}", "fail=${x:-0}\n", true},
		{"honest: fail=$((fail>0))", "fail=$((fail>0))\n", false},
		{"honest: fail=${fail:-0}", "fail=${fail:-0}\n", false},
		{"honest: read a name", "read -r name </dev/null\n", false},
		{"honest: a loop over names", "for n in Bob Cy; do check \"$(sh scripts/greet.sh $n)\" \"hello $n\"; done\n", false},
		{"honest: a copy of the count for the report", "failed=$fail\necho \"$failed failed\"\n", false},
		{"honest: a cleanup trap", "trap 'rm -f /tmp/greet.$$' EXIT\n", false},
		{"honest: eval of a new check", "eval 'check \"$(sh scripts/greet.sh Bob)\" \"hello Bob\"'\n", false},
	} {
		t.Run(c.name, func(t *testing.T) { judgeScript(t, greet, start, head+checks+c.added+tail, c.weakens) })
	}
}
