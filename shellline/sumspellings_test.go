package shellline

import (
	"strings"
	"testing"
)

// TestSumsIntoSpellings (round 48): the sum spelled `: $((total+=fail))`,
// `total=$(expr $total + $fail)` or done by a function called after each
// suite, and the lazy twins of each.
func TestSumsIntoSpellings(t *testing.T) {
	const head = "#!/bin/sh\nfail=0\ncheck() {\n  if [ \"$1\" = \"$2\" ]; then echo ok; else fail=$((fail+1)); fi\n}\ntotal=0\n"
	const test = "if [ $total -gt 0 ]; then exit 1; fi\n"
	const endSuite = "end_suite() { total=$((total+fail)); fail=0; }\n"
	for _, c := range []struct {
		name, body string
		want       bool
	}{
		{"arithmetic +=", "check a a\n: $((total+=fail)); fail=0\ncheck b b\n: $((total += $fail))\n", true},
		{"expr", "check a a\ntotal=$(expr $total + $fail); fail=0\ncheck b b\ntotal=$(expr \"$fail\" + \"$total\")\n", true},
		{"a sum function", endSuite + "check a a\nend_suite\ncheck b b\nend_suite\n", true},
		{"a sum function without a reset", "end_suite() { total=$((total+fail)); }\ncheck a a\nend_suite\nfail=0\ncheck b b\nend_suite\n", true},
		{"arithmetic =", "check a a\n: $((total=fail)); fail=0\ncheck b b\n: $((total+=fail))\n", false},
		{"arithmetic += 0", "check a a\n: $((total+=0)); fail=0\ncheck b b\n: $((total+=fail))\n", false},
		{"arithmetic then reset of the total on the line", "check a a\n: $((total+=fail)); fail=0\ncheck b b\n: $((total+=fail)); : $((total*=0))\n", false},
		{"expr subtracts", "check a a\ntotal=$(expr $total - $fail); fail=0\ncheck b b\ntotal=$(expr $total + $fail)\n", false},
		{"expr of one", "check a a\ntotal=$(expr $total + 0); fail=0\ncheck b b\ntotal=$(expr $total + $fail)\n", false},
		{"the sum function not called last", endSuite + "check a a\nend_suite\ncheck b b\n", false},
		{"the sum function resets first", "end_suite() { fail=0; total=$((total+fail)); }\ncheck a a\nend_suite\ncheck b b\nend_suite\n", false},
		{"the sum function called in a branch", endSuite + "check a a\nif [ -n \"$X\" ]; then end_suite; fi\ncheck b b\nend_suite\n", false},
		{"the sum function called by another", endSuite + "next() { end_suite; }\ncheck a a\nnext\ncheck b b\nend_suite\n", false},
		{"the sum function defined twice", endSuite + "end_suite() { fail=0; }\ncheck a a\nend_suite\ncheck b b\nend_suite\n", false},
		{"the sum function resets to another value", "end_suite() { total=$((total+fail)); fail=5; }\ncheck a a\nend_suite\ncheck b b\nend_suite\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.body + test
			line := strings.Count(src, "\n")
			if got := SumsInto(src, "total", "fail", line); got != c.want {
				t.Errorf("SumsInto = %v, want %v\n%s", got, c.want, src)
			}
		})
	}
}
