package shellline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A line that only logs cannot make the run prove less: `logger -t greet
// "run by $PPID" 2>/dev/null` added to a script the tests run writes to
// syslog, not to the stdout the checks read, and ends with no status the
// script tests (round 48, helper hD's honest row: logger's -t, its tag,
// read as a test filter, refused the line). The same for `echo "..." >&2`
// or `printf ... >&2`: what reaches stderr or /dev/null only.
//
// A line is such a log line only when all of it is one call of echo,
// printf (without -v) or logger, with no assignment before
// it, whose words expand nothing that runs or sets (no `$( )`, no
// `$(( ))`, no `${v:=x}`), and whose redirections only point its output
// at stderr or /dev/null (`>&2`, `2>/dev/null`), read in order: `2>&1
// >&2` still writes to stdout, `>&2 >greet.sh` writes a file, `logger -s
// ... 2>&1` prints to stdout. `logger ...; exit 0`, `logger $(sed -i
// ...)`, `echo x >&2 || true` are no log lines and are read as before.

// logOnly reports whether the line s is a log line in that sense.
func logOnly(s string) bool {
	f, err := syntax.NewParser().Parse(strings.NewReader(s), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	st := f.Stmts[0]
	if st.Negated || st.Background || st.Coprocess {
		return false
	}
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.Pipe && len(st.Redirs) == 0 {
		// `echo "run -k $$" | logger -t greet`: the text goes only to
		// logger (round 49, an honest row refused as a -k filter).
		name, ok := inertCall(b.X)
		return ok && (name == "echo" || name == "printf") && len(b.X.Redirs) == 0 && logStmt(b.Y, "logger")
	}
	return logStmt(st, "")
}

// inertCall: st is one call of a command named by a literal, with no
// assignment before it, whose words expand nothing that runs or sets
// (printf's option no -v, nor a word that may be one: $'\x2dv', "$o").
func inertCall(st *syntax.Stmt) (string, bool) {
	if st == nil || st.Negated || st.Background || st.Coprocess {
		return "", false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return "", false
	}
	name, ok := Literal(call.Args[0])
	if !ok {
		return "", false
	}
	for i, w := range call.Args[1:] {
		if !inertWord(w) {
			return "", false
		}
		l, lit := Literal(w)
		if name == "printf" && (strings.HasPrefix(l, "-v") || i == 0 && !lit) {
			return "", false
		}
	}
	return name, true
}

// logStmt: st is a log line's call (only the command named only, if
// any), its output at stderr or /dev/null only.
func logStmt(st *syntax.Stmt, only string) bool {
	name, ok := inertCall(st)
	if !ok || only != "" && name != only {
		return false
	}
	// Where stdout (1) and stderr (2) point once the redirections are
	// applied in order: "out", "err" or "null".
	fd := map[string]string{"1": "out", "2": "err"}
	for _, r := range st.Redirs {
		n := "1"
		if r.N != nil {
			n = r.N.Value
		}
		if n != "1" && n != "2" {
			return false
		}
		t, lit := Literal(r.Word)
		if !lit {
			return false
		}
		switch r.Op {
		case syntax.DplOut:
			if t != "1" && t != "2" {
				return false // `>&-` closes, `>&3` another file
			}
			fd[n] = fd[t]
		case syntax.RdrOut, syntax.ClbOut, syntax.AppOut:
			if t != "/dev/null" {
				return false // a file written
			}
			fd[n] = "null"
		case syntax.RdrAll, syntax.AppAll:
			if t != "/dev/null" || r.N != nil {
				return false
			}
			fd["1"], fd["2"] = "null", "null"
		default:
			return false // input, here-documents
		}
	}
	switch name {
	case "echo", "printf":
		return fd["1"] != "out" && fd["2"] != "out"
	case "logger":
		// Nothing to stdout; stderr only with -s, or its errors.
		return fd["2"] != "out"
	}
	return false
}

// inertWord: w expands nothing that runs a command or sets a variable:
// literals, quotes, and parameter expansions that only read ($v, ${v},
// ${#v}, ${0##*/}, ${v:-x}).
func inertWord(w *syntax.Word) bool {
	ok := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob, *syntax.BraceExp:
			ok = false
		case *syntax.ParamExp:
			if x.Exp != nil && !inertParamOp(x.Exp.Op) || x.Repl != nil || x.Slice != nil || x.Index != nil || x.Excl || x.Names != 0 {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// inertParamOp: ${v#x}, ${v%x} and their long forms cut text, ${v:-x}
// and ${v:+x} choose a text: none sets a variable or exits (${v:=x},
// ${v:?x} do; bash's ${v@P} may run a command).
func inertParamOp(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix,
		syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return true
	}
	return false
}
