package shellline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A program that reads the terminal through a file name is left open like
// one reading its standard input: `bash /dev/tty`, `python3 /dev/fd/0`,
// `. /dev/tty`, `cat /dev/tty | sh`, `xargs -a /dev/tty rm`, `sed -f
// /dev/tty x.md`, `sh < /dev/tty`. Under Codex's tty each waited for the
// lines write_stdin sends, which reach no hook (round 25 review: all were
// allowed; StdinProgram read only `/dev/stdin`, as a shell's operand).

// terminalFile: the terminal itself, whatever feeds the statement.
func terminalFile(p string) bool {
	return p == "/dev/tty" || p == "/dev/console" || strings.HasPrefix(p, "/dev/pts/")
}

// printsOnly: programs that take a file name to write to or to describe,
// never to read commands from (`cmd | tee /dev/tty`, `ls -l /dev/tty`).
var printsOnly = map[string]bool{"tee": true, "echo": true, "printf": true, "ls": true, "stat": true, "test": true, "[": true, "file": true, "readlink": true, "realpath": true, "tty": true, "stty": true}

// readsTerminalFile names the program of st when it is given the terminal
// by name: as an operand or an input redirect (/dev/tty, /dev/pts/N), or
// as its standard input's other names (/dev/stdin, /dev/fd/0,
// /proc/self/fd/0) when nothing on the line feeds it (fed: the right side
// of a pipe). "" otherwise.
func readsTerminalFile(st *syntax.Stmt, fed bool) string {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return ""
	}
	var words []string
	for _, a := range c.Args {
		s, _ := Literal(a)
		words = append(words, s)
	}
	w := StripWrappers(words)
	if len(w) == 0 || w[0] == "" {
		return ""
	}
	name := CommandName(w[0])
	inputOnLine := fed
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut:
			if p, _ := Literal(r.Word); terminalFile(p) && (r.N == nil || r.N.Value == "0") {
				return name
			}
			inputOnLine = true
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			inputOnLine = true
		}
	}
	if printsOnly[name] {
		return ""
	}
	for _, a := range w[1:] {
		if terminalFile(a) || stdinFiles[a] && !inputOnLine {
			return name
		}
	}
	return ""
}
