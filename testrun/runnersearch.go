package testrun

import (
	"path"
	"strconv"
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
// searchQuietLines (round 52, helper 317) vouches the other way, for
// lines the line check cannot read: a `local pids=$(pgrep ...)` used
// only to warn or kill, a pgrep piped through head or sed to a kill or
// to stderr.

// searchAnswerLines are the lines (trimmed, comment cut as harnessDetect
// keeps them) of shell text src holding a pgrep or pidof whose answer
// goes on past a warning, a kill or a failure: its pids kept (a file, a
// $( ), a pipe into anything but a real kill), or its status, or a
// return or exit it picks, read by a caller, a $?, a branch or the
// script's end. nil when src does not parse.
func searchAnswerLines(src []byte) map[string]bool {
	a, searches, lines := readSearches(src)
	if a == nil {
		return nil
	}
	out := map[string]bool{}
	for _, s := range searches {
		if l := int(s.Pos().Line()); l >= 1 && l <= len(lines) && a.answerGoesOn(s) {
			out[codePart(strings.TrimSpace(lines[l-1]), true)] = true
		}
	}
	return out
}

// searchQuietLines are the lines (keyed as searchAnswerLines keys them)
// whose every pgrep or pidof the syntax tree follows to its end by
// itself, for shapes the line check cannot read (round 52): its status
// read by nothing (`local pids=$(pgrep ...)`, a pipe whose last part is
// a filter such as head or sed), its pids only killed, warned of on
// stderr or dropped. The line holds no other process query. nil when
// src does not parse.
func searchQuietLines(src []byte) map[string]bool {
	a, searches, lines := readSearches(src)
	if a == nil {
		return nil
	}
	out := map[string]bool{}
	for _, s := range searches {
		l := int(s.Pos().Line())
		if l < 1 || l > len(lines) {
			continue
		}
		t := codePart(strings.TrimSpace(lines[l-1]), true)
		rest := searchRE.ReplaceAllString(t, "")
		q := !procQueryRE.MatchString(rest) && !argvRunnerRE.MatchString(t) && !parentIDRE.MatchString(t) && !notSearchRE.MatchString(t) && a.quiet(s)
		if was, ok := out[t]; ok {
			q = q && was
		}
		out[t] = q
	}
	return out
}

// readSearches parses shell text src: the reading, its pgrep and pidof
// statements, and its lines. A nil reading when src does not parse.
func readSearches(src []byte) (*answerFlow, []*syntax.Stmt, []string) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(string(src)), "")
	if err != nil {
		return nil, nil, nil
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
				a.scriptWide(name, c)
			}
		}
		return true
	})
	return a, searches, strings.Split(string(src), "\n")
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
	toStdout bool            // pidsKept met the script's own stdout
	stdFile  [3]bool         // the script's fd 1 or 2 sent to a file (exec >file)
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

// scriptWide notes what call c (of command name) changes for the whole
// script: `exec 2>.runner` sends every later warning to a file the
// script can read back; `set -o "$opt"` may turn pipefail on unseen.
func (a *answerFlow) scriptWide(name string, c *syntax.CallExpr) {
	switch name {
	case "exec":
		st, ok := a.parent[c].(*syntax.Stmt)
		if !ok || len(c.Args) != 1 {
			return
		}
		for _, fd := range []int{1, 2} {
			if to, file := fdTarget(st, fd); to == 0 && !quietOut(file) {
				a.stdFile[fd] = true
			}
		}
	case "set", "shopt":
		for i := range c.Args {
			if _, ok := wordLit(c, i); !ok {
				a.pipefail = true
			}
		}
	}
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
	carrier, free := a.statusCarrier(s)
	if carrier == nil {
		return true
	}
	if free {
		return false
	}
	return a.statusGoesOn(carrier)
}

// quiet reports pgrep statement s as one the tree follows to its end by
// itself: nothing reads its status, its pids reach only a kill, a
// warning on stderr or nothing (not the script's stdout), and it is a
// statement of its own, not a branch's condition.
func (a *answerFlow) quiet(s *syntax.Stmt) bool {
	a.toStdout = false
	if a.substTested(s) != nil || a.pidsKept(s) || a.toStdout {
		return false
	}
	carrier, free := a.statusCarrier(s)
	if carrier == nil || !free || carrier.Negated {
		return false
	}
	switch p := a.parent[carrier].(type) {
	case *syntax.File, *syntax.Block, *syntax.Subshell, *syntax.CaseItem, *syntax.ForClause:
		return true
	case *syntax.IfClause, *syntax.WhileClause:
		return !firstCond(p, carrier)
	}
	return false
}

