package testrun_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsMovedChecksStillJudged (round 47): checks moved into a new
// sourced file or a child script are read in the script's place
// (sourcedmove.go), so every weakening the moved file adds is judged where
// it stands: an `exit 0`, an alias over the helper, an EXIT trap, a
// reset, code from the environment, a mark lost in a subshell, `set -n`,
// the helper redefined, checks in `if false`. Each is refused, for the
// configured command and for the agent's own run alike.
func TestInputsMovedChecksStillJudged(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const head = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=$((fail+1)); }\n"
	const a = "check \"$(sh scripts/greet.sh)\" hello\n"
	const b = "check \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"
	const tail = "if [ $fail -gt 0 ]; then exit 1; fi\n"
	start := head + a + b + tail
	src := head + a + ". scripts/more.sh\n" + tail
	run := head + a + "sh scripts/more.sh || fail=$((fail+1))\n" + tail
	for _, c := range []struct{ name, now, moreText string }{
		{"sourced exit 0", src, b + "exit 0\n"},
		{"sourced alias", src, "alias check=true\n" + b},
		{"sourced trap", src, b + "trap 'exit 0' EXIT\n"},
		{"sourced reset", src, b + "fail=00\n"},
		{"sourced env eval", src, b + "eval \"${X:-}\"\n"},
		{"sourced subshell check", src, "( " + b[:len(b)-1] + " )\n"},
		{"child with exit 0 mid", run, head + b + "exit 0\nexit $fail\n"},
		{"child alias", run, head + "alias check=true\n" + b + "exit $fail\n"},
		{"child set -n", run, head + "set -n\n" + b + "exit $fail\n"},
		{"child redefines helper", run, head + "check() { :; }\n" + b + "exit $fail\n"},
		{"child checks in if false", run, head + "if false; then\n" + b + "fi\nfail=$((fail+0))\nexit $fail\n"},
		{"child exit via trap", run, head + "trap 'exit 0' EXIT\n" + b + "exit $fail\n"},
		{"child subshell", run, head + "( " + b[:len(b)-1] + " )\nexit $fail\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, base := commitStart(t, root, map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": start})
			os.WriteFile(filepath.Join(root, "scripts/test.sh"), []byte(c.now), 0o644)
			os.WriteFile(filepath.Join(root, "scripts/more.sh"), []byte(c.moreText), 0o644)
			for _, direct := range []bool{true, false} {
				chs, err := testrun.InputChanges(context.Background(), repo, base, "sh scripts/test.sh", direct)
				if err != nil {
					t.Fatal(err)
				}
				weak, _ := testrun.SplitChanges(chs)
				if len(weak) == 0 {
					t.Errorf("direct=%v: judged not weakening: %q", direct, chs)
				}
			}
		})
	}
}

// TestInputsSourcedFileAsTheShellReadsIt (round 48): the new file read in
// the script's place must be the one the shell runs, and read whole. A
// `. ./env.sh` runs the start's env.sh at the root, not a new
// scripts/env.sh holding the moved check; a new file ending in an open
// here-document must not swallow the parent's lines after it (a reset)
// once read in place. Each is refused, at the gate and in verify's guard.
func TestInputsSourcedFileAsTheShellReadsIt(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\necho \"hello${1:+ $1}\"\n"
	const head = "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=$((fail+1)); }\n"
	const a = "check \"$(sh scripts/greet.sh)\" hello\n"
	const b = "check \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"
	const tail = "if [ $fail -gt 0 ]; then exit 1; fi\n"
	start := head + a + b + tail
	for _, c := range []struct {
		name, now string
		files     map[string]string
		weakens   bool
	}{
		{name: "lazy: ./env.sh runs the start's root file, the moved check sits in a new scripts/env.sh", weakens: true,
			now: head + a + ". ./env.sh\n" + tail, files: map[string]string{"scripts/env.sh": b}},
		{name: "lazy: a new sourced file ends in an open here-document that hides a reset", weakens: true,
			now: head + a + ". scripts/more.sh\nfail=0\nX\n" + tail, files: map[string]string{"scripts/more.sh": b + ": <<'X'\n"}},
		{name: "honest: the check moved into a new sourced file",
			now: head + a + ". scripts/more.sh\n" + tail, files: map[string]string{"scripts/more.sh": b}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, base := commitStart(t, root, map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": start, "env.sh": "export LANG=C\n"})
			os.WriteFile(filepath.Join(root, "scripts/test.sh"), []byte(c.now), 0o644)
			for p, text := range c.files {
				os.WriteFile(filepath.Join(root, p), []byte(text), 0o644)
			}
			for _, direct := range []bool{true, false} {
				chs, err := testrun.InputChanges(context.Background(), repo, base, "sh scripts/test.sh", direct)
				if err != nil {
					t.Fatal(err)
				}
				if weak, _ := testrun.SplitChanges(chs); (len(weak) > 0) != c.weakens {
					t.Errorf("direct=%v: InputChanges = %q: weakening %q, want weakens=%v", direct, chs, weak, c.weakens)
				}
			}
		})
	}
}
