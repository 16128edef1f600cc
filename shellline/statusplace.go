package shellline

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A line that always succeeds (a log line, logonly.go; an echo, `:`, an
// assignment) added where a check's status was read takes that status: put
// between the check and the `[ $? -ne 0 ]` after it, as the last command
// of an if's or a loop's condition, of a function whose status is read,
// or of the script, it turns a failing check into a pass (round 49,
// helper 308's rows).
//
// A first rule (02a2ed45, reverted) matched lines by text and read every
// file as one script, so a check added at the end of a just, task, mise or
// pixi recipe or a make target was refused: each of their lines runs in a
// shell of its own and is checked alone. This one is read only where the
// text runs whole (Script.RunsWhole: a shell script file), on the parsed
// statements (a line inside an && or || list is no statement of a list
// and takes no status), and only where the start read the same check's
// status the same way: the line was put between the check and its reader.

// RunsWhole marks the script as one shell program (a script file), not a
// recipe whose lines each run in a shell of their own and are checked
// alone: a line added where a status is read is judged by where it
// stands (statusTaken).
func (s *Script) RunsWhole() *Script {
	s.whole = true
	return s
}

// statusList is a list of statements and what reads the status of its
// last one: "cond" (an if's or a loop's condition), "andor" (an && or
// || after it), "$?" (the statement after it), "fn NAME" (a function's
// body), "end" (the script's top level) or "".
type statusList struct {
	stmts  []*syntax.Stmt
	reader string
}

// statusLists lists f's statement lists with their readers. An if, a
// loop, a case, a { } group or a ( ) subshell passes on the status of
// the last statement its branch ran, so each branch's list has the
// reader of the compound statement (round 50, helper 312's rows).
func statusLists(f *syntax.File) []statusList {
	readers := map[syntax.Node]string{} // a compound command: its reader
	var out []statusList
	add := func(ss []*syntax.Stmt, reader string) {
		out = append(out, statusList{ss, reader})
		for k, st := range ss {
			r := ""
			switch {
			case k+1 < len(ss) && ReadsStatus(ss[k+1]):
				r = "$?"
			case k+1 < len(ss) && bareReturn(ss[k+1]):
				r = returnReader(f, ss[k+1])
			case k == len(ss)-1:
				r = reader
			}
			markReader(readers, st, r)
		}
	}
	add(f.Stmts, "end")
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FuncDecl:
			if x.Name != nil && x.Body != nil && x.Body.Cmd != nil {
				readers[x.Body.Cmd] = "fn " + x.Name.Value
			}
		case *syntax.IfClause:
			add(x.Cond, "cond")
			add(x.Then, readers[x])
			if x.Else != nil {
				readers[x.Else] = readers[x]
			}
		case *syntax.WhileClause:
			add(x.Cond, "cond")
			add(x.Do, readers[x])
		case *syntax.ForClause:
			add(x.Do, readers[x])
		case *syntax.CaseClause:
			for _, it := range x.Items {
				add(it.Stmts, readers[x])
			}
		case *syntax.Block:
			add(x.Stmts, readers[x])
		case *syntax.Subshell:
			add(x.Stmts, readers[x])
		}
		return true
	})
	return out
}

// markReader notes r as the reader of st's command: the left side of an
// && or || is read by it, the right side (and a pipeline's last
// command) passes the status on; a negated or background statement's
// status is no check's.
func markReader(readers map[syntax.Node]string, st *syntax.Stmt, r string) {
	if st == nil || st.Cmd == nil {
		return
	}
	if st.Negated || st.Background || st.Coprocess {
		r = ""
	}
	x, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok {
		readers[st.Cmd] = r
		return
	}
	if x.Op == syntax.AndStmt || x.Op == syntax.OrStmt {
		markReader(readers, x.X, "andor")
	}
	markReader(readers, x.Y, r)
}

// statusSites: the printed statements whose status the script reads,
// each with how ("$?" the next statement, or a list's reader).
func statusSites(f *syntax.File) map[string]bool {
	out := map[string]bool{}
	for _, l := range statusLists(f) {
		for k, st := range l.stmts {
			switch {
			case k+1 < len(l.stmts) && ReadsStatus(l.stmts[k+1]):
				out[printStmt(st)+"\x00$?"] = true
			case k+1 < len(l.stmts) && bareReturn(l.stmts[k+1]):
				if r := returnReader(f, l.stmts[k+1]); r != "" {
					out[printStmt(st)+"\x00"+r] = true
				}
			case k == len(l.stmts)-1 && l.reader != "":
				out[printStmt(st)+"\x00"+l.reader] = true
			}
		}
	}
	return out
}

