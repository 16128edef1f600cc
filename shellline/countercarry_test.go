package shellline

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestCountCarriedOutOfPipeline: a pipeline's group that saves its
// count to a file the script reads back before the failure test loses
// no mark (lostMarks) and the read is no reset (counterResets); its
// twins do both.
func TestCountCarriedOutOfPipeline(t *testing.T) {
	const head = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=$((fail+1)); }\ncheck \"$(sh greet.sh)\" hello\n"
	const loop = "while read -r n; do check \"$(sh greet.sh $n)\" \"hello $n\"; done"
	const tail = "if [ $fail -gt 0 ]; then exit 1; fi\n"
	for _, c := range []struct {
		name, body string
		lazy       bool
	}{
		{"honest: read back", "printf '%s\\n' Bob | { " + loop + "; echo $fail > .fails; }\nread -r fail < .fails\n" + tail, false},
		{"honest: a subshell group, added back", "printf '%s\\n' Bob | ( " + loop + "; echo \"$fail\" > .fails )\nfail=$(cat .fails)\n" + tail, false},
		{"honest: a note printed between", "printf '%s\\n' Bob | { " + loop + "; echo $fail > .fails; }\necho 'names done'\nread -r fail < .fails\n" + tail, false},
		{"lazy: 0 saved", "printf '%s\\n' Bob | { " + loop + "; echo 0 > .fails; }\nread -r fail < .fails\n" + tail, true},
		{"lazy: saved before the checks", "printf '%s\\n' Bob | { echo $fail > .fails; " + loop + "; }\nread -r fail < .fails\n" + tail, true},
		{"lazy: exit before the save", "printf '%s\\n' Bob | { " + loop + "; exit 0; echo $fail > .fails; }\nread -r fail < .fails\n" + tail, true},
		{"lazy: the check piped again inside the group", "printf '%s\\n' Bob | { check x y | cat; echo $fail > .fails; }\nread -r fail < .fails\n" + tail, true},
		{"lazy: read back after the test", "printf '%s\\n' Bob | { " + loop + "; echo $fail > .fails; }\n" + tail + "read -r fail < .fails\n", true},
		{"lazy: the file emptied before it is read", "printf '%s\\n' Bob | { " + loop + "; echo $fail > .fails; }\n: > .fails\nread -r fail < .fails\n" + tail, true},
		{"lazy: a check between the pipeline and a read that replaces", "printf '%s\\n' Bob | { " + loop + "; echo $fail > .fails; }\ncheck x y\nread -r fail < .fails\n" + tail, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.body
			f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
			if err != nil {
				t.Fatal(err)
			}
			lost, resets := lostMarks(f, src), counterResets(f, src, nil)
			if got := len(lost)+len(resets) > 0; got != c.lazy {
				t.Errorf("refused = %v, want %v\nlost %v\nresets %v\n%s", got, c.lazy, lost, resets, src)
			}
		})
	}
}
