package toolneed

import (
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/shellline"
)

// PathCheck reports a run that meets a requirement asking to check or
// list a path it names ("MUST verify `.claude/skills/` directory exists",
// "MUST list available GitHub skill scripts" over a Get-ChildItem -Path
// ".claude/skills/github/scripts"): one command, no chain, of a program
// that looks at files (ls, test, [, stat, find, tree, Get-ChildItem),
// with the named path among its words. Such a requirement asks for no
// read and names no command a POSIX shell runs, so an honest `ls -d
// .claude/skills/` under the agent hooks met nothing and the start
// protocol was blocked (round 25, c4, 2025-12-22 protocol).
func PathCheck(r protocolspec.Requirement, cmd string) bool {
	paths := checkedPaths(r)
	if len(paths) == 0 {
		return false
	}
	line := strings.TrimSpace(cmd)
	if strings.ContainsAny(line, "|;&<>`$\n") {
		return false
	}
	calls, _, ok := shellline.Calls(line)
	if !ok || len(calls) != 1 {
		return false
	}
	w := calls[0].Words
	if len(w) > 0 && w[0] == "" && strings.HasPrefix(line, "[ ") {
		w = append([]string{"["}, w[1:]...) // a glob character: not a literal word
	}
	if len(w) < 2 || !looksAtFiles[w[0]] {
		return false
	}
	for _, a := range pathOperands(w) {
		a = strings.TrimSuffix(strings.TrimPrefix(a, "./"), "/")
		for _, p := range paths {
			if a == p {
				return true
			}
		}
	}
	return false
}

// pathOperands are the words of w whose absence fails its run, so that
// the run's exit 0 says they exist: ls's and stat's operands (not an
// option's value), test's single file test, find's starting points,
// Get-ChildItem's -Path or first positional. Anywhere else the path's
// word proves nothing: `test -n PATH`, `test ! -d PATH`, `test -d PATH -o
// -d .`, `ls -I PATH`, `stat -c PATH .`, `find . -path PATH` all exit 0
// with no such path (round 25 review; TestPathCheckExitsZeroWithoutThePath).
func pathOperands(w []string) []string {
	args := w[1:]
	switch w[0] {
	case "test", "[":
		if w[0] == "[" {
			if len(args) == 0 || args[len(args)-1] != "]" {
				return nil
			}
			args = args[:len(args)-1]
		}
		if len(args) == 2 && len(args[0]) == 2 && args[0][0] == '-' && strings.IndexByte("bcdefgGhkLOprsSuwxN", args[0][1]) >= 0 {
			return args[1:]
		}
		return nil
	case "find":
		i := 0
		for i < len(args) && (args[i] == "-H" || args[i] == "-L" || args[i] == "-P" || strings.HasPrefix(args[i], "-O") || args[i] == "-D") {
			if args[i] == "-D" {
				i++
			}
			i++
		}
		var out []string
		for ; i < len(args); i++ {
			if a := args[i]; strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == "," {
				break
			}
			out = append(out, args[i])
		}
		return out
	case "ls", "stat":
		valued := map[string]bool{"-I": true, "-w": true, "-T": true, "--ignore": true, "--hide": true, "--width": true, "--tabsize": true,
			"--format": true, "--sort": true, "--time": true, "--time-style": true, "--quoting-style": true, "--indicator-style": true, "--block-size": true}
		if w[0] == "stat" {
			valued = map[string]bool{"-c": true, "--format": true, "--printf": true, "--cached": true}
		}
		var out []string
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "--":
				return append(out, args[i+1:]...)
			case valued[a]:
				i++
			case strings.HasPrefix(a, "--"):
			case strings.HasPrefix(a, "-") && len(a) > 1:
				// a cluster ending in an option that takes the next word
				// (`ls -laI PATH`); `-IPATTERN` holds its value
				if last := a[len(a)-1:]; valued["-"+last] {
					i++
				}
			default:
				out = append(out, a)
			}
		}
		return out
	case "Get-ChildItem", "gci", "dir":
		var out []string
		for i := 0; i < len(args); i++ {
			a := args[i]
			l := strings.ToLower(a)
			switch {
			case l == "-erroraction" || l == "-ea" || strings.HasPrefix(l, "-erroraction:") || strings.HasPrefix(l, "-ea:"):
				return nil // a missing path is then no failure
			case l == "-path" || l == "-literalpath":
				if i+1 < len(args) {
					out = append(out, strings.Trim(args[i+1], `"'`))
				}
				i++
			case strings.HasPrefix(a, "-"):
				switch l {
				case "-recurse", "-force", "-name", "-directory", "-file", "-hidden", "-readonly", "-system", "-followsymlink":
				default:
					i++ // -Filter, -Include, -Exclude, -Depth, ...: a value follows
				}
			case len(out) == 0:
				out = append(out, strings.Trim(a, `"'`))
			}
		}
		return out
	}
	return nil
}

// looksAtFiles are programs whose run shows whether a path exists or
// what it holds, and change nothing.
// tree is not one: its exit status on a missing folder was not measured
// (no tree on the test machine), so its exit 0 is not known to prove it.
var looksAtFiles = map[string]bool{"ls": true, "test": true, "[": true, "stat": true, "find": true,
	"Get-ChildItem": true, "gci": true, "dir": true}

var checkWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:verify|check|confirm|list)\b`)
})

// pathArg is a -Path argument in a requirement's PowerShell.
var pathArg = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)-Path\s+["']?([A-Za-z0-9_./-]+)`)
})

// checkedPaths are the paths a check requirement names (trailing "/"
// dropped), nil for any other requirement.
func checkedPaths(r protocolspec.Requirement) []string {
	first, _, _ := strings.Cut(r.Text, "\n")
	if !checkWords().MatchString(first) {
		return nil
	}
	var out []string
	for _, p := range r.NamedPaths() {
		if p = strings.TrimSuffix(strings.TrimSuffix(p, "/**"), "/"); p != "" && !strings.ContainsAny(p, "*?[") {
			out = append(out, p)
		}
	}
	for _, m := range pathArg().FindAllStringSubmatch(r.Text, -1) {
		out = append(out, strings.TrimSuffix(m[1], "/"))
	}
	return out
}
