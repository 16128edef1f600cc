package shellline

import (
	"slices"
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
	fed := map[*syntax.Stmt]bool{}   // right sides of a pipe
	feeds := map[*syntax.Stmt]bool{} // left sides: their output is piped
	syntax.Walk(f, func(n syntax.Node) bool {
		if b, ok := n.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
			fed[b.Y] = true
			feeds[b.X] = true
		}
		return true
	})
	found := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if ok && found == "" {
			found = readsTerminalFile(st, fed[st])
		}
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
		case ttyProgram(w, feeds[st] || outRedirected(st)):
			found = name
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
	for i := 1; i < len(w); i++ {
		if shellOptionTakesValue(w[i]) {
			i++
			continue
		}
		if !strings.HasPrefix(w[i], "-") {
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

// ttyProgram: round 24 review (c8). Programs beside shells and
// interpreters that read what they do from the terminal: an editor
// (`vim notes.md`, then `:e SESSION-PROTOCOL.md`, `:!sh`), a pager
// (`less`, `man`: `!cmd`), a REPL or client (irb, lua, gdb, psql, ssh,
// tmux, `python3 -i script.py`), a line consumer with no input on the
// line (`xargs rm`, `awk '{system($0)}'`, `sed -f /dev/stdin x`, `read`),
// and git commands that open an editor (`git commit` with no message,
// `git rebase -i`, `git add -p`). Under Codex each stayed open for
// write_stdin. outPiped: the statement's output is piped or redirected
// (a pager then only copies its input).
func ttyProgram(w []string, outPiped bool) bool {
	name, args := w[0], w[1:]
	if hasAny(args, "--version", "--help") || len(args) == 1 && (args[0] == "-V" || args[0] == "-h" || args[0] == "-v" && name != "xargs") {
		return false // prints and exits (`psql --version`, `sed --help`)
	}
	switch name {
	case "vim", "vi", "nvim", "view", "vimdiff", "ex":
		return !quitsOnLine(args)
	case "ed", "red", "nano", "pico", "joe", "micro", "mcedit", "kak", "hx", "emacs":
		return !slices.Contains(args, "--batch") && !slices.Contains(args, "-batch") && !(name == "emacs" && slices.Contains(args, "--script"))
	case "gdb", "lldb":
		return !hasAny(args, "-batch", "--batch")
	case "less", "more", "most", "man", "info", "pg":
		return !outPiped
	case "irb", "lua", "luajit", "tclsh", "wish", "ghci", "dc", "script", "tmux", "screen", "ftp", "sftp", "telnet", "mongosh", "mongo", "jshell", "scala", "sbcl", "guile", "racket", "ocaml", "erl", "iex", "julia", "bc":
		return onlyOptions(args)
	case "expect", "R", "psql", "mysql", "redis-cli", "busybox":
		switch name {
		case "psql":
			return !hasAny(args, "-c", "--command", "-f", "--file")
		case "mysql":
			return !hasAny(args, "-e", "--execute")
		case "busybox":
			return len(args) > 0 && (shells[args[0]] || args[0] == "ash") && onlyOptions(args[1:])
		}
		return onlyOptions(args)
	case "ssh":
		ops := 0
		for i := 0; i < len(args); i++ {
			if strings.HasPrefix(args[i], "-") {
				if len(args[i]) == 2 && strings.Contains("bcDEeFIiJLlmOopQRSWw", args[i][1:]) {
					i++ // the option's value
				}
				continue
			}
			if strings.HasPrefix(args[i], "git@") {
				return false // a git host's account gives no shell (`ssh -T git@github.com`)
			}
			ops++
		}
		return ops <= 1 // a host and no command: a login shell
	case "python", "python3", "python2", "pypy3":
		return slices.Contains(args, "-i") // the REPL after the script
	case "node", "nodejs":
		// `node -i -e CODE` opens the REPL after the code (round 25, c2);
		// node 20 given a file runs it and exits, -i or not.
		// Only node's own options count: a script's arguments after it
		// are the script's (`node build.js -i -e`: round 25 review, c8).
		own := leadingOptions(args, "-e", "--eval", "-p", "--print", "-r", "--require", "--import", "--loader")
		return hasAny(own, "-i", "--interactive") && hasAny(own, "-e", "--eval", "-p", "--print")
	case "perl":
		// the debugger's prompt (`perl -de 0`, `perl -wd x.pl`); `-d:Mod`
		// runs a profiler instead
		return perlDebugger(args)
	case "xargs":
		return !hasAny(args, "-a", "--arg-file")
	case "awk", "gawk", "mawk", "nawk", "sed", "gsed":
		return !hasFileOperand(name, args) && !awkBeginOnly(name, args)
	case "read", "readarray", "mapfile":
		return true
	case "git":
		return gitOpensEditor(args)
	}
	return false
}

// quitsOnLine: vim/ex given commands on the line that end it (`-c wq`,
// `+x`), the batch shape `vim -es -c '%s/a/b/' -c wq F` of honest edits.
func quitsOnLine(args []string) bool {
	last := ""
	for i, a := range args {
		switch {
		case a == "-c" && i+1 < len(args):
			last = args[i+1]
		case strings.HasPrefix(a, "+") && len(a) > 1:
			last = a[1:]
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			last = a[2:]
		}
	}
	cmds := strings.Split(last, "|")
	switch strings.TrimSpace(cmds[len(cmds)-1]) {
	case "x", "wq", "q", "q!", "qa", "qa!", "xa", "wqa", "x!", "wq!":
		return true
	}
	return false
}

// leadingOptions is args up to the program's first operand (a script
// file), valued naming the options whose value is the next word.
func leadingOptions(args []string, valued ...string) []string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return args[:i]
		case !strings.HasPrefix(a, "-") || a == "-":
			return args[:i]
		case slices.Contains(valued, a):
			i++
		}
	}
	return args
}