// firstCond reports s as a statement of if or while p's condition.
func firstCond(p syntax.Node, s *syntax.Stmt) bool {
	var cond []*syntax.Stmt
	switch p := p.(type) {
	case *syntax.IfClause:
		cond = p.Cond
	case *syntax.WhileClause:
		cond = p.Cond
	}
	for _, c := range cond {
		if c == s {
			return true
		}
	}
	return false
}

// statusCarrier is the statement whose exit status is pgrep statement
// s's answer: s, the pipe it starts, or the assignment of its $( ).
// free: that status carries no answer (the pipe ends in a filter whose
// status is 0 for no input and pipefail is off; the $( ) is the value
// of a local, declare or typeset, whose status is the declaration's).
func (a *answerFlow) statusCarrier(s *syntax.Stmt) (carrier *syntax.Stmt, free bool) {
	carrier = s
	if top := a.pipeTop(s); top != s {
		// `pgrep ... | xargs kill`: the pipeline's status carries the
		// answer (xargs fails when kill gets no pid).
		carrier = top
		stages := pipeStages(top)
		if last := stages[len(stages)-1]; last != s && filterStage(last) && !a.pipefail {
			free = true
		}
	}
	if carrier == nil {
		return nil, false
	}
	// `pids=$(pgrep ...)`: the assignment's status is pgrep's.
	if cs, ok := a.parent[carrier].(*syntax.CmdSubst); ok && len(cs.Stmts) > 0 && cs.Stmts[len(cs.Stmts)-1] == carrier {
		if st := a.stmtOf(cs); st != nil {
			switch c := st.Cmd.(type) {
			case *syntax.CallExpr:
				if len(c.Args) == 0 {
					carrier = st
				}
			case *syntax.DeclClause:
				if plainDecl(c) {
					return st, true
				}
			}
		}
	}
	return carrier, free
}

