package shellline

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// A line only added to a test script can turn its checks off through the
// shell itself, with no line of the checks removed or changed (lazy pass
// 50, round 46: each ended COMPLETE and clean on a broken greet.sh):
//
//   - an alias over the script's helper, over exit or test, or to a no-op:
//     dash expands aliases in scripts, so after `alias check=true` every
//     `check "$(sh scripts/greet.sh)" "hello"` runs true, and after
//     `alias exit=true` the failure test's `exit 1` runs true and the
//     script goes on to exit 0. The same made by `eval 'alias ...'`.
//   - a trap on EXIT that exits 0 (`trap 'exit 0' EXIT`): the failing
//     script's `exit 1` runs the trap, and the trap's exit sets the
//     status. A cleanup trap (`trap 'rm -rf "$tmp"' EXIT`) or one that
//     exits with no value (the status stays) changes nothing.
//   - `set -n` (`set -o noexec`): the shell reads the rest and runs none
//     of it, and exits 0.
//   - `exec true` (or `:`): the script is replaced by a command that
//     succeeds; nothing after it runs. (`exec pytest "$@"` as a wrapper's
//     last line is judged where the line stands: Script.LineWeakens.)
//   - `unset -f check` with calls of check after it: they fail as "not
//     found", and nothing counts them (judged where the line stands,
//     Script.LineWeakens: nvm's tests end with `unset -f die cleanup`).
//   - the helper redefined where the line-start rule does not look:
//     bash's `function check { :; }`, `declare -f check && check() { :;
//     }`, `eval 'check() { :; }'`.
//   - `command exit 0`, `builtin exit`: an early success through a
//     wrapper; `enable -n exit` (bash): the failure test's exit is no
//     longer the builtin.
//   - a function named after a builtin the failure test uses (`exit()
//     { :; }`): bash runs it in place of the builtin.
//   - `readonly fail` (or `declare -r`): bash refuses the checks' later
//     `fail=$((fail+1))`, prints an error, goes on, and fail keeps 0.

// aliasedBuiltin reports whether an alias over name changes what a
// failing check or the failure test does. (A switch, not a map: nothing
// to build at init on the hook path.)
func aliasedBuiltin(name string) bool {
	switch name {
	case "exit", "return", "test", "[", "[[", "false", "set", "trap", "eval", ".", "source", "command", "builtin", "unset", "wait":
		return true
	}
	return false
}

// noOp reports whether a command checks nothing and succeeds (or ends
// the script).
func noOp(name string) bool {
	switch name {
	case "true", ":", "echo", "printf", "exit", "return":
		return true
	}
	return false
}

// aliasArg is NAME=VALUE as alias takes it.
var aliasArg = lazyregexp.New(`^([A-Za-z_\[][A-Za-z0-9_.\-\[]*)=(.*)$`)

// shellOverride says how an added line turns checks off through an alias
// or an EXIT trap, "" when it does not. base is the file as it was: an
// alias over a function base defines is one over the script's helper.
func shellOverride(line, base string) string {
	return shellOverrideDepth(line, base, 0)
}

