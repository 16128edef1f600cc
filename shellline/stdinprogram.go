package shellline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// StdinProgram names a program of the line that would read the commands
// it runs from a terminal that stays open (`sh`, `bash -i`, `python3`,
// `sqlite3 DB`), "" when none does: its standard input is neither
// redirected nor piped on the line. Codex CLI's exec_command with a tty
// keeps such a process running, and the agent sends it lines later with
// write_stdin, a tool no Codex hook is called for (round 24, measured with
// the real CLI: the opener reached PreToolUse as Bash "sh", write_stdin
// nothing), so whatever those lines write is judged by nobody.
func StdinProgram(line string) string {
	_, f, ok := Calls(line)
	if !ok || f == nil {
		return ""
	}
	fed := map[*syntax.Stmt]bool{} // right sides of a pipe
	syntax.Walk(f, func(n syntax.Node) bool {
		if b, ok := n.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
			fed[b.Y] = true
		}
		return true
	})
	found := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok || found != "" || fed[st] {
			return found == ""
		}
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return true
		}
		for _, r := range st.Redirs {
			switch r.Op {
			case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.RdrInOut:
				return true // its input is on the line
			}
		}
		var words []string
		for _, a := range c.Args {
			s, _ := Literal(a)
			words = append(words, s)
		}
		w := StripWrappers(words)
		if len(w) == 0 || w[0] == "" {
			return true
		}
		name := CommandName(w[0])
		w[0] = name
		switch {
		case shells[name] || name == "ash":
			if readsStdin(w) || interactiveFlag(w) {
				found = name
			}
		case name == "sqlite3":
			if sqliteReadsStdin(w) {
				found = name
			}
		default:
			if runsStdin(w) {
				found = name
			}
		}
		return found == ""
	})
	return found
}

// interactiveFlag: `bash -i SCRIPT` still reads the script; `bash -i`
// alone is covered by readsStdin.
func interactiveFlag(w []string) bool {
	for _, a := range w[1:] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// sqliteReadsStdin: `sqlite3 DB` with no SQL argument reads SQL from
// standard input.
func sqliteReadsStdin(w []string) bool {
	args := 0
	for _, a := range w[1:] {
		if !strings.HasPrefix(a, "-") {
			args++
		}
	}
	return args <= 1
}
