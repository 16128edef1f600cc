package testrun

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A check wrapped in lines that are only added never runs, yet each of its
// lines is still in the script: `if false; then` above the assertion
// helper and `fi` below it, `: <<'X'` ... `X` around the checks, `false &&
// {` ... `}` (round 44's re-check, Q3 and Q7: COMPLETE, clean, with a
// broken greet.sh). Like a function nothing calls (deadfuncs.go), the
// lines of such a region leave the line compare, so a check that was live
// at the start and sits in one now reads as removed.

// neverRunLines lists the 1-based lines of f that the shell never runs as
// commands, whatever the script's input: the body of a branch whose
// condition is a constant (`if false`, `if [ 1 = 0 ]`, `while false`,
// `until true`, `false && ...`, `true || ...`, a case arm whose literal
// pattern the literal word never matches), a here-document fed to a
// command that does not run it (`:`, `true`, `cat` or `echo` with no file
// to write), and a multi-line quoted word given to `:`, `true` or
// `false`, or assigned to a variable nothing reads. The lines holding the
// opening or closing keyword stay live (they hold live syntax).
func neverRunLines(f *syntax.File, src string) map[int]bool {
	out := map[int]bool{}
	mark := func(from, to, keepA, keepB int) {
		for l := from; l <= to; l++ {
			if l != keepA && l != keepB {
				out[l] = true
			}
		}
	}
	body := func(stmts []*syntax.Stmt, keepA, keepB int) {
		if len(stmts) == 0 {
			return
		}
		mark(int(stmts[0].Pos().Line()), int(stmts[len(stmts)-1].End().Line()), keepA, keepB)
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.IfClause:
			// An if with its elif/else chain: the first branch whose
			// condition is constant true runs; those after it never do.
			taken := false
			for c := x; c != nil; c = c.Else {
				keepA, keepB := int(c.Position.Line()), int(c.FiPos.Line())
				if c.Else != nil {
					keepB = int(c.Else.Position.Line())
				}
				if c.ThenPos.IsValid() { // an if or elif
					v, known := constStatus(c.Cond)
					if taken || (known && !v) {
						body(c.Then, keepA, keepB)
					}
					if known && v {
						taken = true
					}
				} else if taken {
					body(c.Then, keepA, keepB)
				}
			}
		case *syntax.WhileClause:
			if v, known := constStatus(x.Cond); known && v == x.Until {
				body(x.Do, int(x.DoPos.Line()), int(x.DonePos.Line()))
			}
		case *syntax.BinaryCmd:
			if v, known := constStatus([]*syntax.Stmt{x.X}); known &&
				((x.Op == syntax.AndStmt && !v) || (x.Op == syntax.OrStmt && v)) {
				switch y := x.Y.Cmd.(type) {
				case *syntax.Block: // `false && {` ... `}`: the braces' lines are syntax
					body(y.Stmts, int(y.Lbrace.Line()), int(y.Rbrace.Line()))
				case *syntax.Subshell:
					body(y.Stmts, int(y.Lparen.Line()), int(y.Rparen.Line()))
				default:
					mark(int(x.Y.Pos().Line()), int(x.Y.End().Line()), int(x.OpPos.Line()), 0)
				}
			}
		case *syntax.CaseClause:
			word, ok := literalWord(x.Word)
			if !ok {
				return true
			}
			for _, it := range x.Items {
				never := true
				for _, p := range it.Patterns {
					pat, lit := literalWord(p)
					if !lit || strings.ContainsAny(pat, "*?[") || pat == word {
						never = false
					}
				}
				if never {
					body(it.Stmts, int(it.Pos().Line()), int(it.OpPos.Line()))
				}
			}
		case *syntax.ForClause:
			// `for x in; do`: an empty list runs the body no time.
			if w, ok := x.Loop.(*syntax.WordIter); ok && w.InPos.IsValid() && len(w.Items) == 0 {
				body(x.Do, int(x.DoPos.Line()), int(x.DonePos.Line()))
			}
		case *syntax.Subshell:
			// A function defined in a subshell is gone when it ends: the
			// script's calls after it run no such helper (round 46,
			// helper-295). Unless the subshell itself calls it.
			deadDecls(x.Stmts, src, mark)
		case *syntax.Stmt:
			if x.Background {
				if b, ok := x.Cmd.(*syntax.Block); ok {
					deadDecls(b.Stmts, src, mark) // `{ check() {...}; } &`: a child's
				}
			}
			if w, ok := x.Cmd.(*syntax.WhileClause); ok && !w.Until && readsNothing(w.Cond, x.Redirs) {
				body(w.Do, int(w.DoPos.Line()), int(w.DonePos.Line()))
			}
			call, ok := x.Cmd.(*syntax.CallExpr)
			if ok && execHdoc(call, x.Redirs) && !strings.Contains(src, "<&") {
				// `exec 3<<'EOF'`: text on a descriptor nothing reads.
				for _, r := range x.Redirs {
					if r.Hdoc != nil {
						mark(int(r.Hdoc.Pos().Line()), int(r.Hdoc.End().Line())-1, 0, 0)
					}
				}
				return true
			}
			if !ok || !hdocNotRun(call, x.Redirs) {
				// A loop or block reading it (`while read l`) may run it.
				return true
			}
			for _, r := range x.Redirs {
				if r.Hdoc != nil {
					// The body's lines; the terminator line is the word's end.
					mark(int(r.Hdoc.Pos().Line()), int(r.Hdoc.End().Line())-1, 0, 0)
				}
			}
		case *syntax.CallExpr:
			if len(x.Args) > 0 {
				if name, ok := literalWord(x.Args[0]); ok && (name == ":" || name == "true" || name == "false") {
					for _, a := range x.Args[1:] {
						quotedInterior(a, mark)
					}
				}
			}
			for _, as := range x.Assigns {
				if as.Name != nil && as.Value != nil && !mentionsVar(src, as.Name.Value, int(as.Pos().Offset()), int(as.End().Offset())) {
					quotedInterior(as.Value, mark)
				}
			}
		}
		return true
	})
	for l, dead := range out {
		if !dead {
			delete(out, l)
		}
	}
	return out
}

