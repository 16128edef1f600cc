package testrun

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The start's script may hold lines that never ran: an old `if false`
// debug block, a `: <<'NOTE'` comment, a `while false` loop, a function
// nothing calls, a banner cat prints. Removing or rewording them removes
// no check, yet the line compare read each as a removed check (round 47,
// helper-296's honest pass: 14 of 31 honest rows were blocked, these
// among them). The now side already leaves such regions out
// (deadfuncs.go, neverrun.go); this is the start side.

// startNeverRan counts, by trimmed text, the lines of the start's script
// was that did nothing when it ran: the lines no run reaches
// (neverRunLines), the keyword lines of a statement that does nothing
// whole (`if false; then` and `fi` with no else, `while false; do` and
// `done`, `false && {` and `}`, `: <<'NOTE'` and its terminator, a cat
// banner), and a function nothing calls in a script that calls its own
// functions and exits on its top level (a library's functions are called
// from elsewhere, and a sourced file does not exit: removing one there
// removes a check). A removed line is excused up to its count.
// Nil when was does not parse as a shell script.
func startNeverRan(was string) map[string]int {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(was), "")
	if err != nil {
		return nil
	}
	lines := strings.Split(was, "\n")
	dead := neverRunLines(f, was)
	// A statement that runs a command or process substitution did run
	// something, whatever the command that takes its words: `echo
	// "$(sh greet.sh | grep -q hi || kill $$)"`, a here-document body to
	// `:` or cat with `$(./check.sh || exit 1)` (round 48). Its lines are
	// live unless the statement itself stands where nothing runs (its
	// first line is dead: the body of an `if false`).
	syntax.Walk(f, func(n syntax.Node) bool {
		s, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		if _, call := s.Cmd.(*syntax.CallExpr); !call || dead[int(s.Pos().Line())] || !runsSubst(s) {
			return true
		}
		for l := int(s.Pos().Line()); l <= stmtLastLine(s); l++ {
			delete(dead, l)
		}
		return false
	})
	// A here-document cat prints is output, not commands; the reader may
	// be a check (`want=$(cat <<EOF`, `cat <<EOF | diff - out`, a
	// function's output captured). Only a statement of the top level
	// prints to the terminal for sure.
	top := map[*syntax.Stmt]bool{}
	for _, s := range f.Stmts {
		top[s] = true
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if s, ok := n.(*syntax.Stmt); ok && !top[s] && printsHdoc(s) {
			for _, r := range s.Redirs {
				if r.Hdoc != nil {
					for l := int(r.Hdoc.Pos().Line()); l <= int(r.Hdoc.End().Line()); l++ {
						delete(dead, l)
					}
				}
			}
		}
		return true
	})
	for l := range noopStmtLines(f, was, top) {
		dead[l] = true
	}
	if fns := uncalledFuncLines(f, lines); len(fns) > 0 && callsOwnFunction(f, fns) && exitsAtTop(f) {
		for l := range fns {
			dead[l] = true
		}
	}
	if len(dead) == 0 {
		return nil
	}
	out := map[string]int{}
	for l := range dead {
		if l >= 1 && l <= len(lines) {
			if k := strings.TrimSpace(lines[l-1]); k != "" {
				out[k]++
			}
		}
	}
	return out
}

// callsOwnFunction: the top level of f calls a function f defines that is
// not among the uncalled ones' lines (the script uses its own helpers, so
// it is not a library whose functions others call).
func callsOwnFunction(f *syntax.File, uncalled map[int]bool) bool {
	defined := map[string]bool{}
	for _, s := range f.Stmts {
		if d, ok := s.Cmd.(*syntax.FuncDecl); ok && d.Name != nil && !uncalled[int(s.Pos().Line())] {
			defined[d.Name.Value] = true
		}
	}
	found := false
	for _, s := range f.Stmts {
		if _, ok := s.Cmd.(*syntax.FuncDecl); ok {
			continue
		}
		syntax.Walk(s, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
				if name, lit := literalWord(c.Args[0]); lit && defined[name] {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// noopStmtLines lists the lines of statements that do nothing whole, each
// standing on lines of its own: an if whose every condition is a constant
// false and that has no else, a loop whose body never runs, `false && X`
// or `true || X`, and a here-document or quoted word given to `:`,
// `true`, or printed by cat, echo or printf to the terminal, with no
// arithmetic or assigning expansion in it (those change the shell's
// variables; a command substitution runs in a subshell whose status
// nothing reads).
func noopStmtLines(f *syntax.File, src string, top map[*syntax.Stmt]bool) map[int]bool {
	out := map[int]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		s, ok := n.(*syntax.Stmt)
		if !ok || !noopStmt(s) || (!top[s] && printsHdoc(s)) {
			return true
		}
		from, to := int(s.Pos().Line()), int(s.End().Line())
		for _, r := range s.Redirs {
			if r.Hdoc != nil {
				to = max(to, int(r.Hdoc.End().Line()))
			}
		}
		if !aloneOnLines(src, s) {
			return true
		}
		for l := from; l <= to; l++ {
			out[l] = true
		}
		return false
	})
	return out
}

func noopStmt(s *syntax.Stmt) bool {
	if s.Background || s.Coprocess || s.Negated {
		return false
	}
	switch x := s.Cmd.(type) {
	case *syntax.IfClause:
		if len(s.Redirs) > 0 {
			return false
		}
		for c := x; c != nil; c = c.Else {
			if !c.ThenPos.IsValid() { // an else
				return false
			}
			if v, known := constStatus(c.Cond); !known || v {
				return false
			}
		}
		return true
	case *syntax.WhileClause:
		v, known := constStatus(x.Cond)
		return known && v == x.Until && len(s.Redirs) == 0
	case *syntax.BinaryCmd:
		v, known := constStatus([]*syntax.Stmt{x.X})
		return known && ((x.Op == syntax.AndStmt && !v) || (x.Op == syntax.OrStmt && v)) && len(s.Redirs) == 0
	case *syntax.CallExpr:
		if !hdocNotRun(x, s.Redirs) {
			return false
		}
		for _, r := range s.Redirs {
			if r.Hdoc == nil && toStderr(r) && !substitutes(s) {
				continue // a banner on stderr (stderrbanner.go)
			}
			if r.Hdoc == nil && r.Op != syntax.RdrOut && r.Op != syntax.AppOut && r.Op != syntax.RdrAll && r.Op != syntax.AppAll {
				return false // a here-string or an input file: not the forms hdocNotRun reads
			}
		}
		return !setsVariables(s) && !runsSubst(s)
	}
	return false
}

// stmtLastLine is the last line of s, its here-documents' bodies and
// terminators included.
func stmtLastLine(s *syntax.Stmt) int {
	to := int(s.End().Line())
	for _, r := range s.Redirs {
		if r.Hdoc != nil {
			to = max(to, int(r.Hdoc.End().Line()))
		}
	}
	return to
}

// runsSubst: s holds a command substitution (`$(...)`, backquotes) or a
// process substitution that runs more than a command that only reads
// the system's state (`$(uname)`, `$(date)`). A quoted here-document's
// body does not expand: the parser leaves it literal.
func runsSubst(s *syntax.Stmt) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ProcSubst:
			found = true
		case *syntax.CmdSubst:
			if !infoSubst(x.Stmts) {
				found = true
			}
			return false
		}
		return !found
	})
	return found
}

