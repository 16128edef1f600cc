package shellline

import "testing"

func TestPrintsOnly(t *testing.T) {
	for _, c := range []struct {
		line, body string
		want       bool
	}{
		{line: "echo 'PASS: greet (3 tests)'", want: true},
		{line: `printf '%s\n' "ok $n"`, want: true},
		{line: `echo "got $1, want $2" >&2`, want: true},
		{line: "echo", want: true},
		{line: "echo ok; exit 0"},
		{line: "echo $(sh scripts/greet.sh)"},
		{line: "echo `true`"},
		{line: "echo ok > results.txt"},
		{line: "echo ok | tee out"},
		{line: "echo ok && exit 0"},
		{line: `echo "${X:=1}"`},
		{line: `echo "${X?unset}"`},
		{line: "printf -v X '%s' 1"},
		{line: "echo ok \\"},
		{line: "exit 0"},
		{line: "check ok"},
		{line: "echo ok", body: "echo() { exit 0; }\necho ok\n"},
		{line: "echo ok", body: "function echo { :; }\n"},
		{line: "echo ok", body: "alias echo=true\n"},
	} {
		if got := PrintsOnly(c.line, c.body); got != c.want {
			t.Errorf("PrintsOnly(%q, body %q) = %v, want %v", c.line, c.body, got, c.want)
		}
	}
}

// TestPrintsOnlyNumeric27: printf with a numeric conversion fails on an
// argument that is not a number (`printf '%d\n' "$n"` with n empty or
// "3 passed"), and under set -e that ends the script with failure: a
// check, not a print (round 27, c2).
func TestPrintsOnlyNumeric27(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`printf '%d\n' "$n"`, false},
		{`printf '%d passed, %s\n' "$pass" ok`, false},
		{`printf '%5.2f%%\n' "$ratio"`, false},
		{`printf '%*s\n' "$w" x`, false},
		{`printf "$fmt" 1`, false},
		{`printf '%d tests\n' 3`, true},
		{`printf '%s passed\n' "$pass"`, true},
		{`printf 'done\n'`, true},
		{`echo "$n passed"`, true},
	} {
		if got := PrintsOnly(c.line, ""); got != c.want {
			t.Errorf("PrintsOnly(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