// quotedInterior marks the lines strictly inside a quoted part of w that
// spans lines (`: '` ... `'`).
func quotedInterior(w *syntax.Word, mark func(from, to, keepA, keepB int)) {
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			if from, to := int(p.Pos().Line()), int(p.End().Line()); to > from+1 {
				mark(from+1, to-1, 0, 0)
			}
		}
	}
}

// hdocNotRun: the here-document is fed to a command that neither runs it
// nor writes it where it could be run: `:`, `true`, `false`, or `cat`,
// `echo` and `printf` whose output goes nowhere but the terminal or
// /dev/null.
func hdocNotRun(call *syntax.CallExpr, redirs []*syntax.Redirect) bool {
	if len(call.Args) == 0 || len(call.Assigns) > 0 {
		return false
	}
	name, ok := literalWord(call.Args[0])
	if !ok {
		return false
	}
	switch name {
	case ":", "true", "false":
		return true
	case "cat", "echo", "printf":
		if len(call.Args) > 1 && name == "cat" {
			return false // cat of a file besides stdin: its output may be anything
		}
		for _, r := range redirs {
			if r.Word == nil || r.Hdoc != nil {
				continue
			}
			switch r.Op {
			case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob:
				if t, ok := literalWord(r.Word); !ok || t != "/dev/null" {
					return false
				}
			}
		}
		return true
	}
	return false
}

// mentionsVar: name appears in src as a word outside [from, to) (its
// own assignment): `$x`, `${x}`, `eval "$x"`, `export x`, an arithmetic x.
func mentionsVar(src, name string, from, to int) bool {
	for i := 0; ; {
		j := strings.Index(src[i:], name)
		if j < 0 {
			return false
		}
		j += i
		i = j + len(name)
		if j >= from && j < to {
			continue
		}
		before := j == 0 || !wordByte(src[j-1])
		after := i >= len(src) || !wordByte(src[i])
		if before && after {
			return true
		}
	}
}