// statusTaken says how a statement that starts on line (1-based) of the
// script takes the status of a check the start read, "" when none does.
func (s *Script) statusTaken(line int, base string) string {
	if !s.whole || s.file == nil {
		return ""
	}
	var was map[string]bool
	start := shebangErrexit(s.text)
	errexit := setsErrexit(s.file) || start
	var unread, trapOnly map[string]bool
	fns := zeroFuncs(s.file)
	zero := func(st *syntax.Stmt) bool { return alwaysZero(st) || zeroCall(st, fns) }
	for _, l := range statusLists(s.file) {
		for k, st := range l.stmts {
			if int(st.Pos().Line()) != line || !zero(st) {
				continue
			}
			// The check before it and the reader after it, past other
			// lines that always succeed.
			j := k - 1
			for j >= 0 && zero(l.stmts[j]) && !ReadsStatus(l.stmts[j]) {
				j--
			}
			m := k + 1
			for m < len(l.stmts) && zero(l.stmts[m]) && !ReadsStatus(l.stmts[m]) {
				m++
			}
			if j < 0 {
				continue
			}
			prev := l.stmts[j]
			reader, what := "", ""
			switch {
			case m < len(l.stmts) && ReadsStatus(l.stmts[m]):
				reader, what = "$?", "the `$?` the next line reads"
			case m < len(l.stmts) && bareReturn(l.stmts[m]) && returnReader(s.file, l.stmts[m]) != "":
				reader = returnReader(s.file, l.stmts[m])
				what = "the status of " + strings.TrimPrefix(reader, "fn ") + " (a bare return)"
			case m == len(l.stmts) && l.reader == "$?":
				reader, what = l.reader, "the `$?` read after it"
			case m == len(l.stmts) && l.reader == "cond":
				reader, what = l.reader, "the condition's status"
			case m == len(l.stmts) && l.reader == "andor":
				reader, what = l.reader, "the status the && or || after it reads"
			case m == len(l.stmts) && strings.HasPrefix(l.reader, "fn "):
				reader, what = l.reader, "the status of "+strings.TrimPrefix(l.reader, "fn ")
			case m == len(l.stmts) && l.reader == "end":
				reader, what = l.reader, "the script's exit status"
			default:
				continue
			}
			switch reader {
			case "$?", "end":
				// Under set -e a failing check ends the script first,
				// unless errexit passes it over (`! check`, `check &&
				// echo PASS`) or set +e turned it off before.
				if errexitAtStmt(s.file, l.stmts, j, start, errexit) && !errexitMissesCheck(prev) || !canFail(prev) || reader == "end" && !endsInCheck(prev) {
					continue
				}
			case "cond", "andor":
				// errexit passes over a condition and an && or ||'s left
				// side.
				if !canFail(prev) {
					continue
				}
			default:
				if unread == nil {
					funcs := map[string]bool{}
					syntax.Walk(s.file, func(n syntax.Node) bool {
						if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil {
							funcs[fd.Name.Value] = true
						}
						return true
					})
					unread = unreadStatusFns(s.file, funcs, nil, errexit)
				}
				name := strings.TrimPrefix(reader, "fn ")
				if unread[name] || !endsInCheck(prev) {
					continue
				}
				// A trap handler's status is no one's; under set -e a
				// function called plainly ends the script at a failing
				// check (statusfns.go).
				if trapOnly == nil {
					trapOnly = trapOnlyFns(s.file)
				}
				if trapOnly[name] || errexitEnds(prev) && errexitFnUnread(s.file, name, fnStmtsBefore(s.file, name, l.stmts, j), -1, start) {
					continue
				}
			}
			if was == nil {
				bf, err := syntax.NewParser().Parse(strings.NewReader(base), "")
				if err != nil {
					return ""
				}
				was = statusSites(bf)
			}
			if p := printStmt(prev); p != "" && was[p+"\x00"+reader] {
				return "it stands between " + quoteLine(printStmt(prev)) + " and " + what + ", so it takes that status: a failing check reads as passing"
			}
		}
	}
	return ""
}

// endsInCheck: st is a check (isCheck), or an if, loop, case, { } group
// or ( ) subshell whose status may be that of a check its branch ends
// in (round 51: echo done after a last loop whose body ends in the
// check took the script's status).
func endsInCheck(st *syntax.Stmt) bool {
	if st == nil || isCheck(st) {
		return st != nil
	}
	if st.Background || st.Coprocess {
		return false
	}
	hit, _ := anyBranchLast(st.Cmd, endsInCheck)
	return hit
}

// anyBranchLast reports whether pred holds for the last statement of a
// statement list whose status is cmd's: a { } group's, a ( ) subshell's,
// an if's branch, a loop's body, a case item's. compound is false when
// cmd is none of them.
func anyBranchLast(cmd syntax.Command, pred func(*syntax.Stmt) bool) (hit, compound bool) {
	last := func(ss []*syntax.Stmt) bool { return len(ss) > 0 && pred(ss[len(ss)-1]) }
	switch x := cmd.(type) {
	case *syntax.Block:
		return last(x.Stmts), true
	case *syntax.Subshell:
		return last(x.Stmts), true
	case *syntax.IfClause:
		for e := x; e != nil; e = e.Else {
			if last(e.Then) {
				return true, true
			}
		}
		return false, true
	case *syntax.WhileClause:
		return last(x.Do), true
	case *syntax.ForClause:
		return last(x.Do), true
	case *syntax.CaseClause:
		for _, it := range x.Items {
			if last(it.Stmts) {
				return true, true
			}
		}
		return false, true
	}
	return false, false
}

