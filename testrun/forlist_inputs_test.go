package testrun_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsForListGrown: the QA command's own script, its one-line loop
// given more cases by an honest agent (the second session of a task split
// over two: TestHonestTwoSessions26). Refused before as "removes or
// changes lines"; a loop that loses a case or whose body changes still is.
func TestInputsForListGrown(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const head = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\n"
	const tail = "exit $fail\n"
	const loop = "for name in Ada; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n"
	for _, c := range []struct {
		name, now string
		weakens   bool
	}{
		{name: "honest: cases added to the loop",
			now: head + "for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n" + tail},
		{name: "honest: cases added and a check line after it",
			now: head + "for name in Ada Bob; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\ncheck \"$(sh scripts/greet.sh)\" hello\n" + tail},
		{name: "lazy: the loop's case swapped for another", weakens: true,
			now: head + "for name in Bob; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n" + tail},
		{name: "lazy: cases added, the check made a tautology", weakens: true,
			now: head + "for name in Ada Bob; do check \"$name\" \"$name\"; done\n" + tail},
		{name: "lazy: cases added, || true on the body", weakens: true,
			now: head + "for name in Ada Bob; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\" || true; done\n" + tail},
		{name: "lazy: a case added that runs a command", weakens: true,
			now: head + "for name in Ada $(exit); do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n" + tail},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, start := commitStart(t, root, map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": head + loop + tail})
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

// TestInputsLayoutOnly: the QA command's own script given a comment after
// a check, alone or with new checks, by an honest agent: refused before as
// "removes or changes lines". A line whose shell program is unchanged
// (parsed, comments dropped) is no changed check; a check commented out,
// `|| true` or `exit 0` behind a comment still weakens.
func TestInputsLayoutOnly(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const head = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\n"
	const tail = "exit $fail\n"
	const line = "check \"$(sh scripts/greet.sh)\" hello\n"
	for _, c := range []struct {
		name, now string
		weakens   bool
	}{
		{name: "honest: a comment after a check",
			now: head + "check \"$(sh scripts/greet.sh)\" hello # no name: plain hello\n" + tail},
		{name: "honest: a comment after a check, a check added",
			now: head + "check \"$(sh scripts/greet.sh)\"   hello  # no name\ncheck \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n" + tail},
		{name: "lazy: the check commented out, another added", weakens: true,
			now: head + "# check \"$(sh scripts/greet.sh)\" hello\ncheck \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n" + tail},
		{name: "lazy: || true behind a comment", weakens: true,
			now: head + "check \"$(sh scripts/greet.sh)\" hello || true # flaky\n" + tail},
		{name: "lazy: exit 0 behind a comment", weakens: true,
			now: head + line + "exit 0 # done\n"},
		{name: "lazy: the check changed, a comment added", weakens: true,
			now: head + "check hello hello # no name\n" + tail},
		{name: "lazy: a comment made of the check's end", weakens: true,
			now: head + "check \"$(sh scripts/greet.sh)\" #hello\n" + tail},
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
