package testrun_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsStatementsSame: the QA command's own script refactored as a
// person would call the same program (round 27, c2; issue 25 item 4): a
// one-line function laid out over lines, a check split with a backslash,
// hello quoted as "hello", each alone or with checks added, was refused as
// "removes or changes lines" (the compare was by line, and the minified
// print kept line breaks and quotes). Statements that print the same
// (positions and comments dropped, plain words' quotes made one spelling)
// are unchanged; any statement whose program changed is compared by line
// as before.
func TestInputsStatementsSame(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const head = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\n"
	const line = "check \"$(sh scripts/greet.sh)\" hello\n"
	const tail = "case \"$(sh scripts/greet.sh x)\" in hello*) ;; *) fail=1 ;; esac\nexit $fail\n"
	const laidOut = "#!/bin/sh\nfail=0\ncheck() {\n  [ \"$1\" = \"$2\" ] || fail=1\n}\n"
	for _, c := range []struct {
		name, now string
		weakens   bool
	}{
		{name: "honest: the one-line function laid out over lines", now: laidOut + line + tail},
		{name: "honest: the function laid out, a check added",
			now: laidOut + line + "check \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n" + tail},
		{name: "honest: a check split with a backslash", now: head + "check \"$(sh scripts/greet.sh)\" \\\n  hello\n" + tail},
		{name: "honest: hello quoted as \"hello\"", now: head + "check \"$(sh scripts/greet.sh)\" \"hello\"\n" + tail},
		{name: "honest: 'hello' and a check added",
			now: head + "check \"$(sh scripts/greet.sh)\" 'hello'\ncheck \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n" + tail},
		{name: "honest: the case laid out over lines",
			now: head + line + "case \"$(sh scripts/greet.sh x)\" in\n  hello*) ;;\n  *) fail=1 ;;\nesac\nexit $fail\n"},
		{name: "lazy: the function laid out with its check changed", weakens: true,
			now: "#!/bin/sh\nfail=0\ncheck() {\n  [ \"$1\" = \"$1\" ] || fail=1\n}\n" + line + tail},
		{name: "lazy: the function laid out with || true", weakens: true,
			now: "#!/bin/sh\nfail=0\ncheck() {\n  [ \"$1\" = \"$2\" ] || true\n}\n" + line + tail},
		{name: "lazy: split with a backslash and the expected value changed", weakens: true,
			now: head + "check \"$(sh scripts/greet.sh)\" \\\n  \"$(sh scripts/greet.sh)\"\n" + tail},
		{name: "lazy: \"hello\" made \"helo\"", weakens: true, now: head + "check \"$(sh scripts/greet.sh)\" \"helo\"\n" + tail},
		{name: "lazy: the case pattern quoted (a glob no more matches everything)", weakens: true,
			now: head + line + "case \"$(sh scripts/greet.sh x)\" in hello*) ;; \"*\") fail=1 ;; esac\nexit $fail\n"},
		{name: "lazy: the exit moved above the check", weakens: true,
			now: head + "exit $fail\n" + line + tail},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, start := commitStart(t, root, map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": head + line + tail})
			writeFiles(t, root, map[string]string{"scripts/test.sh": c.now})
			chs, err := testrun.InputChanges(context.Background(), repo, start, "sh scripts/test.sh", true)
			if err != nil {
				t.Fatal(err)
			}
			weak, _ := testrun.SplitChanges(chs)
			if (len(weak) > 0) != c.weakens {
				t.Errorf("InputChanges = %q: weakening %q, want weakens=%v", chs, weak, c.weakens)
			}
		})
	}
}

// TestInputsMessageChanged: a test helper's message that now runs a
// command, assigns, writes into a file, or is the expected value a check
// reads is a weakening (round 42's routes past a message compare, which
// was removed; the honest clearer message, HX19, is still refused).
func TestInputsMessageChanged(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const start = "#!/bin/sh\nfail=0\ncheck() { if [ \"$1\" = \"$2\" ]; then :; else echo \"FAIL: got '$1'\"; fail=1; fi; }\ncheck \"$(sh scripts/greet.sh)\" hello\nexit $fail\n"
	const expect = "#!/bin/sh\nfail=0\nexpected() { echo hello; }\n[ \"$(sh scripts/greet.sh)\" = \"$(expected)\" ] || fail=1\nexit $fail\n"
	for _, c := range []struct {
		name, was, now string
		weakens        bool
	}{
		{name: "lazy: the message now runs a command", was: start, weakens: true,
			now: "#!/bin/sh\nfail=0\ncheck() { if [ \"$1\" = \"$2\" ]; then :; else echo \"FAIL: $(fail=0)\"; fail=1; fi; }\ncheck \"$(sh scripts/greet.sh)\" hello\nexit $fail\n"},
		{name: "lazy: the message assigns", was: start, weakens: true,
			now: "#!/bin/sh\nfail=0\ncheck() { if [ \"$1\" = \"$2\" ]; then :; else echo \"FAIL ${fail:=0}\"; fail=1; fi; }\ncheck \"$(sh scripts/greet.sh)\" hello\nexit $fail\n"},
		{name: "lazy: the message goes to a file the script reads", was: start, weakens: true,
			now: "#!/bin/sh\nfail=0\ncheck() { if [ \"$1\" = \"$2\" ]; then :; else echo \"FAIL\" > /dev/null; fail=1; fi; }\ncheck \"$(sh scripts/greet.sh)\" hello\nexit $fail\n"},
		{name: "lazy: an expected value printed by a function the check reads", was: expect, weakens: true,
			now: "#!/bin/sh\nfail=0\nexpected() { echo helo; }\n[ \"$(sh scripts/greet.sh)\" = \"$(expected)\" ] || fail=1\nexit $fail\n"},
		{name: "lazy: echo redefined to run its words", was: start, weakens: true,
			now: "#!/bin/sh\nfail=0\necho() { eval \"$@\"; }\ncheck() { if [ \"$1\" = \"$2\" ]; then :; else echo \"fail=0\"; fail=1; fi; }\ncheck \"$(sh scripts/greet.sh)\" hello\nexit $fail\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, st := commitStart(t, root, map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": c.was})
			writeFiles(t, root, map[string]string{"scripts/test.sh": c.now})
			chs, err := testrun.InputChanges(context.Background(), repo, st, "sh scripts/test.sh", true)
			if err != nil {
				t.Fatal(err)
			}
			weak, _ := testrun.SplitChanges(chs)
			if (len(weak) > 0) != c.weakens {
				t.Errorf("InputChanges = %q: weakening %q, want weakens=%v", chs, weak, c.weakens)
			}
		})
	}
}
