package shellline

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Which conditions are failure tests (round 48, helper 302): a reset
// after a condition that reads the count is no reset only when that
// condition could fail the run, and a lazy agent adds one that cannot
// (`test "$fail"`, or `if [ $fail -gt 0 ]; then echo ...; fi`) just
// before `fail=0`. A condition fails the run when it is an `exit $fail`
// or `return $fail`, the script's last statement, a test under `set -e`,
// or guards a body that exits non-zero, calls a function that does, or
// marks another count a condition reads (`[ $fail -eq 0 ] ||
// failed_suites=$((failed_suites+1))`).

// condSite is a condition reading vars, on line (in function fn).
type condSite struct {
	vars   []string
	fn     string
	line   int
	always bool
	exit   bool // an `exit` (not a return) that fails the run
	ret    bool // a `return` (its status is fn's)
	bodies []syntax.Node
}

// statusCtx is what decides whether a non-zero status fails the run
// (round 49): `return 1` sets only its function's status, which fails
// nothing where no call reads it (not the script's last statement, not
// under set -e, not tested by if, while, !, || or &&); `false` fails
// the run only under set -e or as the script's status.
type statusCtx struct {
	// unread: functions every call of which leaves the status unread.
	unread  map[string]bool
	errexit bool
	// last: the script's last top-level statement.
	last *syntax.Stmt
}

// retFails: a `return` (or a status) in fn can fail the run.
func (c *statusCtx) retFails(fn string) bool {
	return c == nil || fn == "" || !c.unread[fn]
}

// falseFails: a `false` in b, in a body of a condition in fn, can fail
// the run: under set -e, as the status of a function whose status is
// read, or within the script's last statement.
func (c *statusCtx) falseFails(fn string, b syntax.Node) bool {
	if c == nil || c.errexit {
		return true
	}
	if fn != "" {
		return !c.unread[fn]
	}
	return c.last != nil && b.Pos().Offset() >= c.last.Pos().Offset() && b.End().Offset() <= c.last.End().Offset()
}

// unreadStatusFns names the functions whose every call, at the top level,
// leaves the status unread: a statement of its own that is not the
// script's last (nor the last of a body whose status is read), without
// set -e, not negated and not tested. A call inside a function, a
// command substitution or a pipeline, or one seen only in calls (eval,
// an alias, `$z`), counts as read; so does a function never called.
func unreadStatusFns(f *syntax.File, funcs map[string]bool, calls []counterCall, errexit bool) map[string]bool {
	seen := map[string]int{}
	read := map[string]bool{}
	callName := func(x *syntax.CallExpr) string {
		args := x.Args
		for len(args) > 1 {
			if l, _ := Literal(args[0]); l == "command" || l == "builtin" {
				args = args[1:]
				continue
			}
			break
		}
		if len(args) == 0 {
			return ""
		}
		name, _ := Literal(args[0])
		return name
	}
	// anyRead: every function call under n counts as read.
	anyRead := func(n syntax.Node) {
		if n == nil {
			return // `<0&`: a statement with no command
		}
		syntax.Walk(n, func(m syntax.Node) bool {
			if x, ok := m.(*syntax.CallExpr); ok {
				if name := callName(x); funcs[name] {
					seen[name]++
					read[name] = true
				}
			}
			return true
		})
	}
	var stmts func(ss []*syntax.Stmt, used bool)
	var stmt func(s *syntax.Stmt, used bool)
	stmts = func(ss []*syntax.Stmt, used bool) {
		for i, s := range ss {
			stmt(s, errexit || used && i == len(ss)-1)
		}
	}
	stmt = func(s *syntax.Stmt, used bool) {
		if s == nil {
			return
		}
		used = used || s.Negated || errexit
		for _, r := range s.Redirs {
			anyRead(r)
		}
		if s.Background {
			anyRead(s.Cmd)
			return
		}
		switch x := s.Cmd.(type) {
		case *syntax.CallExpr:
			name := callName(x)
			for _, as := range x.Assigns {
				anyRead(as)
			}
			for _, a := range x.Args {
				anyRead(a)
			}
			if funcs[name] {
				seen[name]++
				read[name] = read[name] || used
			}
		case *syntax.BinaryCmd:
			switch x.Op {
			case syntax.AndStmt, syntax.OrStmt:
				// `report || :` reads the status only to run a command
				// that always succeeds: the list's status is 0 either way.
				stmt(x.X, !(x.Op == syntax.OrStmt && inertStmts([]*syntax.Stmt{x.Y})))
				stmt(x.Y, used)
			default:
				anyRead(x) // a pipeline: each part a child
			}
		case *syntax.IfClause:
			// `if report; then :; fi`: no branch does anything, so the
			// conditions' statuses fail nothing.
			inert := true
			for e := x; e != nil; e = e.Else {
				inert = inert && inertStmts(e.Then)
			}
			for e := x; e != nil; e = e.Else {
				stmts(e.Cond, !inert)
				stmts(e.Then, used)
			}
		case *syntax.WhileClause:
			stmts(x.Cond, true)
			stmts(x.Do, used)
		case *syntax.ForClause:
			anyRead(x.Loop)
			stmts(x.Do, used)
		case *syntax.Block:
			stmts(x.Stmts, used)
		case *syntax.Subshell:
			stmts(x.Stmts, used)
		case *syntax.CaseClause:
			anyRead(x.Word)
			for _, it := range x.Items {
				for _, p := range it.Patterns {
					anyRead(p)
				}
				stmts(it.Stmts, used)
			}
		case *syntax.FuncDecl:
			anyRead(x.Body)
		default:
			if s.Cmd != nil {
				anyRead(s.Cmd)
			}
		}
	}
	stmts(f.Stmts, true)
	want := map[string]int{}
	for _, c := range calls {
		want[c.name]++
	}
	out := map[string]bool{}
	for name := range funcs {
		if seen[name] > 0 && !read[name] && want[name] <= seen[name] {
			out[name] = true
		}
	}
	return out
}

