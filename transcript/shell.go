package transcript

import (
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
	"mvdan.cc/sh/v3/syntax"
)

// readers are the programs whose output is the content of the files they
// are given (sed only without -i).
var readers = map[string]bool{"cat": true, "head": true, "tail": true, "less": true, "more": true,
	"nl": true, "bat": true, "batcat": true, "sed": true, "tac": true}

// passThrough are programs that pass (part of) what they read on, so a file
// piped through them still reaches the model: `cat x | head -50`.
var passThrough = map[string]bool{"head": true, "tail": true, "less": true, "more": true, "cat": true, "nl": true}

// ShellReads lists the files a shell command line prints to its own output,
// which the agent's shell tool hands the model: `cat F`, `head -n 40 F`,
// `sed -n '1,80p' F`, `less F`, also after `cd DIR &&` (the path is then
// joined to DIR). A read whose output goes elsewhere proves nothing and is
// not listed: `cat F > /dev/null`, `cat F >/tmp/x`, `cat F | wc -l`, `cat F
// &`. Only literal words count ("$f" and globs are skipped); a line that
// does not parse as shell lists nothing.
func ShellReads(cmd string) []string {
	if len(cmd) > MaxField*4 {
		return nil
	}
	f, err := syntax.NewParser(syntax.KeepComments(false)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return nil
	}
	var out []string
	cwd := ""
	for _, st := range f.Stmts {
		readStmt(st, &cwd, &out, 0)
	}
	if len(out) > 32 {
		out = out[:32]
	}
	return out
}

func readStmt(st *syntax.Stmt, cwd *string, out *[]string, depth int) {
	if st == nil || st.Background || depth > 16 || redirectsStdout(st) {
		return
	}
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		words := literals(x.Args)
		if len(words) == 2 && words[0] == "cd" && words[1] != "" && words[1] != "-" {
			if strings.HasPrefix(words[1], "/") {
				*cwd = words[1]
			} else {
				*cwd = joinPath(*cwd, words[1])
			}
			return
		}
		for _, p := range readOperands(words) {
			if *cwd != "" && !strings.HasPrefix(p, "/") {
				p = joinPath(*cwd, p)
			}
			*out = append(*out, clip(p))
		}
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.AndStmt, syntax.OrStmt:
			readStmt(x.X, cwd, out, depth+1)
			readStmt(x.Y, cwd, out, depth+1)
		case syntax.Pipe, syntax.PipeAll:
			// The left side's output goes into the right side: it reaches
			// the model only through programs that pass it on.
			if passesOn(x.Y, depth+1) {
				readStmt(x.X, cwd, out, depth+1)
			}
		}
	case *syntax.Subshell:
		c := *cwd
		for _, s := range x.Stmts {
			readStmt(s, &c, out, depth+1)
		}
	case *syntax.Block:
		for _, s := range x.Stmts {
			readStmt(s, cwd, out, depth+1)
		}
	}
}

// passesOn reports whether a pipeline's right side hands on what it reads:
// only head, tail, less, more, cat and nl, with no stdout redirection.
func passesOn(st *syntax.Stmt, depth int) bool {
	if st == nil || depth > 16 || redirectsStdout(st) {
		return false
	}
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		w := literals(x.Args)
		if len(w) == 0 || !passThrough[base(w[0])] || len(readOperands(w)) > 0 {
			return false
		}
		for i, a := range w {
			// head -n 0 / tail -n 0 pass nothing on.
			if a == "-n0" || a == "-c0" || a == "-0" || (a == "-n" || a == "-c") && i+1 < len(w) && strings.TrimLeft(w[i+1], "+-0") == "" {
				return false
			}
		}
		return true
	case *syntax.BinaryCmd:
		return (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) && passesOn(x.X, depth+1) && passesOn(x.Y, depth+1)
	}
	return false
}

// redirectsStdout: the statement's standard output goes to a file (or
// /dev/null), not to the tool's result.
func redirectsStdout(st *syntax.Stmt) bool {
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob:
			if r.N == nil || r.N.Value == "1" {
				return true
			}
		case syntax.RdrAll, syntax.AppAll:
			return true
		case syntax.DplOut:
			if (r.N == nil || r.N.Value == "1") && r.Word != nil {
				if w, ok := shellline.Literal(r.Word); ok && w != "1" {
					return true // >&2 or a closed stdout
				}
			}
		}
	}
	return false
}