func shellOverrideDepth(line, base string, depth int) string {
	if depth > 2 || !overrideWords.Regexp().MatchString(line) {
		return ""
	}
	calls, f, ok := Calls(line)
	if !ok {
		return ""
	}
	var redefined string
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && redefined == "" && fd.Name != nil && callsOrDefines(base, fd.Name.Value) {
			redefined = fd.Name.Value
		}
		if fd, ok := n.(*syntax.FuncDecl); ok && redefined == "" && fd.Name != nil && aliasedBuiltin(fd.Name.Value) {
			// bash (not in posix mode) runs a function named exit or
			// test in place of the builtin (round 48, helper 302).
			redefined = fd.Name.Value
		}
		return redefined == ""
	})
	if redefined != "" {
		return "it redefines " + redefined + ", which the file already has or calls"
	}
	for _, c := range calls {
		if len(c.Words) > 1 && (c.Words[0] == "builtin" || c.Words[0] == "command") {
			if r := c.Words[1:]; r[0] == "exit" || r[0] == "return" {
				if len(r) == 1 || r[1] == "0" {
					return "it ends the script early with success (through " + c.Words[0] + ")"
				}
			}
		}
		w := StripWrappers(c.Words)
		if len(c.Words) > 1 && CommandName(c.Words[0]) == "exec" {
			// StripWrappers drops exec: what it runs replaces the script.
			if r := StripWrappers(c.Words); len(r) > 0 && noOp(CommandName(r[0])) {
				return "it replaces the script with `" + strings.Join(r, " ") + "`: nothing after it runs, and the run exits 0"
			}
		}
		if len(w) == 0 {
			continue
		}
		switch CommandName(w[0]) {
		case "set":
			for i, o := range w[1:] {
				if o == "--" || o == "-" {
					break
				}
				if o == "-o" && i+2 < len(w) && w[i+2] == "noexec" || strings.HasPrefix(o, "-") && !strings.HasPrefix(o, "--") && strings.Contains(o, "n") && o != "-o" {
					return "it sets noexec (`set -n`): the shell reads the rest of the script, runs none of it, and exits 0"
				}
			}
		case "enable":
			if len(w) > 2 && w[1] == "-n" {
				for _, name := range w[2:] {
					if aliasedBuiltin(name) {
						return "it turns the builtin " + name + " off (`enable -n`): the script's " + name + " no longer does what it says"
					}
				}
			}
		case "readonly", "declare", "typeset", "local":
			if CommandName(w[0]) != "readonly" && !slices.ContainsFunc(w[1:], func(o string) bool { return strings.HasPrefix(o, "-") && strings.Contains(o, "r") }) {
				continue
			}
			for _, a := range w[1:] {
				name, _, _ := strings.Cut(a, "=")
				if !strings.HasPrefix(a, "-") && countedIn(base, name) {
					return "it makes " + name + " read-only: the checks' later " + name + "=$((" + name + "+1)) fails, and " + name + " keeps its value"
				}
			}
		case "alias":
			for _, a := range w[1:] {
				m := aliasArg.Regexp().FindStringSubmatch(a)
				if m == nil {
					continue
				}
				name, value := m[1], strings.Fields(m[2])
				first := ""
				if len(value) > 0 {
					first = CommandName(value[0])
				}
				switch {
				case aliasedBuiltin(name):
					return "it makes " + name + " an alias (of `" + m[2] + "`): dash expands aliases in scripts, so every " + name + " after it runs the alias"
				case definesFunc(base, name):
					return "it makes " + name + ", the script's own function, an alias (of `" + m[2] + "`): dash expands aliases in scripts, so the calls after it run the alias, not the check"
				case len(value) == 0 || noOp(first):
					return "it makes " + name + " an alias of `" + m[2] + "`, which checks nothing: dash expands aliases in scripts, so every call after it succeeds"
				}
			}
		case "eval":
			if why := shellOverrideDepth(strings.Join(w[1:], " "), base, depth+1); why != "" {
				return why
			}
		case "trap":
			if len(w) < 3 || !exitsZero(w[1], depth) {
				continue
			}
			for _, sig := range w[2:] {
				if s := strings.ToUpper(sig); s == "EXIT" || s == "0" || s == "SIGEXIT" {
					return "it traps EXIT with an `exit 0`: when the script fails (`exit 1`), the trap runs and the script exits 0"
				}
			}
			// Another signal, where the script sends it to itself (`kill
			// $$`): the trap ends it with success wherever the kill stands
			// (round 46, helper-297). A Ctrl-C handler alone is honest.
			if selfKill.Regexp().MatchString(base) {
				return "it traps " + w[2] + " with an `exit 0`, and the script signals itself (`kill $$`): the trap then ends it with success, whatever the checks found"
			}
		case "kill":
			if selfKill.Regexp().MatchString(line) {
				return "it signals the script itself (`kill $$`): a trap on the signal, not the checks, then decides how it ends"
			}
		}
	}
	return ""
}

// exitsZero reports whether a trap's action runs `exit 0`.
func exitsZero(action string, depth int) bool {
	if depth > 2 {
		return false
	}
	calls, _, ok := Calls(action)
	if !ok {
		return false
	}
	for _, c := range calls {
		w := StripWrappers(c.Words)
		if len(w) == 2 && CommandName(w[0]) == "exit" && w[1] == "0" {
			return true
		}
		if len(w) > 1 && CommandName(w[0]) == "eval" && exitsZero(strings.Join(w[1:], " "), depth+1) {
			return true
		}
	}
	return false
}

