package testrun

import (
	"path"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
	"mvdan.cc/sh/v3/syntax"
)

// runnerSearchWarns reads a line; what the line's pgrep answers can
// still reach the script's behaviour past it (round 50, helper 312): a
// `return 1` the function's caller branches on, an `exit 3` in a ( )
// whose $? the next line reads, pids kept in a file, the status an
// `&& echo warn >&2` leaves for the next line's $? or the script's end.
// searchAnswerLines reads the script as a syntax tree for those.

// searchAnswerLines are the lines (trimmed, comment cut as harnessDetect
// keeps them) of shell text src holding a pgrep or pidof whose answer
// goes on past a warning, a kill or a failure: its pids kept (a file, a
// $( ), a pipe into anything but a real kill), or its status, or a
// return or exit it picks, read by a caller, a $?, a branch or the
// script's end. nil when src does not parse.
func searchAnswerLines(src []byte) map[string]bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(string(src)), "")
	if err != nil {
		return nil
	}
	a := &answerFlow{file: f, parent: map[syntax.Node]syntax.Node{}, pipefail: strings.Contains(string(src), "pipefail")}
	var stack []syntax.Node
	var searches []*syntax.Stmt
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			a.parent[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		if c, ok := n.(*syntax.CallExpr); ok {
			if name := callName(c); name == "pgrep" || name == "pidof" {
				if s, ok := a.parent[c].(*syntax.Stmt); ok {
					searches = append(searches, s)
				}
			}
			if name, ok := wordLit(c, 0); ok {
				a.calls = append(a.calls, callSite{name, c})
			}
		}
		return true
	})
	lines := strings.Split(string(src), "\n")
	out := map[string]bool{}
	for _, s := range searches {
		if l := int(s.Pos().Line()); l >= 1 && l <= len(lines) && a.answerGoesOn(s) {
			out[codePart(strings.TrimSpace(lines[l-1]), true)] = true
		}
	}
	return out
}

type callSite struct {
	name string
	call *syntax.CallExpr
}

type answerFlow struct {
	file     *syntax.File
	parent   map[syntax.Node]syntax.Node
	calls    []callSite
	pipefail bool
	seen     map[string]bool // functions whose callers' status is being read
	outSeen  map[string]bool // functions whose callers' output is being read
	exitSeen map[string]bool // functions whose callers' exits are being read
}

// wordLit is c's i-th word when it is a plain literal.
func wordLit(c *syntax.CallExpr, i int) (string, bool) {
	if i >= len(c.Args) {
		return "", false
	}
	return literalWord(c.Args[i])
}

// callName is the command c runs, by base name, past command/sudo/exec.
func callName(c *syntax.CallExpr) string {
	for i := range c.Args {
		w, ok := wordLit(c, i)
		if !ok {
			return ""
		}
		switch w {
		case "command", "sudo", "exec", "builtin":
			continue
		}
		return path.Base(w)
	}
	return ""
}

// stmtOf is the nearest statement around n (n itself excluded).
func (a *answerFlow) stmtOf(n syntax.Node) *syntax.Stmt {
	for p := a.parent[n]; p != nil; p = a.parent[p] {
		if s, ok := p.(*syntax.Stmt); ok {
			return s
		}
	}
	return nil
}

// answerGoesOn reports pgrep statement s as one whose answer reaches
// more than the warning, kill or failure harnessDetect's line check let
// through.
func (a *answerFlow) answerGoesOn(s *syntax.Stmt) bool {
	// `[ -n "$(pgrep ...)" ]`: the pids go no further than the test,
	// whose status is the answer.
	if t := a.substTested(s); t != nil {
		s = t
	}
	if a.pidsKept(s) {
		return true
	}
	// `pgrep ... | xargs kill`: the pipeline's status carries the answer
	// (xargs fails when kill gets no pid).
	carrier := s
	if p, ok := a.parent[s].(*syntax.BinaryCmd); ok && (p.Op == syntax.Pipe || p.Op == syntax.PipeAll) && p.X == s {
		if carrier = a.stmtOf(p); carrier == nil {
			return true
		}
	}
	// `pids=$(pgrep ...)`: the assignment's status is pgrep's.
	if cs, ok := a.parent[carrier].(*syntax.CmdSubst); ok && len(cs.Stmts) > 0 && cs.Stmts[len(cs.Stmts)-1] == carrier {
		if st := a.stmtOf(cs); st != nil {
			if c, ok := st.Cmd.(*syntax.CallExpr); ok && len(c.Args) == 0 {
				carrier = st
			}
		}
	}
	if carrier.Negated {
		return true
	}
	switch p := a.parent[carrier].(type) {
	case *syntax.IfClause:
		if n := len(p.Cond); n > 0 && p.Cond[n-1] == carrier {
			// The line check let only warnings, kills and failures into
			// the branch: the if's own status is 0 either way, and what
			// is left is where its exits and returns go.
			return a.escapes(p.Then)
		}
	case *syntax.BinaryCmd:
		if p.Op == syntax.AndStmt && p.X == carrier {
			if a.escapes([]*syntax.Stmt{p.Y}) {
				return true
			}
			if ends(p.Y) && !endsReturn(p.Y) {
				// The script exits: only the search that found nothing
				// goes on, its status the same wherever it is read. A
				// return goes on too, to the caller, beside pgrep's 1.
				return false
			}
			// `&& echo warn >&2` leaves 0 when the runner runs and
			// pgrep's 1 when not.
			return a.statusRead(a.stmtOf(p))
		}
	}
	return a.statusRead(carrier)
}