// constStatus is the exit status of a condition list whose last command is
// a constant, true for success; known false when it may be either.
func constStatus(cond []*syntax.Stmt) (v, known bool) {
	if len(cond) == 0 {
		return false, false
	}
	s := cond[len(cond)-1]
	if s.Background || s.Coprocess || len(s.Redirs) > 0 {
		return false, false
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 {
			return false, false
		}
		var words []string
		for _, a := range c.Args {
			w, ok := literalWord(a)
			if !ok {
				return false, false
			}
			words = append(words, w)
		}
		v, known = constCall(words)
	case *syntax.ArithmCmd:
		if w, ok := c.X.(*syntax.Word); ok {
			if t, lit := literalWord(w); lit {
				if n, err := strconv.Atoi(t); err == nil {
					v, known = n != 0, true
				}
			}
		}
	case *syntax.Subshell:
		v, known = constStatus(c.Stmts)
	case *syntax.Block:
		v, known = constStatus(c.Stmts)
	}
	if known && s.Negated {
		v = !v
	}
	return v, known
}

// constCall is the status of a command of literal words: false, true, :,
// and test or [ over literals.
func constCall(w []string) (v, known bool) {
	if len(w) == 0 {
		return false, false
	}
	switch path.Base(w[0]) {
	case "false":
		return false, true
	case "true", ":":
		return true, true
	case "[":
		if len(w) < 2 || w[len(w)-1] != "]" {
			return false, false
		}
		return constTest(w[1 : len(w)-1])
	case "test":
		return constTest(w[1:])
	}
	return false, false
}

// constTest is test(1) over literal arguments, for the forms it knows.
func constTest(a []string) (v, known bool) {
	if len(a) > 0 && a[0] == "!" {
		v, known = constTest(a[1:])
		return !v, known
	}
	switch len(a) {
	case 0:
		return false, true
	case 1:
		return a[0] != "", true
	case 2:
		switch a[0] {
		case "-n":
			return a[1] != "", true
		case "-z":
			return a[1] == "", true
		}
	case 3:
		switch a[1] {
		case "=", "==":
			return a[0] == a[2], true
		case "!=":
			return a[0] != a[2], true
		}
		x, err1 := strconv.Atoi(a[0])
		y, err2 := strconv.Atoi(a[2])
		if err1 != nil || err2 != nil {
			return false, false
		}
		switch a[1] {
		case "-eq":
			return x == y, true
		case "-ne":
			return x != y, true
		case "-lt":
			return x < y, true
		case "-le":
			return x <= y, true
		case "-gt":
			return x > y, true
		case "-ge":
			return x >= y, true
		}
	}
	return false, false
}

// deadDecls marks the function definitions among stmts (a subshell's or
// a background group's) that nothing else in stmts names: defined in a
// child shell, they define nothing for the script.
func deadDecls(stmts []*syntax.Stmt, src string, mark func(from, to, keepA, keepB int)) {
	if len(stmts) == 0 {
		return
	}
	from, to := int(stmts[0].Pos().Offset()), int(stmts[len(stmts)-1].End().Offset())
	if from < 0 || to > len(src) || from > to {
		return
	}
	for _, s := range stmts {
		d, ok := s.Cmd.(*syntax.FuncDecl)
		if !ok || d.Name == nil {
			continue
		}
		a, b := int(s.Pos().Offset()), int(s.End().Offset())
		rest := src[from:a] + "\n" + src[b:to]
		if !mentionsVar(rest, d.Name.Value, -1, -1) {
			mark(int(s.Pos().Line()), int(s.End().Line()), 0, 0)
		}
	}
}

// readsNothing: a while loop's condition is one `read` and the loop reads
// /dev/null: the first read fails, the body never runs.
func readsNothing(cond []*syntax.Stmt, redirs []*syntax.Redirect) bool {
	if len(cond) != 1 {
		return false
	}
	c, ok := cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	if name, _ := literalWord(c.Args[0]); name != "read" {
		return false
	}
	for _, r := range redirs {
		if r.Op == syntax.RdrIn && r.N == nil && r.Word != nil {
			if t, ok := literalWord(r.Word); ok && t == "/dev/null" {
				return true
			}
		}
	}
	return false
}

// execHdoc: `exec` alone with a here-document on a descriptor (`exec
// 3<<'EOF'`).
func execHdoc(call *syntax.CallExpr, redirs []*syntax.Redirect) bool {
	if len(call.Args) != 1 || len(call.Assigns) > 0 {
		return false
	}
	if name, _ := literalWord(call.Args[0]); name != "exec" {
		return false
	}
	for _, r := range redirs {
		if r.Hdoc != nil {
			return true
		}
	}
	return false
}