// overrideWords are the words a line that turns checks off through the
// shell holds: lines without any are not parsed here.
// selfKill: a kill of the script's own process (`kill $$`, `kill -s
// TERM $$`, `kill -TERM 0`).
var selfKill = lazyregexp.New(`(^|[;&|(\s])kill\s+(-[A-Za-z0-9]+\s+|-s\s+\S+\s+|--\s+)*("?\$\$"?|"?-\$\$"?|0|"?\$BASHPID"?)(\s|;|$|\))`)

var overrideWords = lazyregexp.New(`alias|trap|kill|set|exec|unset|\(\s*\)|function|readonly|declare|typeset|local|enable|builtin|command`)

// callsOrDefines reports whether src names name as a word (a function it
// defines or calls), as the line-start rule reads it.
func callsOrDefines(src, name string) bool {
	for i := 0; ; {
		j := strings.Index(src[i:], name)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(name)
		if (a == 0 || !wordByte(src[a-1])) && (b == len(src) || !wordByte(src[b])) {
			return true
		}
		i = b
	}
}

func wordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// countedIn reports whether src updates name by arithmetic (a failure or
// pass count): `name=$((name+1))`, `((name++))`, `: $((name+=1))`, `let name+=1`.
func countedIn(src, name string) bool {
	if name == "" || !callsOrDefines(src, name) {
		return false
	}
	return strings.Contains(src, name+"=$((") || strings.Contains(src, "(("+name) || strings.Contains(src, "(( "+name) || strings.Contains(src, name+"+=") || strings.Contains(src, name+"++")
}

// definesFunc reports whether src defines a shell function named name.
func definesFunc(src, name string) bool {
	for _, l := range strings.Split(src, "\n") {
		if m := weakenRE().fn.FindStringSubmatch(l); m != nil && m[1] == name {
			return true
		}
	}
	return false
}

// execBeforeMore says how line i of lines, an `exec CMD` with lines that
// run after it, ends the script early: CMD replaces the shell, and the
// checks below never run. A wrapper's last line (`exec pytest "$@"`) is
// the run itself.
func execBeforeMore(lines []string, i int) string {
	// An indented exec stands in a branch or a function (`if [ -n "$CI" ];
	// then exec pytest --ci; fi`): what follows may be the other branch.
	if !strings.HasPrefix(lines[i], "exec") {
		return ""
	}
	calls, _, ok := Calls(lines[i])
	if !ok {
		return ""
	}
	var run []string
	for _, c := range calls {
		if len(c.Words) > 1 && CommandName(c.Words[0]) == "exec" {
			run = StripWrappers(c.Words)
			break
		}
	}
	if len(run) == 0 {
		return ""
	}
	for _, l := range lines[i+1:] {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") && t != "fi" && t != "done" && t != "}" && t != "esac" {
			return "it replaces the script with `" + strings.Join(run, " ") + "` before the lines after it: they never run"
		}
	}
	return ""
}

// unsetBeforeCall says how line i of lines, an `unset -f NAME`, turns
// checks off: a later line calls NAME, which the script defines, and the
// call now fails as "not found". Unsetting helpers at the end (nvm's
// `unset -f die cleanup`) is tidying.
func unsetBeforeCall(lines []string, i int) string {
	if !strings.Contains(lines[i], "unset") {
		return ""
	}
	calls, _, ok := Calls(lines[i])
	if !ok {
		return ""
	}
	src := strings.Join(lines, "\n")
	for _, c := range calls {
		w := StripWrappers(c.Words)
		if len(w) < 3 || w[0] != "unset" || w[1] != "-f" {
			continue
		}
		for _, name := range w[2:] {
			if name == "" || !definesFunc(src, name) {
				continue
			}
			for _, l := range lines[i+1:] {
				t := strings.TrimSpace(l)
				if t == "" || strings.HasPrefix(t, "#") || strings.Contains(t, "unset") || weakenRE().fn.MatchString(t) {
					continue
				}
				if callsOrDefines(t, name) {
					return "it removes the function " + name + " before lines that call it: those calls fail as \"not found\", and nothing counts them"
				}
			}
		}
	}
	return ""
}