// perlDebugger: perl's own switches, up to its script or `--`, turn on
// the debugger (-d, also in a cluster: -wd, -de 0), not a -d:Module
// profiler. A switch that takes the rest of its word (-e CODE, -I DIR,
// -M, -m, -x, -i, -l, -0, -C, -D) ends its cluster; a script's own
// arguments (`perl gen.pl -debug`) are no switches (round 25 review: c2's
// first rule denied them under Codex).
func perlDebugger(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			return false
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			if c == 'd' {
				if j+1 < len(a) && a[j+1] == ':' {
					break // -d:Module
				}
				return true
			}
			if strings.IndexByte("eEIMmxilC0D", c) >= 0 {
				if j+1 == len(a) && (c == 'e' || c == 'E' || c == 'I') {
					i++ // its value is the next word
				}
				break
			}
		}
	}
	return false
}

func onlyOptions(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

func hasAny(args []string, opts ...string) bool {
	for _, a := range args {
		for _, o := range opts {
			if a == o || strings.HasPrefix(a, o+"=") || len(o) == 2 && strings.HasPrefix(a, o) && !strings.HasPrefix(o, "--") {
				return true
			}
		}
	}
	return false
}

// hasFileOperand: awk or sed given a file to read after its program.
func hasFileOperand(name string, args []string) bool {
	prog := false // the program: -f FILE, -e X, or the first operand
	ops := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || a == "-e" || a == "--file" || a == "--expression":
			if i+1 < len(args) && args[i+1] == "/dev/stdin" {
				return false // the program itself comes from the terminal
			}
			prog = true
			i++
		case (a == "-v" || a == "-F") && !strings.Contains(name, "sed"):
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			ops++
		}
	}
	if !prog {
		ops-- // the first operand is the program
	}
	return ops > 0
}

// gitOpensEditor: a git command that opens an editor on the terminal.
func gitOpensEditor(args []string) bool {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if args[i] == "-C" || args[i] == "-c" {
			i++
		}
		i++
	}
	if i >= len(args) {
		return false
	}
	sub, rest := args[i], args[i+1:]
	switch sub {
	case "commit":
		return !hasAny(rest, "-m", "--message", "-F", "--file", "-C", "--reuse-message", "--no-edit", "--fixup") &&
			!slices.ContainsFunc(rest, func(a string) bool {
				return strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "mFC")
			})
	case "rebase":
		return hasAny(rest, "-i", "--interactive")
	case "add", "checkout", "reset", "restore", "stash":
		return hasAny(rest, "-p", "--patch", "-i", "--interactive") && sub != "checkout" || sub == "checkout" && hasAny(rest, "-p", "--patch")
	case "tag":
		return hasAny(rest, "-a", "--annotate", "-s", "--sign") && !hasAny(rest, "-m", "--message", "-F", "--file")
	}
	return false
}

// outRedirected: the statement's standard output goes to a file.
func outRedirected(st *syntax.Stmt) bool {
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob:
			if r.N == nil || r.N.Value == "1" {
				return true
			}
		}
	}
	return false
}

// awkBeginOnly: an awk program of BEGIN blocks only reads no input
// (`awk 'BEGIN{print 2*3}'`, an honest calculator).
func awkBeginOnly(name string, args []string) bool {
	if !strings.Contains(name, "awk") {
		return false
	}
	prog := ""
	for i := 0; i < len(args); i++ {
		if args[i] == "-v" || args[i] == "-F" {
			i++
			continue
		}
		if !strings.HasPrefix(args[i], "-") {
			prog = args[i]
			break
		}
	}
	rest := strings.TrimSpace(prog)
	if rest == "" || strings.Contains(rest, "getline") {
		return false
	}
	for rest != "" {
		if !strings.HasPrefix(rest, "BEGIN") {
			return false
		}
		rest = strings.TrimSpace(rest[len("BEGIN"):])
		if !strings.HasPrefix(rest, "{") {
			return false
		}
		depth, end := 0, -1
		for i, r := range rest {
			if r == '{' {
				depth++
			} else if r == '}' {
				depth--
				if depth == 0 {
					end = i
					break
				}
			}
		}
		if end < 0 {
			return false
		}
		rest = strings.TrimSpace(rest[end+1:])
	}
	return true
}
