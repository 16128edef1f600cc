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