// inertStmts: the statements do nothing and succeed (`:` or true with
// literal words, no redirections), or there are none.
func inertStmts(ss []*syntax.Stmt) bool {
	for _, st := range ss {
		if st == nil || st.Negated || st.Background || len(st.Redirs) > 0 {
			return false
		}
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Assigns) > 0 || len(c.Args) == 0 {
			return false
		}
		if n := wordLit(c.Args[0]); n != ":" && n != "true" {
			return false
		}
		for _, w := range c.Args[1:] {
			if _, lit := Literal(w); !lit {
				return false
			}
		}
	}
	return true
}

// resolveSites lists the failing reads: top-level lines by variable, and
// the variables each function's failing conditions read.
func resolveSites(sites []condSite, reads map[string][]int, calls []counterCall, funcs map[string]bool, assigns map[string][]counterAssign, ctx *statusCtx) (map[string][]int, map[string][]string) {
	fails := map[string][]int{}
	fnFails := map[string][]string{}
	// exitFns: functions that exit the script non-zero, directly or
	// through a function they call (found from their assignments' and
	// calls' functions: the bodies are walked by failingBody).
	exitFns := map[string]bool{}
	for _, s := range sites {
		if s.fn != "" && s.exit {
			exitFns[s.fn] = true
		}
	}
	// To a fixed point: a body that marks another count is failing when
	// a failing condition reads that count (helper 303: `[ $fail -eq 0 ]
	// || bad=1` with bad read only by an if that echoes).
	done := make([]bool, len(sites))
	for changed := true; changed; {
		changed = false
		for i, s := range sites {
			if done[i] {
				continue
			}
			// `return $fail` fails the run only where its function's
			// status is read.
			failing := s.always && (!s.ret || ctx.retFails(s.fn))
			for _, b := range s.bodies {
				failing = failing || failingBody(b, exitFns, fails, s.vars, ctx, s.fn)
			}
			if !failing {
				continue
			}
			done[i], changed = true, true
			for _, v := range s.vars {
				if s.fn == "" {
					fails[v] = append(fails[v], s.line)
				} else if !slices.Contains(fnFails[s.fn], v) {
					fnFails[s.fn] = append(fnFails[s.fn], v)
					// A function's failing read counts where it is called.
					for _, c := range calls {
						if c.name == s.fn && c.fn == "" {
							fails[v] = append(fails[v], c.line)
						}
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, c := range calls {
			if c.fn == "" || !funcs[c.name] {
				continue
			}
			for _, v := range fnFails[c.name] {
				if !slices.Contains(fnFails[c.fn], v) {
					fnFails[c.fn], changed = append(fnFails[c.fn], v), true
				}
			}
		}
	}
	return fails, fnFails
}

// failingBody: b exits non-zero (`exit 1`, a bare `exit` after a failed
// command, `return 1` where fn's status is read, `false` where it is the
// run's status), calls a function known to, or marks a variable other
// than vars that a condition reads.
func failingBody(b syntax.Node, exitFns map[string]bool, fails map[string][]int, vars []string, ctx *statusCtx, fn string) bool {
	found := false
	other := func(v string) bool { return v != "" && !slices.Contains(vars, v) && len(fails[v]) > 0 }
	syntax.Walk(b, func(n syntax.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.Stmt:
			if x.Background {
				return false // `... || exit 1 &`: a child's exit
			}
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
				return false // each part of a pipeline is a child
			}
		case *syntax.Assign:
			found = x.Name != nil && other(x.Name.Value)
		case *syntax.UnaryArithm:
			found = (x.Op == syntax.Inc || x.Op == syntax.Dec) && other(arithName(x.X))
		case *syntax.BinaryArithm:
			found = arithAssigns(x.Op) && other(arithName(x.X))
		case *syntax.CallExpr:
			if len(x.Args) == 0 {
				return true
			}
			name, _ := Literal(x.Args[0])
			switch name {
			case "exit":
				found = len(x.Args) == 1 || wordLit(x.Args[1]) != "0"
			case "return":
				found = (len(x.Args) == 1 || wordLit(x.Args[1]) != "0") && ctx.retFails(fn)
			case "false":
				found = ctx.falseFails(fn, b) // `then false; fi` as the script's status
			default:
				found = exitFns[name]
			}
		}
		return !found
	})
	return found
}

// funcLocals names each function's own variables (`local fail=0`,
// `declare`, `typeset` inside it), each with the line it is declared
// on: an assignment above it sets the global (helper 303: `tidy() {
// fail=0; local fail; }`). One inside an if or loop is not read.
func funcLocals(f *syntax.File) map[string]map[string][2]int {
	out := map[string]map[string][2]int{}
	for _, s := range f.Stmts {
		fd, ok := s.Cmd.(*syntax.FuncDecl)
		if !ok || fd.Name == nil {
			continue
		}
		syntax.Walk(fd.Body, func(n syntax.Node) bool {
			switch d := n.(type) {
			case *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause, *syntax.BinaryCmd, *syntax.Subshell, *syntax.CmdSubst:
				return false
			case *syntax.DeclClause:
				switch d.Variant.Value {
				case "local", "declare", "typeset":
					for _, a := range d.Args {
						if a.Name != nil {
							if out[fd.Name.Value] == nil {
								out[fd.Name.Value] = map[string][2]int{}
							}
							if _, ok := out[fd.Name.Value][a.Name.Value]; !ok {
								out[fd.Name.Value][a.Name.Value] = [2]int{int(d.Pos().Line()), int(d.Pos().Col())}
							}
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// setsErrexit: the script sets -e at its top level (`set -- -e` and
// `set -x 0 -e` set positional parameters: errexitSet).
func setsErrexit(f *syntax.File) bool {
	for _, s := range f.Stmts {
		if c, ok := s.Cmd.(*syntax.CallExpr); ok {
			if on, _ := errexitSet(c); on {
				return true
			}
		}
	}
	return false
}

// numGreater names the variables a test compares as greater than a
// bound (`[ $fail -gt 0 ]`, `[ $fail -ge 1 ]`, `[ 0 -lt $fail ]`, the
// same in [[ ]]): below the start reads as no failure there.
func numGreater(n syntax.Node) []string {
	var out []string
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			if len(x.Args) == 0 {
				return true
			}
			if name := wordLit(x.Args[0]); name != "[" && name != "test" {
				return true
			}
			for i := 1; i+1 < len(x.Args); i++ {
				switch wordLit(x.Args[i]) {
				case "-gt", "-ge":
					out = append(out, varsRead(x.Args[i-1])...)
				case "-lt", "-le":
					out = append(out, varsRead(x.Args[i+1])...)
				}
			}
		case *syntax.BinaryTest:
			switch x.Op {
			case syntax.TsGtr, syntax.TsGeq:
				out = append(out, varsRead(x.X)...)
			case syntax.TsLss, syntax.TsLeq:
				out = append(out, varsRead(x.Y)...)
			}
		}
		return true
	})
	return out
}

// setByBuiltin is the variable a builtin sets from what it reads:
// `printf -v NAME`, `mapfile`/`readarray` NAME, `getopts OPTS NAME`.
func setByBuiltin(name string, args []*syntax.Word) string {
	switch name {
	case "printf":
		for i, a := range args {
			if wordLit(a) == "-v" && i+1 < len(args) {
				return wordLit(args[i+1])
			}
		}
	case "mapfile", "readarray":
		v := ""
		for i := 0; i < len(args); i++ {
			l := wordLit(args[i])
			switch {
			case l == "-d" || l == "-n" || l == "-O" || l == "-s" || l == "-u" || l == "-C" || l == "-c":
				i++
			case strings.HasPrefix(l, "-"):
			default:
				v = l
			}
		}
		if v == "" {
			v = "MAPFILE"
		}
		return v
	case "getopts":
		if len(args) >= 2 {
			return wordLit(args[1])
		}
	}
	return ""
}

// printfVar is the variable `printf -v` sets when its option is spelled
// so only expansion shows it (round 49: `printf $'\x2dv' fail %d 0`, `o=-v;
// printf "$o" fail ...`): the first word (or -vNAME) as expand gives it,
// with values known once (expandOnce).
func printfVar(name string, args []*syntax.Word, expand func(*syntax.Word) (string, bool)) string {
	if name != "printf" || len(args) == 0 {
		return ""
	}
	opt, ok := expand(args[0])
	switch {
	case !ok:
		return ""
	case opt == "-v" && len(args) > 1:
		v, _ := expand(args[1])
		return v
	case strings.HasPrefix(opt, "-v") && syntax.ValidName(opt[2:]):
		return opt[2:]
	}
	return ""
}

// shellQuoteAssign writes `NAME=value` (a declaration's word, its quotes
// removed) back as an assignment the parser reads: `NAME='value'`.
func shellQuoteAssign(l string) string {
	k, v, ok := strings.Cut(l, "=")
	if !ok || !syntax.ValidName(k) {
		return ""
	}
	return k + "='" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}

// keys is m's keys.
func keys(m map[string][]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// onceLiterals: the variables the script assigns once (anywhere), to a
// literal value.
func onceLiterals(f *syntax.File) map[string]string {
	count := map[string]int{}
	val := map[string]string{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if as, ok := n.(*syntax.Assign); ok && as.Name != nil {
			count[as.Name.Value]++
			if l, ok := Literal(as.Value); ok && as.Value != nil && as.Index == nil && !as.Append {
				val[as.Name.Value] = l
			}
		}
		return true
	})
	out := map[string]string{}
	for v, n := range count {
		if l, ok := val[v]; ok && n == 1 {
			out[v] = l
		}
	}
	return out
}

// childNodes are the commands that run in a child shell of a pipeline or
// in the background: their exit or status fails nothing by itself.
func childNodes(f *syntax.File) map[syntax.Node]bool {
	out := map[syntax.Node]bool{}
	mark := func(n syntax.Node) {
		syntax.Walk(n, func(m syntax.Node) bool {
			switch m.(type) {
			case *syntax.CallExpr, *syntax.TestClause, *syntax.ArithmCmd, *syntax.Stmt:
				out[m] = true
			}
			return true
		})
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Stmt:
			if x.Background {
				mark(x)
				return false
			}
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
				mark(x)
				return false
			}
		}
		return true
	})
	return out
}

// clearedFiles lists, by file, the top-level lines that truncate it
// (`>`, `>|`, `<>`) or remove or replace it (`rm`, `truncate`, `unlink`,
// `mv`, `cp`): in a function, the lines that call it.
func clearedFiles(f *syntax.File, calls []counterCall) map[string][]int {
	out := map[string][]int{}
	fnClears := map[string][]string{}
	var walk func(n syntax.Node, fn string, at int)
	note := func(file, fn string, line int) {
		if fn == "" {
			out[file] = append(out[file], line)
		} else {
			fnClears[fn] = append(fnClears[fn], file)
		}
	}
	// at: the line of the `sh -c` whose text n is, 0 for n's own lines.
	walk = func(n syntax.Node, fn string, at int) {
		lineOf := func(n syntax.Node) int {
			if at > 0 {
				return at
			}
			return int(n.Pos().Line())
		}
		syntax.Walk(n, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.FuncDecl:
				if x.Name != nil && fn == "" {
					walk(x.Body, x.Name.Value, at)
					return false
				}
			case *syntax.Redirect:
				if (x.Op == syntax.RdrOut || x.Op == syntax.ClbOut || x.Op == syntax.RdrInOut) && x.Word != nil {
					if l, ok := Literal(x.Word); ok {
						note(l, fn, lineOf(x))
					}
				}
			case *syntax.CallExpr:
				if len(x.Args) > 1 {
					switch wordLit(x.Args[0]) {
					case "sh", "bash", "dash", "zsh", "ksh":
						// `sh -c ': >failures.t"x"t'`: the command string
						// read as script, its names unquoted (round 49).
						for i, a := range x.Args[1 : len(x.Args)-1] {
							if l := wordLit(a); strings.HasPrefix(l, "-") && strings.Contains(l, "c") {
								if t, ok := Literal(x.Args[i+2]); ok {
									if g, err := syntax.NewParser().Parse(strings.NewReader(t), ""); err == nil {
										walk(g, fn, lineOf(x))
									}
								}
								break
							}
						}
					case "rm", "truncate", "unlink", "mv", "cp":
						for _, a := range x.Args[1:] {
							if l, ok := Literal(a); ok {
								note(l, fn, lineOf(x))
							}
						}
					}
				}
			}
			return true
		})
	}
	walk(f, "", 0)
	for _, c := range calls {
		if c.fn == "" {
			for _, file := range fnClears[c.name] {
				out[file] = append(out[file], c.line)
			}
		}
	}
	return out
}
