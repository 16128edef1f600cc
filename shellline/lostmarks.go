package shellline

import (
	"fmt"

	"mvdan.cc/sh/v3/syntax"
)

// A check run in a child shell marks its failure there: `( check a b )`,
// `check a b | tee log`, `check a b &`, `x=$(check a b)`. The mark is
// gone when the child ends, so the failure never fails the run (round
// 47's left-open list). The line compare reads `( check a b )` for
// `check a b` as one line changed, which an agent's own run of the
// tests (compared net) let pass. A child whose status is read (`(
// check a b ) || fail=1`, an if's condition) is honest: only a call of a
// helper that marks a count the script tests, where nothing reads the
// child's status, is a lost mark.

// lostMarks lists the 1-based lines of f that call such a helper in a
// child shell whose status nothing reads, each with why.
func lostMarks(f *syntax.File, src string) map[int]string {
	fl := readCounterFlow(f, src, nil)
	marking := map[string]string{} // function → the tested count it marks
	for fn, vs := range fl.fnMarks {
		for _, v := range vs {
			if len(fl.reads[v]) > 0 {
				marking[fn] = v
				break
			}
		}
	}
	if len(marking) == 0 {
		return nil
	}
	// A count the child saves and the script reads back after it is not
	// lost (countercarry.go).
	carries := readCarries(f, src)
	out := map[int]string{}
	var stmts func(list []*syntax.Stmt, lost bool, how string)
	var stmt func(st *syntax.Stmt, lost, read bool, how string)
	words := func(ws []*syntax.Word) {
		for _, w := range ws {
			syntax.Walk(w, func(n syntax.Node) bool {
				if cs, ok := n.(*syntax.CmdSubst); ok {
					stmts(cs.Stmts, true, "a command substitution `$( )`")
					return false
				}
				return true
			})
		}
	}
	stmt = func(st *syntax.Stmt, lost, read bool, how string) {
		if st.Background {
			lost, read, how = true, false, "the background (`&`)"
		}
		switch x := st.Cmd.(type) {
		case *syntax.CallExpr:
			if len(x.Args) > 0 {
				if v, ok := marking[wordLit(x.Args[0])]; ok && lost && !read && !carriedOut(x, v, carries, fl) {
					out[int(x.Pos().Line())] = fmt.Sprintf("it calls %s, which marks failures in %s, in %s: the mark is gone when that child shell ends, so a failure there never fails the run", wordLit(x.Args[0]), v, how)
				}
			}
			words(x.Args)
			for _, as := range x.Assigns {
				if as.Value != nil {
					words([]*syntax.Word{as.Value})
				}
			}
		case *syntax.Subshell:
			for _, s := range x.Stmts {
				stmt(s, true, read, "a subshell `( )`")
			}
		case *syntax.Block:
			for _, s := range x.Stmts {
				stmt(s, lost, read, how)
			}
		case *syntax.BinaryCmd:
			switch x.Op {
			case syntax.Pipe, syntax.PipeAll:
				stmt(x.X, true, false, "a pipeline")
				stmt(x.Y, true, read, "a pipeline")
			default: // && and ||: the left side's status is read
				stmt(x.X, lost, true, how)
				stmt(x.Y, lost, read, how)
			}
		case *syntax.IfClause:
			for c := x; c != nil; c = c.Else {
				for _, s := range c.Cond {
					stmt(s, lost, true, how)
				}
				stmts(c.Then, lost, how)
			}
		case *syntax.WhileClause:
			for _, s := range x.Cond {
				stmt(s, lost, true, how)
			}
			stmts(x.Do, lost, how)
		case *syntax.ForClause:
			stmts(x.Do, lost, how)
		case *syntax.CaseClause:
			for _, it := range x.Items {
				stmts(it.Stmts, lost, how)
			}
		case *syntax.FuncDecl:
			stmt(x.Body, false, false, "")
		}
	}
	stmts = func(list []*syntax.Stmt, lost bool, how string) {
		for _, s := range list {
			stmt(s, lost, false, how)
		}
	}
	stmts(f.Stmts, false, "")
	return out
}
