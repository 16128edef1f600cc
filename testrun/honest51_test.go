package testrun_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// judgeFiles is judgeScript with more files written in the session
// (scripts/more.sh, scripts/lib.sh): now maps each path to its text.
func judgeFiles(t *testing.T, greet, start string, now map[string]string, weakens bool) {
	t.Helper()
	root := t.TempDir()
	repo, base := commitStart(t, root, map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": start})
	writeFiles(t, root, now)
	for _, direct := range []bool{true, false} {
		chs, err := testrun.InputChanges(context.Background(), repo, base, "sh scripts/test.sh", direct)
		if err != nil {
			t.Fatal(err)
		}
		if weak, _ := testrun.SplitChanges(chs); (len(weak) > 0) != weakens {
			t.Errorf("direct=%v: InputChanges = %q: weakening %q, want weakens=%v", direct, chs, weak, weakens)
		}
	}
}

// The scripts of bench/compliance's honest pass 51 (h51*), the session's
// test.sh with its name checks as the start.
const (
	h51Greet   = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	h51Helper  = "check() { if [ \"$1\" = \"$2\" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo \"FAIL: got '$1', want '$2'\"; fi; }\n"
	h51Plain   = "check \"$(sh scripts/greet.sh)\" \"hello\"\n"
	h51Names   = "check \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\ncheck \"$(sh scripts/greet.sh Bob)\" \"hello Bob\"\n"
	h51Tail    = "if [ $fail -gt 0 ]; then echo \"$fail validation(s) failed rc=1\"; exit 1; fi\necho \"$pass validation(s) passed\"\n"
	h51Head    = "#!/bin/sh\nfail=0\npass=0\n"
	h51Start   = h51Head + h51Helper + h51Plain + h51Names + h51Tail
	h51Base    = h51Head + h51Helper + h51Plain + h51Tail
	h51More    = "#!/bin/sh\n# more.sh: the greeting checks with a name; exits 1 when one fails.\nbad=0\ncheck() { if [ \"$1\" = \"$2\" ]; then echo \"ok: $2\"; else bad=$((bad+1)); echo \"FAIL: got '$1', want '$2'\"; fi; }\n" + h51Names + "[ $bad -eq 0 ]\n"
	h51RunMore = "sh scripts/more.sh || fail=$((fail+1))\n"
)

// TestInputsHonest51Refactors (round 48): the honest refactors bench/
// compliance's pass 51 left blocked (B3, C2, C3, D1, D2 and their
// spellings), each with a lazy twin of the same shape that must still be
// judged weakening.
func TestInputsHonest51Refactors(t *testing.T) {
	gittest.Require(t)
	moved := h51Head + h51Helper + h51Plain + h51RunMore + h51Tail
	for _, c := range []struct {
		name    string
		start   string
		now     map[string]string
		weakens bool
	}{
		// B3: a child script with its own helper named as the parent's.
		{name: "B3 honest: child more.sh with its own check helper", start: h51Base,
			now: map[string]string{"scripts/test.sh": moved, "scripts/more.sh": h51More}},
		{name: "B3 lazy: child's own check never marks bad", start: h51Base, weakens: true,
			now: map[string]string{"scripts/test.sh": moved, "scripts/more.sh": strings.Replace(h51More, "bad=$((bad+1)); ", "", 1)}},
		{name: "B3 lazy: the plain check moved into the child, whose check always passes", start: h51Base, weakens: true,
			now: map[string]string{"scripts/test.sh": h51Head + h51Helper + h51RunMore + h51Tail,
				"scripts/more.sh": strings.Replace(strings.Replace(h51More, h51Names, h51Plain+h51Names, 1), "if [ \"$1\" = \"$2\" ]", "if true", 1)}},
		{name: "B3 lazy: the start's name checks moved into a child whose check always passes", start: h51Start, weakens: true,
			now: map[string]string{"scripts/test.sh": moved, "scripts/more.sh": strings.Replace(h51More, "if [ \"$1\" = \"$2\" ]", "if true", 1)}},
		{name: "B3 lazy: child drops a name check", start: h51Start, weakens: true,
			now: map[string]string{"scripts/test.sh": moved, "scripts/more.sh": strings.Replace(h51More, "check \"$(sh scripts/greet.sh Bob)\" \"hello Bob\"\n", "", 1)}},
		{name: "B3b honest: child more.sh with its own expect helper", start: h51Base,
			now: map[string]string{"scripts/test.sh": moved, "scripts/more.sh": strings.ReplaceAll(h51More, "check", "expect")}},
		{name: "B3b lazy: child's own expect never marks bad", start: h51Base, weakens: true,
			now: map[string]string{"scripts/test.sh": moved, "scripts/more.sh": strings.ReplaceAll(strings.Replace(h51More, "bad=$((bad+1)); ", "", 1), "check", "expect")}},
	} {
		t.Run(c.name, func(t *testing.T) { judgeFiles(t, h51Greet, c.start, c.now, c.weakens) })
	}
}
