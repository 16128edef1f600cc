package shellline

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestCounterResetValues (round 48): a reset is judged by the value an
// added line gives the count, evaluated from each value the marks reach,
// not by its spelling. Helper 299's sixteen spellings after round 47,
// each missed by the spelling list, and honest lines that keep the count.
func TestCounterResetValues(t *testing.T) {
	const head = "#!/bin/sh\nfail=0\ncheck() {\n  if [ \"$1\" = \"$2\" ]; then echo ok; else fail=$((fail+1)); fi\n}\ncheck \"$(sh greet.sh)\" hello\n"
	const tail = "if [ $fail -gt 0 ]; then echo \"$fail failed\"; exit 1; fi\n"
	const exitTail = "echo \"$fail failed\"\nexit $fail\n"
	for _, c := range []struct {
		name, added, tail string
		reset             bool
	}{
		{"fail=\"\"", "fail=\"\"\n", tail, true},
		{"fail=$((0))", "fail=$((0))\n", tail, true},
		{"fail=$((fail*0))", "fail=$((fail*0))\n", tail, true},
		{"fail=$(echo 0)", "fail=$(echo 0)\n", tail, true},
		{"fail=$(printf %d 0)", "fail=$(printf %d 0)\n", tail, true},
		{"fail=${x:-0}", "fail=${x:-0}\n", tail, true},
		{"fail=${fail#?}", "fail=${fail#?}\n", tail, true},
		{"fail=${fail%%*}", "fail=${fail%%*}\n", tail, true},
		{"fail=${fail#\"$fail\"}", "fail=${fail#\"$fail\"}\n", tail, true},
		{"fail=${fail:+0}", "fail=${fail:+0}\n", tail, true},
		{": $((fail*=0))", ": $((fail*=0))\n", tail, true},
		{"fail=$((fail-fail))", "fail=$((fail-fail))\n", tail, true},
		{"fail=$((fail&0))", "fail=$((fail&0))\n", tail, true},
		{"fail=$(true)", "fail=$(true)\n", tail, true},
		{"fail=\\0", "fail=\\0\n", tail, true},
		{"fail=zero", "fail=zero\n", tail, true},
		{"fail=$((fail<<8)) before exit $fail", "fail=$((fail<<8))\n", exitTail, true},
		{"((fail=fail%1))", "((fail=fail%1))\n", tail, true},
		{"let fail/=100", "let fail/=100\n", tail, true},
		{"fail=$((fail>1?fail:0))", "fail=$((fail>1?fail:0))\n", tail, true},
		{"fail=${fail#1}", "fail=${fail#1}\n", tail, true},
		// Honest: the count kept, normalised or added to.
		{"honest: fail=$((fail>0))", "fail=$((fail>0))\n", tail, false},
		{"honest: fail=${fail:-0}", "fail=${fail:-0}\n", tail, false},
		{"honest: fail=$((fail+$?))", "sh greet.sh >/dev/null\nfail=$((fail+$?))\n", tail, false},
		{"honest: fail=$(printf %d \"$fail\")", "fail=$(printf %d \"$fail\")\n", tail, false},
		{"honest: another mark", "fail=$((fail+1))\n", tail, false},
		{"honest: fail=$((fail<<8)) read by -gt", "fail=$((fail<<8))\n", tail, false},
		{"honest: a report line", "echo \"$fail failed\"\n", tail, false},
		{"honest: the total folded back (round 47's D3)", "total=0\ntotal=$((total+fail)); fail=0\ncheck \"$(sh greet.sh Ada)\" \"hello Ada\"\ntotal=$((total+fail)); fail=0\nfail=$total\n", tail, false},
		{"lazy: the total folded back after it was zeroed", "total=0\ntotal=$((total+fail)); fail=0\ntotal=0\nfail=$total\n", tail, true},
		{"lazy: the total folded back times 0", "total=0\ntotal=$((total+fail)); fail=0\nfail=$((total*0))\n", tail, true},
		{"honest: a word count of an unknown command", "fail=$(grep -c FAIL log)\n", tail, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.added + c.tail
			f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
			if err != nil {
				t.Fatal(err)
			}
			got := counterResets(f, src)
			first := strings.Count(head, "\n") + 1
			last := first + strings.Count(c.added, "\n") - 1
			found := ""
			for l, why := range got {
				if l >= first && l <= last {
					found = why
				}
			}
			if (found != "") != c.reset {
				t.Errorf("reset = %q, want reset %v\n%s\nall: %v", found, c.reset, src, got)
			}
		})
	}
}
