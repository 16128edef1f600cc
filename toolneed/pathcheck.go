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
	for _, a := range w[1:] {
		a = strings.TrimSuffix(strings.TrimPrefix(a, "./"), "/")
		for _, p := range paths {
			if a == p {
				return true
			}
		}
	}
	return false
}

// looksAtFiles are programs whose run shows whether a path exists or
// what it holds, and change nothing.
var looksAtFiles = map[string]bool{"ls": true, "test": true, "[": true, "stat": true, "find": true, "tree": true,
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