// ends reports s as one whose last statement is exit or return.
func ends(s *syntax.Stmt) bool {
	name := lastCall(s)
	return name == "exit" || name == "return"
}

// endsReturn reports s as one whose last statement is return.
func endsReturn(s *syntax.Stmt) bool { return lastCall(s) == "return" }

// lastCall is the command s runs last, through { }.
func lastCall(s *syntax.Stmt) string {
	switch c := s.Cmd.(type) {
	case *syntax.Block:
		if len(c.Stmts) > 0 {
			return lastCall(c.Stmts[len(c.Stmts)-1])
		}
	case *syntax.CallExpr:
		name, _ := wordLit(c, 0)
		return name
	}
	return ""
}

// pidsKept reports pgrep statement s's output kept: written to a file,
// taken by $( ) or <( ), or piped to anything but xargs kill with a
// real signal. The terminal, stderr and /dev/null keep nothing.
func (a *answerFlow) pidsKept(s *syntax.Stmt) bool {
	if to, ok := stdoutTo(s); ok {
		return !quietOut(to)
	}
	var n syntax.Node = s
	for {
		p := a.parent[n]
		switch p := p.(type) {
		case nil, *syntax.File:
			return false
		case *syntax.FuncDecl:
			// The function's output: where each call's goes.
			if p.Name == nil || a.outSeen[p.Name.Value] {
				return false
			}
			if a.outSeen == nil {
				a.outSeen = map[string]bool{}
			}
			a.outSeen[p.Name.Value] = true
			defer delete(a.outSeen, p.Name.Value)
			for _, c := range a.calls {
				if st, ok := a.parent[c.call].(*syntax.Stmt); ok && c.name == p.Name.Value && a.pidsKept(st) {
					return true
				}
			}
			return false
		case *syntax.Stmt:
			if to, ok := stdoutTo(p); ok {
				return !quietOut(to)
			}
		case *syntax.BinaryCmd:
			if (p.Op == syntax.Pipe || p.Op == syntax.PipeAll) && p.X == n {
				t := "| " + printNode(p.Y)
				return !killPipeRE.MatchString(t) || noSignalRE.MatchString(t)
			}
		case *syntax.CmdSubst:
			return !a.substKilled(p)
		case *syntax.ProcSubst:
			return true
		}
		n = p
	}
}

// quietOut reports a stdout target that keeps nothing the script reads.
func quietOut(to string) bool {
	switch to {
	case "/dev/null", "/dev/stderr", "/dev/tty", "&2", "&-":
		return true
	}
	return false
}

// stdoutTo is where s's last redirection of fd 1 points ("&2" for >&2).
func stdoutTo(s *syntax.Stmt) (string, bool) {
	to, found := "", false
	for _, r := range s.Redirs {
		if r.N != nil && r.N.Value != "1" {
			continue
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll:
			to, _ = literalWord(r.Word)
			if to == "" {
				to = printNode(r.Word)
			}
			found = true
		case syntax.DplOut:
			w, _ := literalWord(r.Word)
			if w == "1" {
				continue
			}
			to, found = "&"+w, true
		}
	}
	return to, found
}

