package shellline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Functions whose status no one reads, for the status-place rule
// (statusplace.go, round 50, helper 313's fixes of helper 312's rows):
//
//   - a trap handler: `cleanup() { [ -f x ] && rm -f x; echo cleaned
//     >&2; }; trap cleanup EXIT`. A trap action's status is never the
//     script's (an EXIT trap keeps the status the script ended with, in
//     dash and bash, unless the action exits with one; after a signal's
//     the shell goes on with `$?` as it was), so a log line at the end
//     of a function called only from trap actions takes no check's
//     status. Only where the action calls it plainly and reads no
//     status itself (no `$?`, no bare exit or return, which pass the
//     last status on), and the name is seen nowhere else (an eval, an
//     alias, `z=cleanup; $z`).
//   - under set -e, a function called only plainly at the top level
//     (`greet_ok`, `main "$@"`: no if, while, !, && or ||, pipeline or
//     command substitution around it, where errexit is ignored or the
//     status passed on): a failing check in its body ends the script
//     before the log line after it.

// errexitSet says how a `set` call changes errexit: on, off, or neither.
// Words after `--`, `-` or the first operand are positional parameters
// (`set -- -e`, `set -x 0`), not options.
func errexitSet(c *syntax.CallExpr) (on, off bool) {
	if c == nil || len(c.Args) < 2 || wordLit(c.Args[0]) != "set" {
		return false, false
	}
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		l, ok := Literal(args[i])
		if !ok || l == "--" || l == "-" || len(l) < 2 || l[0] != '-' && l[0] != '+' {
			return on, off // an operand: positional parameters from here
		}
		set := l[0] == '-'
		flags := l[1:]
		if strings.Contains(flags, "e") {
			on, off = set, !set
		}
		if strings.Contains(flags, "o") {
			i++
			if i < len(args) {
				if n, _ := Literal(args[i]); n == "errexit" {
					on, off = set, !set
				}
			}
		}
	}
	return on, off
}

// errexitStmt: st (not descending into function bodies) turns errexit
// on or off. A `set` in a nested list (an if's branch, a group) counts
// only to turn it off; one directly in st sets it either way.
func errexitStmt(st *syntax.Stmt) (on, off bool) {
	if c, ok := st.Cmd.(*syntax.CallExpr); ok && !st.Negated && !st.Background {
		if on, off := errexitSet(c); on || off {
			return on, off
		}
	}
	nested := false
	syntax.Walk(st, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FuncDecl, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.Subshell:
			return false
		case *syntax.CallExpr:
			if _, o := errexitSet(x); o {
				nested = true
			}
		}
		return !nested
	})
	return false, nested
}

// errexitAfter is errexit after the statements, from start.
func errexitAfter(ss []*syntax.Stmt, start bool) bool {
	e := start
	for _, st := range ss {
		if on, off := errexitStmt(st); on {
			e = true
		} else if off {
			e = false
		}
	}
	return e
}

// fnTurnsErrexitOff: some function's body may leave errexit off (a set
// +e not turned back on at the body's own level): a call of it between
// a set -e and a check would undo it.
func fnTurnsErrexitOff(f *syntax.File) bool {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Body != nil && !found {
			var body []*syntax.Stmt
			switch b := fd.Body.Cmd.(type) {
			case *syntax.Block:
				body = b.Stmts
			case *syntax.Subshell:
				return true // its own process: what it sets stays there
			default:
				body = []*syntax.Stmt{fd.Body}
			}
			turns := false
			for _, st := range body {
				if _, off := errexitStmt(st); off {
					turns = true
				}
			}
			if turns && !errexitAfter(body, false) {
				found = true
			}
		}
		return !found
	})
	return found
}

// topErrexitAt: errexit is on at the top-level statement k of f (after
// statements 0..k-1), with start the #! line's -e.
func topErrexitAt(f *syntax.File, k int, start bool) bool {
	return errexitAfter(f.Stmts[:k], start) && !fnTurnsErrexitOff(f)
}

