package shellline

import (
	"strings"
)

// Wrappers run another command: `env`, `nice`, `timeout`, `command`,
// `nohup`, `exec`, `xargs`, `busybox`, `stdbuf`, `sudo`... in front of a
// writer are judged as the writer (issue 25.9), or `env sed -i ... PROTOCOL`
// would write a protected file past the agent hooks. For each wrapper: its
// options that take a value as the next word, and how many positional words
// it takes before the command (timeout's DURATION).
var wrappers = map[string]struct {
	valueOpts  string // short options that take the next word: "uCS"
	longValue  []string
	positional int
}{
	"env":     {valueOpts: "uCS", longValue: []string{"--unset", "--chdir", "--split-string"}},
	"nice":    {valueOpts: "n", longValue: []string{"--adjustment"}},
	"timeout": {valueOpts: "sk", longValue: []string{"--signal", "--kill-after"}, positional: 1},
	"command": {},
	"builtin": {},
	"nohup":   {},
	"exec":    {valueOpts: "a"},
	"xargs":   {valueOpts: "IdEeLlnPsa", longValue: []string{"--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--arg-file", "--process-slot-var"}},
	"busybox": {},
	"stdbuf":  {valueOpts: "ioe", longValue: []string{"--input", "--output", "--error"}},
	"sudo":    {valueOpts: "ugCDhpRrtTU", longValue: []string{"--user", "--group", "--close-from", "--chdir", "--host", "--prompt", "--role", "--type", "--other-user", "--command-timeout"}},
	"doas":    {valueOpts: "uC"},
	"setsid":  {},
	"ionice":  {valueOpts: "cnp", longValue: []string{"--class", "--classdata", "--pid"}},
	// chrt's priority and taskset's mask come before the command
	// (`chrt -o 0 sed -i ...` ran sed unjudged: round 26 c11).
	"chrt":       {positional: 1},
	"taskset":    {positional: 1},
	"runuser":    {valueOpts: "ugGw", longValue: []string{"--user", "--group", "--supp-group", "--whitelist-environment"}},
	"strace":     {valueOpts: "oepsESPIabXUu", longValue: []string{"--output", "--trace", "--attach", "--string-limit", "--env", "--trace-path", "--user"}},
	"ltrace":     {valueOpts: "oepsuanlxLAD", longValue: []string{"--output"}},
	"fakeroot":   {valueOpts: "li", longValue: []string{"--lib", "--faked"}},
	"unshare":    {valueOpts: "S", longValue: []string{"--setuid", "--setgid", "--wd", "--root"}},
	"nsenter":    {valueOpts: "tSGe", longValue: []string{"--target", "--setuid", "--setgid"}},
	"chroot":     {positional: 1},
	"prlimit":    {valueOpts: "p", longValue: []string{"--pid"}},
	"numactl":    {valueOpts: "CNmipP", longValue: []string{"--physcpubind", "--cpunodebind", "--membind", "--interleave", "--preferred"}},
	"flock":      {valueOpts: "wEc", positional: 1},
	"time":       {valueOpts: "fo", longValue: []string{"--format", "--output"}},
	"unbuffer":   {},
	"caffeinate": {},
}

// CommandName is a command word as the shell finds it: `\sed` and
// `/usr/bin/sed` are sed.
func CommandName(w string) string {
	w = strings.ReplaceAll(w, `\`, "")
	if i := strings.LastIndexByte(w, '/'); i >= 0 {
		w = w[i+1:]
	}
	return w
}

// UnwrapCall is unwrapCall for readers of a line's calls outside this
// package (toolneed's git log check).
func UnwrapCall(args []string) []string { return unwrapCall(args) }

// unwrapCall strips wrappers (and their options, and env's NAME=VALUE
// words) from a call's words and returns the words of the command they
// run, its name cleaned by CommandName. `env -S 'sed -i ...'` splits the
// string as env does. A wrapped word that is an expansion ("") stops the
// unwrapping: what runs is unknown. `command -v X` runs nothing.
func unwrapCall(args []string) []string {
	for range 8 { // wrappers of wrappers, bounded
		if len(args) == 0 {
			return nil
		}
		name := CommandName(args[0])
		w, ok := wrappers[name]
		if !ok {
			out := append([]string{name}, args[1:]...)
			return out
		}
		i, pos := 1, 0
	opts:
		for i < len(args) {
			a := args[i]
			switch {
			case a == "--":
				i++
				break opts
			case a == "-" && name == "env": // env -: an empty environment
				i++
			case name == "env" && strings.Contains(a, "=") && !strings.HasPrefix(a, "-"):
				i++ // NAME=VALUE
			case (name == "env") && (a == "-S" || a == "--split-string") && i+1 < len(args):
				return unwrapCall(append(strings.Fields(args[i+1]), args[i+2:]...))
			case name == "env" && strings.HasPrefix(a, "-S") && len(a) > 2:
				return unwrapCall(append(strings.Fields(a[2:]), args[i+1:]...))
			case name == "command" && (a == "-v" || a == "-V"):
				return nil // a lookup, runs nothing
			case strings.HasPrefix(a, "--"):
				i++
				if !strings.Contains(a, "=") && containsStr(w.longValue, a) {
					i++
				}
			case strings.HasPrefix(a, "-") && len(a) > 1:
				i++
				// -n5 carries its value; -n takes the next word.
				if last := a[len(a)-1:]; len(a) == 2 && strings.Contains(w.valueOpts, last) {
					i++
				}
			case pos < w.positional:
				pos++
				i++
			default:
				break opts
			}
		}
		if i >= len(args) {
			return nil
		}
		args = args[i:]
	}
	return args
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// IsWrapper reports whether a program (named as CommandName gives it) runs
// another command given as its arguments: env, nice, timeout, sudo...
func IsWrapper(name string) bool {
	_, ok := wrappers[name]
	return ok
}