// substKilled reports $( pgrep ) taken only by a real kill: an argument
// of kill, or a variable assigned alone whose every use is one.
func (a *answerFlow) substKilled(cs *syntax.CmdSubst) bool {
	var n syntax.Node = cs
	for {
		p := a.parent[n]
		switch p := p.(type) {
		case *syntax.CallExpr:
			return a.realKill(p)
		case *syntax.Assign:
			c, ok := a.parent[p].(*syntax.CallExpr)
			if !ok || len(c.Args) > 0 || len(c.Assigns) != 1 || p.Name == nil {
				return false
			}
			kept := true
			syntax.Walk(a.file, func(m syntax.Node) bool {
				if pe, ok := m.(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == p.Name.Value {
					killed := false
					for q := a.parent[pe]; q != nil; q = a.parent[q] {
						if kc, ok := q.(*syntax.CallExpr); ok {
							killed = a.realKill(kc)
							break
						}
					}
					kept = kept && killed
				}
				return kept
			})
			return kept
		case *syntax.Word, *syntax.DblQuoted:
			n = p
		default:
			return false
		}
	}
}

// substTested is the statement of `[ -n "$(s)" ]` (or -z, or the word
// alone, or test) when s is all its $( ) holds; nil otherwise.
func (a *answerFlow) substTested(s *syntax.Stmt) *syntax.Stmt {
	cs, ok := a.parent[s].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return nil
	}
	var n syntax.Node = cs
	for {
		switch p := a.parent[n].(type) {
		case *syntax.Word, *syntax.DblQuoted:
			n = p
			continue
		case *syntax.CallExpr:
			if name := callName(p); (name != "[" && name != "test") || len(p.Args) > 4 {
				return nil
			}
			for i, w := range p.Args {
				if w == n {
					continue
				}
				switch l, _ := wordLit(p, i); l {
				case "[", "test", "]", "-n", "-z":
				default:
					return nil
				}
			}
			st, _ := a.parent[p].(*syntax.Stmt)
			return st
		}
		return nil
	}
}

// realKill reports c as kill or pkill sending a signal.
func (a *answerFlow) realKill(c *syntax.CallExpr) bool {
	name := callName(c)
	return (name == "kill" || name == "pkill") && !noSignalRE.MatchString(printNode(c))
}