// nameSeen: name stands as a word (between characters no name holds)
// in a literal or quoted text of n, skipping the nodes in skip.
func nameSeen(n syntax.Node, name string, skip map[syntax.Node]bool) bool {
	found := false
	has := func(s string) {
		for i := strings.Index(s, name); i >= 0 && !found; {
			before := i == 0 || !isNameByte(s[i-1])
			after := i+len(name) == len(s) || !isNameByte(s[i+len(name)])
			found = before && after
			j := strings.Index(s[i+1:], name)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	syntax.Walk(n, func(m syntax.Node) bool {
		if found || skip[m] {
			return false
		}
		switch x := m.(type) {
		case *syntax.Lit:
			has(x.Value)
		case *syntax.SglQuoted:
			has(x.Value)
		}
		return !found
	})
	return found
}

func isNameByte(b byte) bool {
	return b == '_' || b == '-' || b == '.' || b == ':' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// plainTopCalls: the indexes of f's top-level statements that call name
// plainly (not negated, not in the background, the whole statement),
// and whether every mention of name is one of those or its declaration.
func plainTopCalls(f *syntax.File, name string) ([]int, bool) {
	skip := map[syntax.Node]bool{}
	var at []int
	for k, st := range f.Stmts {
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || st.Negated || st.Background || st.Coprocess || len(c.Args) == 0 {
			continue
		}
		if l, _ := Literal(c.Args[0]); l == name {
			at = append(at, k)
			skip[c.Args[0]] = true
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil && fd.Name.Value == name {
			skip[fd.Name] = true
		}
		return true
	})
	return at, len(at) > 0 && !nameSeen(f, name, skip)
}

// errexitFnUnread: under set -e, every call of name is plain at the top
// level with errexit on there (or turned on in its body before stmt k
// of body and left on; k < 0: all of body), so a failing check at k
// ends the script before anything after it in the body runs.
func errexitFnUnread(f *syntax.File, name string, body []*syntax.Stmt, k int, start bool) bool {
	if k < 0 {
		k = len(body)
	}
	at, only := plainTopCalls(f, name)
	if !only {
		return false
	}
	if fnTurnsErrexitOff(f) {
		return false
	}
	for _, c := range at {
		if !errexitAfter(body[:k], errexitAfter(f.Stmts[:c], start)) {
			return false
		}
	}
	return true
}

// trapOnlyFns names the functions called only from trap actions (not
// DEBUG, whose status bash may act on), plainly, in actions that read
// no status.
func trapOnlyFns(f *syntax.File) map[string]bool {
	funcs := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil {
			funcs[fd.Name.Value] = true
		}
		return true
	})
	if len(funcs) == 0 {
		return nil
	}
	inTrap := map[string]bool{}
	bad := map[string]bool{}
	skip := map[syntax.Node]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) < 3 || wordLit(c.Args[0]) != "trap" {
			return true
		}
		args := c.Args[1:]
		if l, _ := Literal(args[0]); l == "--" {
			args = args[1:]
		}
		if len(args) < 2 {
			return true
		}
		action, ok := Literal(args[0])
		if !ok || strings.HasPrefix(action, "-") {
			return true
		}
		for _, s := range args[1:] {
			if l, _ := Literal(s); strings.TrimPrefix(strings.ToUpper(l), "SIG") == "DEBUG" || l == "" {
				return true
			}
		}
		af, err := syntax.NewParser().Parse(strings.NewReader(action), "")
		if err != nil {
			return true
		}
		reads := false
		syntax.Walk(af, func(m syntax.Node) bool {
			switch x := m.(type) {
			case *syntax.ParamExp:
				reads = reads || x.Param != nil && statusParam(x.Param.Value)
			case *syntax.CallExpr:
				if len(x.Args) == 1 {
					if l := wordLit(x.Args[0]); l == "exit" || l == "return" {
						reads = true
					}
				}
			}
			return !reads
		})
		plain := map[string]bool{}
		for _, st := range af.Stmts {
			ac, ok := st.Cmd.(*syntax.CallExpr)
			if !ok || st.Negated || st.Background || st.Coprocess || len(ac.Args) == 0 {
				continue
			}
			if l, _ := Literal(ac.Args[0]); funcs[l] {
				plain[l] = true
			}
		}
		for name := range funcs {
			if !nameSeen(af, name, nil) {
				continue
			}
			if reads || !plain[name] {
				bad[name] = true
			} else {
				inTrap[name] = true
			}
		}
		skip[args[0]] = true
		return true
	})
	out := map[string]bool{}
	for name := range inTrap {
		if bad[name] {
			continue
		}
		own := map[syntax.Node]bool{}
		for k := range skip {
			own[k] = true
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil && fd.Name.Value == name {
				own[fd.Name] = true
			}
			return true
		})
		if !nameSeen(f, name, own) {
			out[name] = true
		}
	}
	return out
}

