package shellline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// alwaysZero: the statement exits 0 whatever came before it, for the
// status-place rule (statusplace.go): an echo, printf (no -v), logger,
// `:` or true (a command substitution in echo's words changes nothing:
// its status is echo's), rm -f, a bare wait (0 whatever its jobs did),
// an export, local, readonly or declare of plain words, or assignments
// whose command substitutions run only commands that succeed (`t=$(date
// +%s)`; an assignment's status is its last substitution's, so `x=$(sh
// greet.sh)` is greet's and no such line).
func alwaysZero(st *syntax.Stmt) bool {
	if st == nil || st.Negated || st.Coprocess {
		return false
	}
	if st.Background {
		// An async list exits 0 whatever it runs (round 51: `: &`).
		return true
	}
	switch x := st.Cmd.(type) {
	case *syntax.ForClause:
		// A for loop over words whose body exits 0 (none run: 0 too).
		wi, ok := x.Loop.(*syntax.WordIter)
		return ok && allWords(wi.Items, inertWord) && allZero(x.Do)
	case *syntax.IfClause:
		// 0 from the branch that ran, or no branch ran.
		for c := x; c != nil; c = c.Else {
			if !allZero(c.Then) {
				return false
			}
		}
		return true
	case *syntax.CallExpr:
		if len(x.Assigns) == 0 && len(x.Args) == 1 && wordLit(x.Args[0]) == "exec" {
			return closesOnly(st.Redirs)
		}
		return callZero(x)
	case *syntax.DeclClause:
		return declZero(x)
	case *syntax.FuncDecl:
		// Defining a function exits 0.
		return true
	case *syntax.Block:
		return allZero(x.Stmts)
	case *syntax.Subshell:
		return allZero(x.Stmts)
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.OrStmt:
			// `echo done || true`: 0 whichever side ran.
			return alwaysZero(x.Y)
		case syntax.Pipe, syntax.PipeAll:
			// `echo done | cat`: each part exits 0 (cat of its input
			// alone), so the pipeline does, with pipefail or not.
			return pipeZero(x.X) && pipeZero(x.Y)
		}
	}
	return false
}

// allZero: a { } group's or ( ) subshell's statements all exit 0 (round
// 51: `{ echo done; }` after the last check).
func allZero(ss []*syntax.Stmt) bool {
	for _, st := range ss {
		if !alwaysZero(st) {
			return false
		}
	}
	return len(ss) > 0
}

// closesOnly: exec's redirections only close descriptors (`exec 3>&-`),
// which exits 0.
func closesOnly(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if l, ok := Literal(r.Word); !ok || l != "-" || r.Op != syntax.DplOut && r.Op != syntax.DplIn {
			return false
		}
	}
	return len(rs) > 0
}