// escapes reports an exit or return in stmts whose status is read where
// it lands: a ( ) or a pipe's last part whose status is read, a function
// whose caller reads its status. An exit of the script is its failure;
// `return 0` or a bare return ending its function leaves the same 0.
func (a *answerFlow) escapes(stmts []*syntax.Stmt) bool {
	found := false
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			if _, ok := n.(*syntax.FuncDecl); ok || found {
				return false
			}
			if c, ok := n.(*syntax.CallExpr); ok {
				name, _ := wordLit(c, 0)
				if name != "exit" && name != "return" {
					return true
				}
				if st, ok := a.parent[c].(*syntax.Stmt); ok {
					v, _ := wordLit(c, 1)
					found = a.exitRead(st, name == "return", v == "" || v == "0")
				}
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// exitRead reports exit or return statement s (zero: with status 0)
// landing where its status is read, or a zero return that skips the rest
// of its function.
func (a *answerFlow) exitRead(s *syntax.Stmt, ret, zero bool) bool {
	last := true // s ends each list on the way up
	var n syntax.Node = s
	for {
		p := a.parent[n]
		if st, ok := n.(*syntax.Stmt); ok && !lastIn(p, st) {
			last = false
		}
		switch p := p.(type) {
		case nil, *syntax.File:
			// The script's exit: a failure. A zero one ends it early.
			return zero
		case *syntax.Subshell, *syntax.CmdSubst:
			if zero {
				return !last // skips the rest of the ( )
			}
			return a.statusRead(a.stmtOf(p))
		case *syntax.ProcSubst:
			return false
		case *syntax.BinaryCmd:
			if p.Op == syntax.Pipe || p.Op == syntax.PipeAll {
				if p.X == n && !a.pipefail {
					return false
				}
				return a.statusRead(a.stmtOf(p))
			}
			last = last && p.Y == n
		case *syntax.FuncDecl:
			if ret {
				if zero {
					return !last // skips the rest of the function
				}
				return a.callsRead(p)
			}
			// An exit ends what runs the call: a ( ) or $( ) there.
			if p.Name == nil || a.exitSeen[p.Name.Value] {
				return false
			}
			if a.exitSeen == nil {
				a.exitSeen = map[string]bool{}
			}
			a.exitSeen[p.Name.Value] = true
			defer delete(a.exitSeen, p.Name.Value)
			for _, c := range a.calls {
				if st, ok := a.parent[c.call].(*syntax.Stmt); ok && c.name == p.Name.Value && a.exitRead(st, false, zero) {
					return true
				}
			}
			return false
		}
		n = p
	}
}

// lastIn reports s as the last statement of p's list holding it, or as
// p's only statement.
func lastIn(p syntax.Node, s *syntax.Stmt) bool {
	for _, l := range stmtLists(p) {
		for i, x := range l {
			if x == s {
				return i == len(l)-1
			}
		}
	}
	return true
}

// stmtLists are the statement lists node p holds.
func stmtLists(p syntax.Node) [][]*syntax.Stmt {
	switch p := p.(type) {
	case *syntax.File:
		return [][]*syntax.Stmt{p.Stmts}
	case *syntax.Block:
		return [][]*syntax.Stmt{p.Stmts}
	case *syntax.Subshell:
		return [][]*syntax.Stmt{p.Stmts}
	case *syntax.CmdSubst:
		return [][]*syntax.Stmt{p.Stmts}
	case *syntax.ProcSubst:
		return [][]*syntax.Stmt{p.Stmts}
	case *syntax.IfClause:
		return [][]*syntax.Stmt{p.Cond, p.Then}
	case *syntax.WhileClause:
		return [][]*syntax.Stmt{p.Cond, p.Do}
	case *syntax.ForClause:
		return [][]*syntax.Stmt{p.Do}
	case *syntax.CaseItem:
		return [][]*syntax.Stmt{p.Stmts}
	}
	return nil
}

// callsRead reports a call of function fd whose status is read.
func (a *answerFlow) callsRead(fd *syntax.FuncDecl) bool {
	if fd.Name == nil {
		return true
	}
	name := fd.Name.Value
	if a.seen[name] {
		return false
	}
	if a.seen == nil {
		a.seen = map[string]bool{}
	}
	a.seen[name] = true
	defer delete(a.seen, name)
	for _, c := range a.calls {
		if c.name != name {
			continue
		}
		if st, ok := a.parent[c.call].(*syntax.Stmt); ok && a.statusRead(st) {
			return true
		}
	}
	return false
}

// statusRead reports statement s's exit status read: by a branch (if,
// while, && or ||), the next statement's $?, a function's caller, a
// ( ) or $( ) whose status is read, or the script's end.
func (a *answerFlow) statusRead(s *syntax.Stmt) bool {
	if s == nil {
		return true
	}
	if s.Background {
		return false
	}
	p := a.parent[s]
	switch p := p.(type) {
	case *syntax.BinaryCmd:
		if (p.Op == syntax.Pipe || p.Op == syntax.PipeAll) && p.X == s {
			return a.pipefail && a.statusRead(a.stmtOf(p))
		}
		if p.X == s {
			// `check || exit 1`: read only to fail.
			return p.Op != syntax.OrStmt || !a.failsOnly(p.Y)
		}
		return a.statusRead(a.stmtOf(p))
	case *syntax.FuncDecl:
		return a.callsRead(p)
	case *syntax.ProcSubst:
		return false
	case *syntax.IfClause:
		if n := len(p.Cond); n > 0 && p.Cond[n-1] == s {
			// `if ! check; then warn; exit 1; fi`: read only to fail.
			return !s.Negated || p.Else != nil || !a.failsOnly(&syntax.Stmt{Cmd: &syntax.Block{Stmts: p.Then}})
		}
	case *syntax.WhileClause:
		if n := len(p.Cond); n > 0 && p.Cond[n-1] == s {
			return true
		}
	}
	for _, l := range stmtLists(p) {
		for i, x := range l {
			if x != s {
				continue
			}
			if i+1 < len(l) {
				return shellline.ReadsStatus(l[i+1])
			}
			if _, ok := p.(*syntax.File); ok {
				return true // the script's exit status
			}
			return a.statusRead(a.stmtOf(p))
		}
	}
	return true
}

// failsOnly reports s as warnings on stderr then the script's exit with
// a failing status: `exit 1`, `{ echo ... >&2; exit 1; }`.
func (a *answerFlow) failsOnly(s *syntax.Stmt) bool {
	stmts := []*syntax.Stmt{s}
	if b, ok := s.Cmd.(*syntax.Block); ok {
		stmts = b.Stmts
	}
	if len(stmts) == 0 {
		return false
	}
	last := stmts[len(stmts)-1]
	c, ok := last.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) != 2 || last.Negated || len(last.Redirs) > 0 {
		return false
	}
	name, _ := wordLit(c, 0)
	v, _ := wordLit(c, 1)
	if name != "exit" || !failStatusRE.MatchString(v) || a.exitRead(last, false, false) {
		return false
	}
	for _, w := range stmts[:len(stmts)-1] {
		if p := printNode(w); !warnStmtRE.MatchString(p) || strings.HasPrefix(p, "return") || strings.HasPrefix(p, "exit") {
			return false
		}
	}
	return true
}

var failStatusRE = lazyregexp.New(`^[1-9]\d*$`)