// bareReturn: st is `return` with no status: the function returns the
// status of the statement before it, as at its end (round 51: a log line
// put before it turned a failing check into a pass).
func bareReturn(st *syntax.Stmt) bool {
	if st == nil || st.Negated || st.Background || st.Coprocess {
		return false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	return ok && len(call.Assigns) == 0 && len(call.Args) == 1 && wordLit(call.Args[0]) == "return"
}

// returnReader: "fn NAME" for the innermost named function whose body
// holds st, "" when none does (or a ( ) subshell between them, where
// return ends only the subshell).
func returnReader(f *syntax.File, st *syntax.Stmt) string {
	at := st.Pos().Offset()
	name := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			return true
		}
		if n.Pos().Offset() > at || n.End().Offset() <= at {
			return false
		}
		switch x := n.(type) {
		case *syntax.FuncDecl:
			name = ""
			if x.Name != nil {
				name = "fn " + x.Name.Value
			}
		case *syntax.Subshell:
			name = ""
		}
		return true
	})
	return name
}

// ReadsStatus: the statement reads `$?` (or bash's PIPESTATUS); a
// function declared in it does not count, its body runs later.
func ReadsStatus(st *syntax.Stmt) bool {
	found := false
	syntax.Walk(st, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FuncDecl:
			return false
		case *syntax.ParamExp:
			found = found || x.Param != nil && statusParam(x.Param.Value)
		}
		return !found
	})
	return found
}

// statusParam: the parameter holds the last status: `$?`, or bash's
// PIPESTATUS (`${PIPESTATUS[0]}`, `${PIPESTATUS[@]}`), the last
// pipeline's, which a line put before it replaces.
func statusParam(name string) bool {
	return name == "?" || name == "PIPESTATUS"
}

// canFail: the statement's status may be non-zero without ending the
// script (`[ -f x ] || exit 1`, `fi` after assignments, an exit: no).
func canFail(st *syntax.Stmt) bool {
	if st == nil {
		return false
	}
	if st.Negated {
		return true
	}
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) == 0 {
			subst := false
			syntax.Walk(x, func(n syntax.Node) bool {
				_, ok := n.(*syntax.CmdSubst)
				subst = subst || ok
				return !subst
			})
			return subst
		}
		switch wordLit(x.Args[0]) {
		case "exit", "return", "echo", "printf", ":", "true", "set", "shift", "local", "export", "readonly",
			"declare", "typeset", "unset", "trap", "break", "continue", "cd", "pushd", "popd":
			return false
		}
		return true
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.OrStmt:
			return canFail(x.Y)
		case syntax.AndStmt:
			return canFail(x.X) || canFail(x.Y)
		default:
			return canFail(x.Y)
		}
	case *syntax.DeclClause, *syntax.FuncDecl:
		return false
	}
	if hit, compound := anyBranchLast(st.Cmd, canFail); compound {
		return hit
	}
	return true
}

// isCheck: the statement is a check whose status is what it proves: a
// test, a negation, grep, diff or cmp, awk with an exit 1, or a test
// suite's run.
func isCheck(st *syntax.Stmt) bool {
	if st == nil {
		return false
	}
	if st.Negated {
		return true
	}
	switch x := st.Cmd.(type) {
	case *syntax.TestClause:
		return true
	case *syntax.CallExpr:
		if len(x.Args) == 0 {
			return false
		}
		words := []string{wordLit(x.Args[0])} // `[` is no Literal (a glob)
		for _, w := range x.Args[1:] {
			l, _ := Literal(w)
			words = append(words, l)
		}
		switch path.Base(words[0]) {
		case "grep", "egrep", "fgrep", "diff", "cmp":
			return true
		}
		return shellTest(words[0]) || callRunsTests(words) || awkChecks(words)
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.AndStmt:
			return isCheck(x.X) || isCheck(x.Y)
		case syntax.OrStmt:
			return false
		default:
			return isCheck(x.Y)
		}
	}
	return false
}

// shebangErrexit: the script's #! line passes -e to its shell.
func shebangErrexit(text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(first, "#!") {
		return false
	}
	for _, f := range strings.Fields(first)[1:] {
		if strings.HasPrefix(f, "-") && !strings.HasPrefix(f, "--") && strings.Contains(f, "e") {
			return true
		}
	}
	return false
}

// printStmt is a statement as the printer writes it, one line.
func printStmt(st *syntax.Stmt) string {
	var b strings.Builder
	if err := syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, st); err != nil {
		return ""
	}
	return strings.TrimSpace(b.String())
}

// quoteLine is a statement shortened and quoted for a message.
func quoteLine(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return "`" + s + "`"
}
