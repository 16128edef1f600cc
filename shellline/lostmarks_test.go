package shellline

import (
	"strings"
	"testing"
)

// TestLostMarks: a check whose helper marks the tested count, run in a
// child shell whose status nothing reads, weakens the run; one whose
// status is read, or a helper that marks nothing, does not.
func TestLostMarks(t *testing.T) {
	const head = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=$((fail+1)); }\n"
	const tail = "if [ $fail -gt 0 ]; then exit 1; fi\n"
	for _, c := range []struct {
		line string
		want bool
	}{
		{`( check "$(sh scripts/greet.sh)" hello )`, true},
		{`(cd scripts && check "$(sh greet.sh)" hello)`, true},
		{`check "$(sh scripts/greet.sh)" hello | tee -a log`, true},
		{`check "$(sh scripts/greet.sh)" hello &`, true},
		{`out=$(check "$(sh scripts/greet.sh)" hello)`, true},
		{`{ check "$(sh scripts/greet.sh)" hello; } &`, true},
		{`check "$(sh scripts/greet.sh)" hello`, false},
		{`( check "$(sh scripts/greet.sh)" hello ) || fail=1`, false},
		{`if ( check "$(sh scripts/greet.sh)" hello ); then echo ok; fi`, false},
		{`{ check "$(sh scripts/greet.sh)" hello; } 2>&1`, false},
		{`sh scripts/greet.sh | grep -q hello || fail=1`, false},
		{`( cd scripts && sh greet.sh ) | grep -q hello || fail=1`, false},
	} {
		src := head + c.line + "\n" + tail
		s := ReadScriptFiles(src, nil)
		i := strings.Count(head, "\n")
		got := s.LineWeakens(i, head+tail, nil)
		if (got != "") != c.want {
			t.Errorf("%s: LineWeakens = %q, want weakening %v", c.line, got, c.want)
		}
	}
}