// infoCommands only print the system's state: a substitution of one of
// them, with plain words, runs no check (a banner's `running on
// $(uname)`).
var infoCommands = map[string]bool{
	"uname": true, "date": true, "hostname": true, "whoami": true, "id": true,
	"pwd": true, "basename": true, "dirname": true, "nproc": true, "arch": true, "logname": true,
}

// infoSubst: stmts are one simple command of infoCommands whose words
// hold no expansion that runs or assigns anything.
func infoSubst(stmts []*syntax.Stmt) bool {
	if len(stmts) != 1 {
		return false
	}
	s := stmts[0]
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || len(c.Assigns) > 0 || len(s.Redirs) > 0 || s.Background || s.Coprocess || s.Negated {
		return false
	}
	if name, lit := literalWord(c.Args[0]); !lit || !infoCommands[name] {
		return false
	}
	plain := true
	for _, a := range c.Args[1:] {
		syntax.Walk(a, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp:
				plain = false
			case *syntax.ParamExp:
				if x.Exp != nil && x.Exp.Op != syntax.DefaultUnset && x.Exp.Op != syntax.DefaultUnsetOrNull {
					plain = false
				}
			}
			return plain
		})
	}
	return plain
}

// setsVariables: s holds arithmetic or a parameter expansion that
// assigns or exits (`$((fail=0))`, `${x:=1}`, `${x:?}`): parts that act
// even in a word nothing else runs.
func setsVariables(s *syntax.Stmt) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false // a subshell: its assignments stay there
		case *syntax.ArithmExp:
			found = true
		case *syntax.ParamExp:
			if x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull || x.Exp.Op == syntax.ErrorUnset || x.Exp.Op == syntax.ErrorUnsetOrNull) {
				found = true
			}
		}
		return !found
	})
	return found
}

// aloneOnLines: s begins its first line (after blanks) and nothing but a
// comment or `;` follows it on its last.
func aloneOnLines(src string, s *syntax.Stmt) bool {
	start, end := int(s.Pos().Offset()), int(s.End().Offset())
	if start > len(src) || end > len(src) {
		return false
	}
	ls := strings.LastIndexByte(src[:start], '\n') + 1
	if strings.TrimSpace(src[ls:start]) != "" {
		return false
	}
	rest := src[end:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	rest = strings.TrimSpace(rest)
	return rest == "" || rest == ";" || strings.HasPrefix(rest, "#")
}

// printsHdoc: s is cat, echo or printf fed a here-document.
func printsHdoc(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	switch name, _ := literalWord(c.Args[0]); name {
	case "cat", "echo", "printf":
		for _, r := range s.Redirs {
			if r.Hdoc != nil {
				return true
			}
		}
	}
	return false
}

// exitsAtTop: f's top level (not a function's body) runs exit: a script
// meant to be run, not sourced.
func exitsAtTop(f *syntax.File) bool {
	found := false
	for _, s := range f.Stmts {
		if _, ok := s.Cmd.(*syntax.FuncDecl); ok {
			continue
		}
		syntax.Walk(s, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.FuncDecl, *syntax.CmdSubst, *syntax.Subshell:
				return false
			case *syntax.CallExpr:
				if len(x.Args) > 0 {
					if name, _ := literalWord(x.Args[0]); name == "exit" {
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}