// errexitEnds: under errexit, st failing ends the script: a simple
// command, a test or a pipeline, not negated and not in an && or ||
// list (where errexit ignores all but the last command).
func errexitEnds(st *syntax.Stmt) bool {
	if st == nil || st.Negated || st.Background || st.Coprocess {
		return false
	}
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.TestClause, *syntax.ArithmCmd:
		return true
	case *syntax.BinaryCmd:
		return (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) && errexitEnds(x.Y)
	}
	return false
}

// errexitAtStmt: errexit is on at stmts[j]: for a top-level statement,
// after the statements before it (a later set +e turns it off); nested
// in a top-level statement, as at that statement, unless a set +e is
// inside it; in a function, as the script's top level leaves it (old is
// the script's set -e anywhere at the top level, or the #! line's).
func errexitAtStmt(f *syntax.File, stmts []*syntax.Stmt, j int, start, old bool) bool {
	if !old || j < 0 || j >= len(stmts) {
		return false
	}
	at := stmts[j].Pos().Offset()
	for k, st := range f.Stmts {
		if st == stmts[j] {
			return topErrexitAt(f, k, start)
		}
		if st.Pos().Offset() > at || st.End().Offset() <= at {
			continue
		}
		inFn := false
		syntax.Walk(st, func(n syntax.Node) bool {
			if fd, ok := n.(*syntax.FuncDecl); ok && fd.Pos().Offset() <= at && at < fd.End().Offset() {
				inFn = true
			}
			return !inFn
		})
		if inFn {
			return errexitAfter(f.Stmts, start) && !fnTurnsErrexitOff(f)
		}
		_, off := errexitStmt(st)
		return !off && topErrexitAt(f, k, start)
	}
	return false
}

// errexitMissesCheck: set -e lets st's failing check go on: a negated
// check, or a check that is not the last of an && list.
func errexitMissesCheck(st *syntax.Stmt) bool {
	if st == nil {
		return false
	}
	if st.Negated {
		return isCheck(st)
	}
	if x, ok := st.Cmd.(*syntax.BinaryCmd); ok && x.Op == syntax.AndStmt {
		return isCheck(x.X) || errexitMissesCheck(x.X) || errexitMissesCheck(x.Y)
	}
	return false
}

// fnStmtsBefore: the statements that run before ss[j] in name's body:
// those of the body before the one holding ss[j] (an if, a loop), then
// ss[:j]; ss[:j] alone when the body is not found.
func fnStmtsBefore(f *syntax.File, name string, ss []*syntax.Stmt, j int) []*syntax.Stmt {
	out := ss[:j]
	at := ss[j].Pos().Offset()
	syntax.Walk(f, func(n syntax.Node) bool {
		fd, ok := n.(*syntax.FuncDecl)
		if !ok || fd.Name == nil || fd.Name.Value != name || fd.Body == nil {
			return true
		}
		b, ok := fd.Body.Cmd.(*syntax.Block)
		if !ok {
			return false
		}
		for k, st := range b.Stmts {
			if st == ss[j] {
				return false
			}
			if st.Pos().Offset() <= at && at < st.End().Offset() {
				out = append(append([]*syntax.Stmt{}, b.Stmts[:k]...), ss[:j]...)
				return false
			}
		}
		return false
	})
	return out
}
