package shellline

import (
	"strings"
	"testing"
)

// TestSumsInto: a total carries a per-suite count to the failure test
// only when each suite's marks are summed before the count starts again
// and before the test, and nothing else sets the total.
func TestSumsInto(t *testing.T) {
	const head = "#!/bin/sh\nfail=0\ncheck() {\n  if [ \"$1\" = \"$2\" ]; then echo ok; else fail=$((fail+1)); fi\n}\ntotal=0\n"
	const test = "if [ $total -gt 0 ]; then exit 1; fi\n"
	for _, c := range []struct {
		name, body string
		want       bool
	}{
		{"summed per suite", "check a a\ntotal=$((total+fail)); fail=0\ncheck b b\ntotal=$((total+fail))\n", true},
		{"summed with spaces and braces", "check a a\ntotal=$(( ${total} + $fail ))\nfail=0\ncheck b b\ntotal=$((fail + total))\n", true},
		{"reset before the sum", "check a a\nfail=0; total=$((total+fail))\ncheck b b\ntotal=$((total+fail))\n", false},
		{"reset never summed", "check a a\nfail=0\ncheck b b\ntotal=$((total+fail))\n", false},
		{"last suite not summed", "check a a\ntotal=$((total+fail)); fail=0\ncheck b b\n", false},
		{"total started again", "check a a\ntotal=$((total+fail)); fail=0\ncheck b b\ntotal=$((total+fail))\ntotal=0\n", false},
		{"sum only in a branch", "check a a\nif [ -n \"$X\" ]; then total=$((total+fail)); fi\nfail=0\ncheck b b\ntotal=$((total+fail))\n", false},
		{"read total", "check a a\ntotal=$((total+fail)); fail=0\ncheck b b\ntotal=$((total+fail))\nread total </dev/null\n", false},
		{"eval total=0", "check a a\ntotal=$((total+fail)); fail=0\ncheck b b\ntotal=$((total+fail))\neval total=0\n", false},
		{"eval of a variable", "check a a\ntotal=$((total+fail)); fail=0\ncheck b b\ntotal=$((total+fail))\neval \"$X\"\n", false},
		{"for total in 0", "check a a\ntotal=$((total+fail)); fail=0\ncheck b b\ntotal=$((total+fail))\nfor total in 0; do :; done\n", false},
		{"element 0 set", "check a a\ntotal=$((total+fail)); fail=0\ncheck b b\ntotal=$((total+fail))\ntotal[0]=0\n", false},
		{"arithmetic reset", "check a a\ntotal=$((total+fail)); fail=0\ncheck b b\ntotal=$((total+fail))\n: $((total=0))\n", false},
		{"subtracted", "check a a\ntotal=$((total-fail)); fail=0\ncheck b b\ntotal=$((total+fail))\n", false},
		{"a reset in a function", "reset() { fail=0; }\ncheck a a\ntotal=$((total+fail))\nreset\ncheck b b\ntotal=$((total+fail))\n", false},
		{"printing the total is a read", "check a a\ntotal=$((total+fail)); fail=0\ncheck b b\ntotal=$((total+fail))\necho \"total: $total\"\nprintf 'total %s\\n' \"$total\"\n", true},
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

// TestSumsIntoReadInFunction (round 48): the test of the total stands
// in a function; it reads the total where the function is called, not
// where it is defined. A function defined early and called before the
// sums tests a total nothing has added to yet.
func TestSumsIntoReadInFunction(t *testing.T) {
	const head = "#!/bin/sh\nfail=0\ncheck() {\n  if [ \"$1\" = \"$2\" ]; then echo ok; else fail=$((fail+1)); fi\n}\ntotal=0\n"
	const report = "report() {\n  if [ $total -gt 0 ]; then exit 1; fi\n}\n"
	const suites = "check a a\ntotal=$((total+fail)); fail=0\ncheck b b\ntotal=$((total+fail))\n"
	for _, c := range []struct {
		name, src string
		want      bool
	}{
		{"called after the sums", head + report + suites + "report\n", true},
		{"called through another function after the sums", head + report + "finish() {\n  report\n}\n" + suites + "finish\n", true},
		{"called before the sums", head + report + "check a a\nreport\ntotal=$((total+fail)); fail=0\ncheck b b\ntotal=$((total+fail))\n", false},
		{"called before the last suite's sum", head + report + "check a a\ntotal=$((total+fail)); fail=0\ncheck b b\nreport\ntotal=$((total+fail))\n", false},
		{"called through another function before the sums", head + report + "finish() {\n  report\n}\ncheck a a\nfinish\ntotal=$((total+fail)); fail=0\ncheck b b\ntotal=$((total+fail))\n", false},
		{"never called", head + report + suites, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			line := 0
			for i, l := range strings.Split(c.src, "\n") {
				if strings.Contains(l, "[ $total -gt 0 ]") {
					line = i + 1
				}
			}
			if got := SumsInto(c.src, "total", "fail", line); got != c.want {
				t.Errorf("SumsInto(line %d) = %v, want %v\n%s", line, got, c.want, c.src)
			}
		})
	}
}

// TestCounterExits: a child script fails on its own failures only when
// its last statement tests a count it marks and never resets.
func TestCounterExits(t *testing.T) {
	const head = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=$((fail+1)); }\ncheck a a\n"
	for _, c := range []struct {
		name, tail string
		want       bool
	}{
		{"exit $fail", "exit $fail\n", true},
		{"a test of zero", "[ \"$fail\" -eq 0 ]\n", true},
		{"an if that exits 1", "if [ $fail -gt 0 ]; then echo \"$fail failed\"; exit 1; fi\n", true},
		{"an echo last", "exit $fail\necho done\n", false},
		{"a reset before the test", "fail=0\nexit $fail\n", false},
		{"a count nothing marks", "exit $other\n", false},
		{"exit 0", "exit 0\n", false},
	} {
		if got := CounterExits(head + c.tail); got != c.want {
			t.Errorf("%s: CounterExits = %v, want %v", c.name, got, c.want)
		}
	}
}