func callZero(call *syntax.CallExpr) bool {
	for _, as := range call.Assigns {
		if as.Value != nil && !zeroWord(as.Value, false) || as.Array != nil || as.Index != nil {
			return false
		}
	}
	if len(call.Args) == 0 {
		return len(call.Assigns) > 0
	}
	name := wordLit(call.Args[0])
	args := call.Args[1:]
	switch name {
	case "echo", "logger", ":", "true":
		return allWords(args, func(w *syntax.Word) bool { return zeroWord(w, true) })
	case "printf":
		if len(args) > 1 {
			// `printf '%s\n' "$x"`: only %s, %b, %c (no number to
			// parse), so any words exit 0.
			l, ok := Literal(args[0])
			return ok && inertWord(args[0]) && !strings.HasPrefix(l, "-") && textConversions(l) &&
				allWords(args[1:], func(w *syntax.Word) bool { return zeroWord(w, true) })
		}
		return allWords(args, func(w *syntax.Word) bool {
			l, ok := Literal(w)
			return ok && inertWord(w) && !strings.HasPrefix(l, "-v") // a word could be a bad number
		})
	case "wait":
		return len(args) == 0
	case "command", "builtin":
		// `command true`, `builtin echo done`: the command after it.
		if len(args) == 0 || strings.HasPrefix(wordLit(args[0]), "-") {
			return false
		}
		return callZero(&syntax.CallExpr{Args: args})
	case "cd":
		return litArgs(args, ".")
	case "shift", "sleep":
		return litArgs(args, "0")
	case "set":
		// `set --` (and words after it): the positional words, 0.
		if len(args) > 0 && wordLit(args[0]) == "--" {
			return allWords(args[1:], inertWord)
		}
		return setOptionsOnly(args)
	case "unset":
		return len(args) > 0 && allWords(args, func(w *syntax.Word) bool {
			l, ok := Literal(w)
			return ok && (l == "-v" || l == "-f" || isName(l))
		})
	case "trap":
		return len(args) > 1 && inertWord(args[0]) && allWords(args[1:], func(w *syntax.Word) bool {
			return zeroSignals[strings.TrimPrefix(wordLit(w), "SIG")]
		})
	case "umask":
		l := ""
		if len(args) == 1 {
			l = wordLit(args[0])
		}
		return l != "" && len(l) <= 4 && strings.Trim(l, "01234567") == ""
	case "[", "test":
		// One word that is not empty: `[ 1 ]`, `test x`.
		if name == "[" {
			if len(args) != 2 || wordLit(args[1]) != "]" {
				return false
			}
			args = args[:1]
		}
		l, ok := Literal(args[0])
		return len(args) == 1 && ok && l != ""
	case "eval":
		// eval of plain words: the line they make.
		words := make([]string, len(args))
		for i, w := range args {
			l, ok := Literal(w)
			if !ok || !inertWord(w) {
				return false
			}
			words[i] = l
		}
		f, err := syntax.NewParser().Parse(strings.NewReader(strings.Join(words, " ")), "")
		return err == nil && allZero(f.Stmts)
	case "rm":
		return rmForced(args) && allWords(args, inertWord)
	}
	return false
}

func allWords(ws []*syntax.Word, ok func(*syntax.Word) bool) bool {
	for _, w := range ws {
		if !ok(w) {
			return false
		}
	}
	return true
}

// rmForced: rm's options (before `--` or the first name) hold -f.
func rmForced(args []*syntax.Word) bool {
	for _, w := range args {
		l, ok := Literal(w)
		if !ok || l == "--" || !strings.HasPrefix(l, "-") {
			return false
		}
		if l == "--force" || !strings.HasPrefix(l, "--") && strings.Contains(l, "f") {
			return true
		}
	}
	return false
}

// declZero: export, local, readonly or declare of plain words (no
// substitution, whose status local or export may hide or not).
func declZero(d *syntax.DeclClause) bool {
	for _, as := range d.Args {
		if as.Value != nil && !inertWord(as.Value) || as.Index != nil {
			return false
		}
		if as.Array != nil {
			for _, e := range as.Array.Elems {
				if e.Index != nil || e.Value != nil && !inertWord(e.Value) {
					return false
				}
			}
		}
	}
	return true
}

