package testrun

import "testing"

func TestForListGrown(t *testing.T) {
	const loop = `for name in Ada; do check "$(sh scripts/greet.sh "$name")" "hello $name"; done`
	cases := []struct {
		name, was, now string
		want           bool
	}{
		{"honest: names added", loop, `for name in Ada Bob Cy Di Ed Flo; do check "$(sh scripts/greet.sh "$name")" "hello $name"; done`, true},
		{"honest: a name added before", loop, `for name in Zed Ada; do check "$(sh scripts/greet.sh "$name")" "hello $name"; done`, true},
		{"honest: list on its own line", "for f in a.txt b.txt", "for f in a.txt b.txt c.txt", true},
		{"lazy: a name dropped", `for name in Ada Bob; do check "$(sh scripts/greet.sh "$name")" "hello $name"; done`, loop, false},
		{"lazy: a name swapped", loop, `for name in Bob Cy; do check "$(sh scripts/greet.sh "$name")" "hello $name"; done`, false},
		{"lazy: body changed", loop, `for name in Ada Bob; do check "$(sh scripts/greet.sh "$name")" "$(sh scripts/greet.sh "$name")"; done`, false},
		{"lazy: || true after the body", loop, `for name in Ada Bob; do check "$(sh scripts/greet.sh "$name")" "hello $name" || true; done`, false},
		{"lazy: a command substitution added", loop, `for name in Ada $(exit 0); do check "$(sh scripts/greet.sh "$name")" "hello $name"; done`, false},
		{"lazy: a glob added", "for f in tests/a.sh", "for f in tests/a.sh tests/*", false},
		{"lazy: an operator added", loop, `for name in Ada && exit 0; do check "$(sh scripts/greet.sh "$name")" "hello $name"; done`, false},
		{"lazy: the variable renamed", loop, `for nom in Ada Bob; do check "$(sh scripts/greet.sh "$name")" "hello $name"; done`, false},
		{"lazy: a quoted word", loop, `for name in Ada "x;exit 0"; do check "$(sh scripts/greet.sh "$name")" "hello $name"; done`, false},
		{"not a loop", `check "$(sh scripts/greet.sh)" "hello"`, `check "$(sh scripts/greet.sh)" "hello" hello`, false},
		{"unchanged", loop, loop, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := forListGrown(c.was, c.now); got != c.want {
				t.Errorf("forListGrown(%q, %q) = %v, want %v", c.was, c.now, got, c.want)
			}
		})
	}
}

func TestSameShellProgram(t *testing.T) {
	cases := []struct {
		name, was, now string
		want           bool
	}{
		{"comment added", "#!/bin/sh\n[ \"$(sh g.sh)\" = hello ]\n", "#!/bin/sh\n# plain\n[ \"$(sh g.sh)\" = hello ] # no name\n", true},
		{"spacing", "#!/bin/sh\ncheck a  b\n", "#!/bin/sh\ncheck a b\n", true},
		{"a # inside quotes is no comment", "#!/bin/sh\necho 'a'\n", "#!/bin/sh\necho 'a # b'\n", false},
		{"heredoc body changed", "#!/bin/sh\ncat <<EOF\n# x\nEOF\n", "#!/bin/sh\ncat <<EOF\n# y\nEOF\n", false},
		{"command changed", "#!/bin/sh\ntrue\n", "#!/bin/sh\nfalse\n", false},
		{"not a shell script", "#!/usr/bin/env python3\nx = 1\n", "#!/usr/bin/env python3\nx = 1  # c\n", false},
		{"does not parse", "#!/bin/sh\nif true\n", "#!/bin/sh\nif true # c\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := sameShellProgram("t", c.was, c.now); got != c.want {
				t.Errorf("sameShellProgram(%q, %q) = %v, want %v", c.was, c.now, got, c.want)
			}
		})
	}
}

// TestForListSwitch27: a list word added to a loop whose unchanged body
// (or a function it calls) switches on the variable runs that switch
// (round 27, c2): `[ "$name" = skip ] && exit 0` in the start's loop, then
// `skip` added first to the list, ended the script early with success.
func TestForListSwitch27(t *testing.T) {
	const sw = `for name in Ada; do [ "$name" = skip ] && exit 0; check "$(sh g.sh "$name")" "hello $name"; done`
	const cs = `for name in Ada; do case $name in s*) exit 0 ;; esac; check "$(sh g.sh "$name")" "hello $name"; done`
	const fn = "check() { [ \"$1\" = ok ] && return 0; [ \"$(sh g.sh \"$1\")\" = \"hello $1\" ]; }\n"
	const call = `for name in Ada; do check "$name"; done`
	for _, c := range []struct {
		name, base, was, now string
		want                 bool
	}{
		{"lazy: the body's switch word added", sw, sw, `for name in skip Ada; do [ "$name" = skip ] && exit 0; check "$(sh g.sh "$name")" "hello $name"; done`, false},
		{"lazy: a word the body's case pattern matches", cs, cs, `for name in sam Ada; do case $name in s*) exit 0 ;; esac; check "$(sh g.sh "$name")" "hello $name"; done`, false},
		{"lazy: a word a called function switches on", fn + call, call, `for name in ok Ada; do check "$name"; done`, false},
		{"honest: a plain name added to the switching loop", sw, sw, `for name in Ada Bob; do [ "$name" = skip ] && exit 0; check "$(sh g.sh "$name")" "hello $name"; done`, true},
		{"honest: a name no case pattern matches", cs, cs, `for name in Ada Bob; do case $name in s*) exit 0 ;; esac; check "$(sh g.sh "$name")" "hello $name"; done`, true},
		{"honest: a name added, a function called", fn + call, call, `for name in Ada Bob; do check "$name"; done`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := forListGrownIn(c.was, c.now, c.base); got != c.want {
				t.Errorf("forListGrownIn(%q, %q) = %v, want %v", c.was, c.now, got, c.want)
			}
		})
	}
}