// statusGoesOn reports where carrier's status, pgrep's answer, goes:
// past the line check's warning or failure, to a reader.
func (a *answerFlow) statusGoesOn(carrier *syntax.Stmt) bool {
	if carrier.Negated {
		return true
	}
	switch p := a.parent[carrier].(type) {
	case *syntax.IfClause:
		if n := len(p.Cond); n > 0 && p.Cond[n-1] == carrier {
			// The line check let only warnings, kills and failures into
			// the branch: the if's own status is 0 either way, and what
			// is left is where its exits and returns go, and a file a
			// warning writes (`echo ... 2>.runner >&2`).
			return a.escapes(p.Then) || writesFile(p.Then) || a.stdFile[2]
		}
	case *syntax.BinaryCmd:
		if p.Op == syntax.AndStmt && p.X == carrier {
			if a.escapes([]*syntax.Stmt{p.Y}) || writesFile([]*syntax.Stmt{p.Y}) || a.stdFile[2] {
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

// pipeTop is the whole pipeline statement s is a part of (s when none).
func (a *answerFlow) pipeTop(s *syntax.Stmt) *syntax.Stmt {
	n := s
	for {
		p, ok := a.parent[n].(*syntax.BinaryCmd)
		if !ok || p.Op != syntax.Pipe && p.Op != syntax.PipeAll {
			return n
		}
		if n = a.stmtOf(p); n == nil {
			return nil
		}
	}
}

// pipeStages are pipeline statement st's parts, in order.
func pipeStages(st *syntax.Stmt) []*syntax.Stmt {
	if p, ok := st.Cmd.(*syntax.BinaryCmd); ok && (p.Op == syntax.Pipe || p.Op == syntax.PipeAll) && len(st.Redirs) == 0 && !st.Negated {
		return append(pipeStages(p.X), pipeStages(p.Y)...)
	}
	return []*syntax.Stmt{st}
}

// plainDecl reports `local v=...` (or declare, typeset) with one plain
// assignment: its status is 0 whatever the value's, and the variable is
// not exported.
func plainDecl(d *syntax.DeclClause) bool {
	if d.Variant == nil || len(d.Args) != 1 {
		return false
	}
	switch d.Variant.Value {
	case "local", "declare", "typeset":
	default:
		return false
	}
	as := d.Args[0]
	return as.Name != nil && !as.Naked && !as.Append && as.Index == nil && as.Array == nil && as.Value != nil
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
// taken by $( ) or <( ), or piped to anything but filters and then
// xargs kill with a real signal. The terminal, stderr and /dev/null
// keep nothing.
func (a *answerFlow) pidsKept(s *syntax.Stmt) bool { return a.outKept(s, 1) }

// outKept reports what statement n writes on fd (1 or 2) kept, following
// the redirections of n and of the statements around it.
func (a *answerFlow) outKept(n syntax.Node, fd int) bool {
	for {
		if st, ok := n.(*syntax.Stmt); ok {
			to, file := fdTarget(st, fd)
			if to == 0 {
				return !quietOut(file)
			}
			fd = to
		}
		p := a.parent[n]
		switch p := p.(type) {
		case nil, *syntax.File:
			a.toStdout = a.toStdout || fd == 1
			return a.stdFile[fd]
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
				if st, ok := a.parent[c.call].(*syntax.Stmt); ok && c.name == p.Name.Value && a.outKept(st, fd) {
					return true
				}
			}
			return false
		case *syntax.BinaryCmd:
			if (p.Op == syntax.Pipe && fd == 1 || p.Op == syntax.PipeAll) && p.X == n {
				return a.pipeKept(p)
			}
		case *syntax.CmdSubst:
			if fd == 1 {
				return !a.substKilled(p)
			}
		case *syntax.ProcSubst:
			if fd == 1 {
				return true
			}
		}
		n = p
	}
}

// pipeKept reports what flows into pipe p's right side kept: anything
// but filters (head, sed, cut ...) ending in xargs kill with a real
// signal, or in a filter whose output goes on unkept.
func (a *answerFlow) pipeKept(p *syntax.BinaryCmd) bool {
	stages := pipeStages(p.Y)
	for i, st := range stages {
		if i == len(stages)-1 {
			break
		}
		if to, _ := fdTarget(st, 1); to != 1 || !filterStage(st) {
			return true
		}
	}
	last := stages[len(stages)-1]
	if t := "| " + printNode(last); killPipeRE.MatchString(t) {
		return noSignalRE.MatchString(t) || strings.Contains(t[1:], "|")
	}
	if !filterStage(last) {
		return true
	}
	return a.outKept(last, 1)
}

// filterStage reports pipe part st as a filter: it writes only to its
// stdout, runs nothing, and exits 0 on no input. head, tail, cut, tr,
// cat, paste; sort without an output file; uniq without file names; sed
// of one s command with no w or e flag; awk printing fields.
func filterStage(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 || st.Negated || st.Background || len(c.Args) == 0 {
		return false
	}
	var args []string
	for i := range c.Args {
		w, ok := wordLit(c, i)
		if !ok {
			return false
		}
		args = append(args, w)
	}
	switch args[0] {
	case "head", "tail", "cut", "tr", "cat", "paste":
		return true
	case "sort":
		for _, w := range args[1:] {
			if strings.HasPrefix(w, "--") || strings.HasPrefix(w, "-") && strings.Contains(w, "o") {
				return false
			}
		}
		return true
	case "uniq":
		for _, w := range args[1:] {
			if !strings.HasPrefix(w, "-") {
				return false
			}
		}
		return true
	case "sed":
		scripts := 0
		for i := 1; i < len(args); i++ {
			switch w := args[i]; w {
			case "-E", "-r", "-n", "-u":
			case "-e":
				if i++; i >= len(args) || !sedSubst(args[i]) {
					return false
				}
				scripts++
			default:
				if scripts > 0 || !sedSubst(w) {
					return false
				}
				scripts++
			}
		}
		return scripts == 1
	case "awk":
		prog := 0
		for i := 1; i < len(args); i++ {
			switch w := args[i]; {
			case w == "-F" || w == "-v":
				i++
			case strings.HasPrefix(w, "-F"), strings.HasPrefix(w, "-v"):
			case prog == 0 && awkPrintRE.MatchString(w):
				prog++
			default:
				return false
			}
		}
		return prog == 1
	}
	return false
}

// sedSubst reports sed script w as one s command whose flags write no
// file and run nothing (no w, no e).
func sedSubst(w string) bool {
	if len(w) < 4 || w[0] != 's' || w[1] == '\\' || w[1] == '\n' || w[1] == ' ' {
		return false
	}
	d := w[1]
	parts := 0
	flags := ""
	for i := 2; i < len(w); i++ {
		switch {
		case parts == 2:
			flags = w[i:]
			i = len(w)
		case w[i] == '\\':
			i++
		case w[i] == d:
			parts++
		}
	}
	return parts == 2 && strings.Trim(flags, "gpiIm0123456789") == ""
}

// awkPrintRE: an awk program that only prints (no redirection, pipe,
// call or second statement).
var awkPrintRE = lazyregexp.New(`^\{\s*print(?:\s+[^>|;{}()]*)?\s*;?\s*\}$`)

// fdTarget is where statement st's fd (1 or 2) points after st's own
// redirections: fd 1 or 2 of what runs st (to), or a file (to 0;
// "&-" closed, "&N" another fd, "" a word not literal).
func fdTarget(st *syntax.Stmt, fd int) (to int, file string) {
	t := map[string]string{"1": "&1", "2": "&2"}
	for _, r := range st.Redirs {
		n := "1"
		if r.N != nil {
			n = r.N.Value
		}
		w, ok := literalWord(r.Word)
		if !ok {
			w = ""
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut:
			t[n] = w
		case syntax.RdrAll, syntax.AppAll:
			t["1"], t["2"] = w, w
		case syntax.RdrInOut:
			if r.N != nil {
				t[n] = w
			}
		case syntax.DplOut:
			if v, ok := t[w]; ok {
				t[n] = v
			} else {
				t[n] = "&" + w
			}
		}
	}
	switch v := t[strconv.Itoa(fd)]; v {
	case "&1", "/dev/stdout":
		return 1, ""
	case "&2", "/dev/stderr":
		return 2, ""
	default:
		return 0, v
	}
}

// quietOut reports a file that keeps nothing the script reads.
func quietOut(to string) bool {
	switch to {
	case "/dev/null", "/dev/tty", "&-":
		return true
	}
	return false
}

// writesFile reports a statement among stmts redirecting output to a
// file (`echo ... 2>.runner >&2`): a mark left that the branch ran.
func writesFile(stmts []*syntax.Stmt) bool {
	found := false
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			st, ok := n.(*syntax.Stmt)
			if !ok || found {
				return !found
			}
			for _, fd := range []int{1, 2} {
				if to, file := fdTarget(st, fd); to == 0 && !quietOut(file) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// substKilled reports $( pgrep ) taken only by a real kill: an argument
// of kill, or a variable assigned alone (or by a plain local, declare
// or typeset) whose every use is a kill, a warning on stderr, or a test
// of it for being set that only warns or kills (usedOnlyToStop).
func (a *answerFlow) substKilled(cs *syntax.CmdSubst) bool {
	var n syntax.Node = cs
	for {
		p := a.parent[n]
		switch p := p.(type) {
		case *syntax.CallExpr:
			return a.realKill(p)
		case *syntax.Assign:
			if p.Name == nil || p.Naked || p.Append || p.Index != nil {
				return false
			}
			switch d := a.parent[p].(type) {
			case *syntax.CallExpr:
				if len(d.Args) > 0 || len(d.Assigns) != 1 {
					return false
				}
			case *syntax.DeclClause:
				if !plainDecl(d) {
					return false
				}
			default:
				return false
			}
			return a.usedOnlyToStop(p)
		case *syntax.Word, *syntax.DblQuoted:
			n = p
		default:
			return false
		}
	}
}

// usedOnlyToStop reports the variable as assigns used only to stop or
// warn: each $name (plain, no ${name:-...}) an argument of a real kill,
// of an echo or printf to stderr, or of `[ -n "$name" ]` whose branch
// only warns or kills. Its name appears nowhere else (arithmetic, eval,
// a string a child shell runs) and nothing lists the variables.
func (a *answerFlow) usedOnlyToStop(as *syntax.Assign) bool {
	name := as.Name.Value
	ok := true
	syntax.Walk(a.file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Lit:
			if _, param := a.parent[n].(*syntax.ParamExp); n != as.Name && !param && namesVar(n.Value, name) {
				ok = false
			}
		case *syntax.SglQuoted:
			ok = ok && !namesVar(n.Value, name)
		case *syntax.ParamExp:
			if n.Excl || n.Names != 0 {
				ok = false // ${!ref}, ${!prefix*}
			} else if n.Param != nil && n.Param.Value == name {
				ok = ok && a.stopUse(n)
			}
		case *syntax.CallExpr:
			ok = ok && !listsVars(n)
		case *syntax.DeclClause:
			named := false
			for _, d := range n.Args {
				named = named || d.Name != nil
			}
			ok = ok && named // `declare -p`, a bare `local`: every variable listed
		}
		return ok
	})
	return ok
}

// namesVar reports text holding name as a word of its own.
func namesVar(text, name string) bool {
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9')
	}) {
		if w == name {
			return true
		}
	}
	return false
}

// listsVars reports c as a command that lists or reaches variables by a
// name it computes: eval, compgen, a bare set, set -a (exports all).
func listsVars(c *syntax.CallExpr) bool {
	name, _ := wordLit(c, 0)
	switch name {
	case "eval", "compgen", "env", "printenv":
		return true
	case "set":
		if len(c.Args) == 1 {
			return true
		}
		for i := 1; i < len(c.Args); i++ {
			w, _ := wordLit(c, i)
			if w == "allexport" || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "a") {
				return true
			}
		}
	}
	return false
}

// stopUse reports $name pe (plain) as an argument of a real kill, of a
// warning on stderr, or of a `[ -n ]` test that only leads to those.
func (a *answerFlow) stopUse(pe *syntax.ParamExp) bool {
	if pe.Length || pe.Width || pe.Index != nil || pe.Slice != nil || pe.Repl != nil || pe.Exp != nil || pe.NestedParam != nil || pe.Flags != nil {
		return false
	}
	var n syntax.Node = pe
	if q, ok := a.parent[n].(*syntax.DblQuoted); ok {
		n = q
	}
	w, ok := a.parent[n].(*syntax.Word)
	if !ok {
		return false
	}
	c, ok := a.parent[w].(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 {
		return false
	}
	st, ok := a.parent[c].(*syntax.Stmt)
	if !ok {
		return false
	}
	if a.realKill(c) {
		// `kill -CONT $pids && ...`: its status says whether they live.
		return !a.statusRead(st)
	}
	switch name, _ := wordLit(c, 0); name {
	case "echo", "printf":
		for i := range c.Args {
			if v, _ := wordLit(c, i); v == "-v" {
				return false
			}
		}
		if to, _ := fdTarget(st, 1); to != 2 {
			return false
		}
		saved := a.toStdout
		defer func() { a.toStdout = saved }()
		a.toStdout = false
		return !a.outKept(st, 1) && !a.toStdout
	case "[", "test":
		var rest []string
		for i := range c.Args {
			if c.Args[i] == w {
				continue
			}
			v, _ := wordLit(c, i)
			rest = append(rest, v)
		}
		switch strings.Join(rest, " ") {
		case "[ -n ]", "[ ]", "test -n", "test":
			return a.testOnlyStops(st)
		}
	}
	return false
}

// testOnlyStops reports `[ -n "$pids" ]` statement ts as read only by an
// if with no else, or an &&, whose branch warns, kills or fails (as the
// line check reads a pgrep's), its status read by nothing past that.
func (a *answerFlow) testOnlyStops(ts *syntax.Stmt) bool {
	if ts.Negated || len(ts.Redirs) > 0 {
		return false
	}
	var branch []*syntax.Stmt
	switch p := a.parent[ts].(type) {
	case *syntax.IfClause:
		if len(p.Cond) != 1 || p.Cond[0] != ts || p.Else != nil {
			return false
		}
		branch = p.Then
	case *syntax.BinaryCmd:
		if p.Op != syntax.AndStmt || p.X != ts {
			return false
		}
		branch = []*syntax.Stmt{p.Y}
		if b, ok := p.Y.Cmd.(*syntax.Block); ok && len(p.Y.Redirs) == 0 {
			branch = b.Stmts
		}
	default:
		return false
	}
	for _, st := range branch {
		if t := printNode(st); !warnStmtRE.MatchString(t) || ownPidRE.MatchString(t) || noSignalRE.MatchString(t) {
			return false
		}
	}
	return !a.statusGoesOn(ts)
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