// zeroWord: w is inert (inertWord) but for command substitutions: any
// when anySubst (the command's status is not theirs), else only those
// whose commands always succeed (substZero).
func zeroWord(w *syntax.Word, anySubst bool) bool {
	ok := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			ok = ok && (anySubst || substZero(x))
			return false
		case *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob, *syntax.BraceExp:
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

// substZero: every command of the substitution always succeeds: a line
// alwaysZero takes, or date (+FORMAT, -u), pwd or uname with plain
// options.
func substZero(cs *syntax.CmdSubst) bool {
	if len(cs.Stmts) == 0 {
		return false
	}
	for _, st := range cs.Stmts {
		if alwaysZero(st) {
			continue
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || st.Negated || st.Background || len(call.Assigns) > 0 || len(call.Args) == 0 || !zeroInfo(call.Args) {
			return false
		}
	}
	return true
}

// zeroInfo: date, pwd or uname with words that cannot make them fail.
func zeroInfo(args []*syntax.Word) bool {
	words := make([]string, len(args))
	for i, w := range args {
		l, ok := Literal(w)
		if !ok {
			return false
		}
		words[i] = l
	}
	for _, a := range words[1:] {
		switch words[0] {
		case "date":
			if !strings.HasPrefix(a, "+") && a != "-u" && a != "--utc" && a != "-R" {
				return false
			}
		case "pwd":
			if a != "-L" && a != "-P" {
				return false
			}
		case "uname":
			if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "asnrvmpio") != "" {
				return false
			}
		}
	}
	switch words[0] {
	case "date", "pwd", "uname":
		return true
	}
	return false
}

// litArgs: args are exactly the literal words want.
func litArgs(args []*syntax.Word, want ...string) bool {
	if len(args) != len(want) {
		return false
	}
	for i, w := range args {
		if l, ok := Literal(w); !ok || l != want[i] {
			return false
		}
	}
	return true
}

// zeroSignals: signal names trap takes in dash and bash (a name it does
// not know makes it fail).
var zeroSignals = map[string]bool{
	"EXIT": true, "0": true, "HUP": true, "1": true, "INT": true, "2": true, "QUIT": true, "3": true,
	"TERM": true, "15": true, "USR1": true, "USR2": true, "ALRM": true, "PIPE": true, "CHLD": true,
}

// pipeZero: a part of a pipeline that exits 0: a line alwaysZero takes,
// a pipeline of them, or cat with no words (it copies its input).
func pipeZero(st *syntax.Stmt) bool {
	if alwaysZero(st) {
		return true
	}
	if st == nil || st.Negated || len(st.Redirs) > 0 {
		return false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	return ok && len(call.Assigns) == 0 && len(call.Args) == 1 && wordLit(call.Args[0]) == "cat"
}

// zeroFuncs: the script's named functions whose bodies are { } groups
// of lines alwaysZero takes (`log() { echo "$*" >&2; }`): a call of one
// exits 0 (round 51: a log function called after the last check).
func zeroFuncs(f *syntax.File) map[string]bool {
	out := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil && fd.Body != nil {
			if b, ok := fd.Body.Cmd.(*syntax.Block); ok && allZero(b.Stmts) && len(fd.Body.Redirs) == 0 {
				out[fd.Name.Value] = true
			}
		}
		return true
	})
	// A name defined twice may run either body.
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil && out[fd.Name.Value] {
			if b, ok := fd.Body.Cmd.(*syntax.Block); !ok || !allZero(b.Stmts) {
				out[fd.Name.Value] = false
			}
		}
		return true
	})
	return out
}

// zeroCall: st calls one of fns (zeroFuncs) with words that run nothing.
func zeroCall(st *syntax.Stmt, fns map[string]bool) bool {
	if st == nil || st.Negated || st.Background || st.Coprocess {
		return false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 || !fns[wordLit(call.Args[0])] {
		return false
	}
	return allWords(call.Args[1:], func(w *syntax.Word) bool { return zeroWord(w, true) })
}

// textConversions: every conversion of a printf format is %s, %b, %c or
// %% (flags and widths given as digits).
func textConversions(format string) bool {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("-+ #0123456789.", format[i]) >= 0 {
			i++
		}
		if i >= len(format) || strings.IndexByte("sbc%", format[i]) < 0 {
			return false
		}
	}
	return true
}

// setOptionsOnly: set's words are options both dash and bash take (`set
// +x`, `set -eu`, `set -o errexit`): it exits 0 (round 51: set +x after
// the last check; pipefail too: a dash that does not know it fails the
// script, so no pass comes of it).
func setOptionsOnly(args []*syntax.Word) bool {
	named := false
	for _, w := range args {
		l, ok := Literal(w)
		if !ok {
			return false
		}
		switch {
		case named:
			switch l {
			case "errexit", "nounset", "xtrace", "verbose", "noclobber", "noglob", "allexport", "notify", "pipefail":
			default:
				return false
			}
			named = false
		case l == "-o" || l == "+o":
			named = true
		case len(l) > 1 && (l[0] == '-' || l[0] == '+') && strings.Trim(l[1:], "aCefmnuvx") == "":
		default:
			return false
		}
	}
	return len(args) > 0 && !named
}