// readOperands picks the file operands of a reading program.
func readOperands(words []string) []string {
	if len(words) < 2 {
		return nil
	}
	prog := base(words[0])
	if !readers[prog] {
		return nil
	}
	var files, scripts []string
	script := prog == "sed" // sed's first operand is its script, unless -e or -f gave one
	quiet, fromFile := false, false
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "":
			continue // an expansion: unknown
		case w == "--":
			for _, f := range words[i+1:] {
				if f != "" && f != "-" {
					files = append(files, f)
				}
			}
			i = len(words)
		case strings.HasPrefix(w, "-") && len(w) > 1:
			if prog == "sed" && (w == "-i" || strings.HasPrefix(w, "-i") || strings.HasPrefix(w, "--in-place")) {
				return nil // sed -i writes, it does not print
			}
			if prog == "sed" && (w == "-e" || w == "-f" || w == "--expression" || w == "--file") {
				script = false
				fromFile = fromFile || w == "-f" || w == "--file"
				if i++; i < len(words) && (w == "-e" || w == "--expression") {
					scripts = append(scripts, words[i])
				}
				continue
			}
			if prog == "sed" && (w == "--quiet" || w == "--silent" || !strings.HasPrefix(w, "--") && strings.Contains(w, "n")) {
				quiet = true
			}
			if (prog == "head" || prog == "tail") && (w == "-n" || w == "-c" || w == "--lines" || w == "--bytes") {
				i++
				if i < len(words) && (printsNone(prog, words[i]) || (w == "-c" || w == "--bytes") && fewBytes(words[i])) {
					return nil // head -n 0, tail -n 0 print nothing; head -c 1 next to nothing
				}
			}
			for _, p := range []string{"-n", "-c", "--lines=", "--bytes="} {
				if (prog == "head" || prog == "tail") && strings.HasPrefix(w, p) && len(w) > len(p) && (printsNone(prog, w[len(p):]) || (p == "-c" || p == "--bytes=") && fewBytes(w[len(p):])) {
					return nil
				}
			}
			if prog == "head" && w == "-0" {
				return nil
			}
		case script:
			script = false
			scripts = append(scripts, w)
		default:
			files = append(files, w)
		}
	}
	if prog == "sed" && !fromFile && !sedPrints(quiet, scripts) {
		return nil
	}
	return files
}

// printsNone: a head or tail count that prints nothing of the file (0;
// tail's +0 starts at the first line and prints all of it).
// fewBytes: a byte count under 1 KiB shows too little of a file to have
// read it (round 56, helper 333: `head -c 1 .agents/HANDOFF.md` met "read
// the handoff").
func fewBytes(v string) bool {
	if strings.HasPrefix(v, "+") {
		return false // tail -c +N: from byte N to the end
	}
	n, err := strconv.Atoi(strings.TrimLeft(v, "-"))
	return err == nil && n < 1024
}

func printsNone(prog, v string) bool {
	if prog == "tail" && strings.HasPrefix(v, "+") {
		return false
	}
	return v != "" && strings.TrimLeft(v, "+-0") == ""
}

var (
	// sedPrintRE is one sed command printing lines: an address or range
	// (line, $, /re/) then p. Under -n only such a command prints the file.
	sedPrintRE = lazyregexp.New(`^\s*(?:(?:\d+|\$|/[^/]*/)\s*(?:,\s*(?:\d+|\$|/[^/]*/|\+\d+)\s*)?)?(?:p|\{\s*p\s*;?\s*\})\s*$`)
	// sedBlankRE: scripts that print none of the file's text (delete every
	// line, or empty every line).
	sedBlankRE = lazyregexp.New(`^\s*(?:d|s(?:/\^?\.\*\$?//|\|\^?\.\*\$?\|\||#\^?\.\*\$?##|,\^?\.\*\$?,,)g?)\s*$`)
)

// sedPrints reports whether sed with these scripts prints the file's text
// to its output. `sed -n '$='` prints the line count, `sed d` and `sed
// 's/.*//'` nothing or blank lines: a read requirement met by them was met
// by nothing read (round 25: a shell read counts where no transcript is).
func sedPrints(quiet bool, scripts []string) bool {
	if len(scripts) == 0 {
		return true // no script known (-f, an expansion): as before
	}
	if quiet {
		for _, sc := range scripts {
			for _, c := range strings.Split(sc, ";") {
				if sedPrintRE.MatchString(c) {
					return true
				}
			}
		}
		return false
	}
	for _, sc := range scripts {
		if !sedBlankRE.MatchString(sc) {
			return true
		}
	}
	return false
}

func literals(args []*syntax.Word) []string {
	out := make([]string, len(args))
	for i, w := range args {
		if s, ok := shellline.Literal(w); ok {
			out[i] = s
		}
	}
	return out
}

func base(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

func joinPath(dir, p string) string {
	if dir == "" {
		return p
	}
	return strings.TrimSuffix(dir, "/") + "/" + p
}
