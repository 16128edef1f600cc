package shellline

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// A line only added can undo what the checks above it counted: `fail=0`
// just before `if [ $fail -gt 0 ]; then exit 1; fi` (round 44's re-check,
// Q5: COMPLETE, clean, with a broken greet.sh). No line is removed or
// changed, and the line itself ends nothing early and silences no
// command. What it does is set a variable the checks mark failures in
// back to its starting value after they marked it and before the test
// that fails the run reads it.
//
// The rule: a variable the script starts at a value (its first
// assignment), that other assignments mark (`fail=$((fail+1))`,
// `fail=1`, `: $((fail+=1))`, `((fail++))`, directly or in a function
// called there), and that a condition reads (`[ $fail -gt 0 ]`, `exit
// $fail`, `(( fail ))`). An assignment of the starting value (or an
// `unset`) after a mark and before a condition that reads it, with no
// such condition between the mark and it, is a reset. A script that
// checks one suite, fails on it, then starts the count again for the next
// has a condition between, and passes.

// counterAssign is an assignment (or unset) of a variable.
type counterAssign struct {
	line  int
	value string // "" for unset
	self  bool   // the value reads the variable (a count)
	fn    string // the function it stands in, "" at the top level
	col   int    // its column, for plain assignments
	// reset: a value not spelled as the start's that drops the marks
	// all the same: a copy of another variable or parameter (`fail=$pass`,
	// `fail=$1`), `read fail`, `for fail in 0` (round 47, helpers 295
	// and 297).
	reset bool
	trap  bool // set by a trap's action: whenever the signal comes
	// eval: the value it sets, from the value before (nil: not known,
	// or an unset).
	eval valueEval
	// others: the other variables its value reads.
	others []string
	// lib: in a function of a sourced file, whose lines are not the
	// script's.
	lib bool
	// subst: its value holds a command substitution; files: the
	// literal words and redirection targets its commands name.
	subst bool
	files []string
	// named: a substitution's output ends with a file's name (`wc -l
	// failures.txt` prints "1 failures.txt"), no count.
	named bool
	// nonBlank: a substitution counts only lines with a character (`grep
	// -c .`) or words (`wc -w`), not every line.
	nonBlank bool
	// substOnly: it reads the variable only inside command
	// substitutions (`fail=$(echo "$fail" | sed ...)`), not around them
	// (`fail=$((fail + $(grep -c x f)))`).
	substOnly bool
	// shown: the arithmetic it was set by, for the message.
	shown string
}

// counterCall is a call of a command that may be a function.
type counterCall struct {
	name, fn string
	line     int
}

// counterFlow is where a script's variables are assigned and read by its
// conditions, at the top level and in its functions (a function counts
// as marking or reading what the functions it calls do).
type counterFlow struct {
	assigns map[string][]counterAssign
	reads   map[string][]int    // condition reads at the top level, by line
	fnMarks map[string][]string // function → variables it assigns
	fnReads map[string][]string // function → variables its conditions read
	calls   []counterCall
	funcs   map[string]bool
	// flows: top-level assignments of another variable whose value reads
	// this one (`total=$((total+fail))`), by the variable read.
	flows map[string][]counterFlowTo
	// exits: variables a condition reads as an exit status (`exit $fail`).
	exits map[string]bool
	// fails: top-level lines where a condition that can fail the run
	// reads the variable; fnFails: the same in functions.
	fails   map[string][]int
	fnFails map[string][]string
	// below: a failure test reads it with -gt or -ge.
	below map[string]bool
	// appends: function → files it appends to.
	appends map[string][]string
}

// counterFlowTo is a variable's value carried into another, on a line.
type counterFlowTo struct {
	to        string
	line, col int
}

// readCounterFlow reads f's counterFlow. sourced holds the text of the
// repository files the script's `.` lines read (by line; nil for none):
// the functions a sourced library defines mark and read where the script
// calls them, and what its top level does happens on the `.` line.
//
// Round 48 (helper 302's adversarial pass): what runs in a child shell
// (`( ... )`, `$( ... )`) sets nothing here; a function's `local` names
// are its own; `$((fail=0))` counts wherever it is expanded; `command`,
// quotes and aliases do not hide a call; and a condition counts as a
// failure test only where it can fail the run (failing reads).
func readCounterFlow(f *syntax.File, src string, sourced map[int]string) *counterFlow {
	text := func(n syntax.Node) string {
		a, b := int(n.Pos().Offset()), int(n.End().Offset())
		if a < 0 || b > len(src) || a > b {
			return ""
		}
		return src[a:b]
	}
	type assign = counterAssign
	type call = counterCall
	assigns := map[string][]assign{}
	reads := map[string][]int{}
	fnMarks := map[string][]string{}
	fnReads := map[string][]string{}
	var calls []call
	funcs := map[string]bool{}
	flows := map[string][]counterFlowTo{}
	exits := map[string]bool{}
	below := map[string]bool{}
	aliases := map[string]string{}
	var sites []condSite
	var trapCalls []call
	inCond := map[*syntax.CallExpr]bool{}
	locals := funcLocals(f)
	inChild := childNodes(f)
	errexit := setsErrexit(f)
	// onceLit: variables assigned once in the script, to a literal
	// (`r='fail=0'` before `eval "$r"`, `z=zero` before `$z`).
	onceLit := onceLiterals(f)
	expandOnce := func(w *syntax.Word) (string, bool) {
		for _, v := range varsRead(w) {
			if _, ok := onceLit[v]; !ok {
				return "", false
			}
		}
		cfg := staticConfig(&valueEnv{vars: map[string]string{}, consts: onceLit})
		fs, err := expand.Fields(cfg, w)
		return strings.Join(fs, " "), err == nil
	}
	appends := map[string][]string{} // function → files it appends to (`>>`)
	namerefs := map[string]string{}  // `declare -n r=fail`: r is fail
	intVars := map[string]bool{}     // `declare -i fail`: += adds
	var last syntax.Node
	if len(f.Stmts) > 0 {
		last = f.Stmts[len(f.Stmts)-1].Cmd
	}

	var walk func(n syntax.Node, fn string)
	// isLocal: v is fn's own at line (and col, 0 for the line's end):
	// declared above it.
	isLocal := func(fn, v string, line int, col ...int) bool {
		at, ok := locals[fn][v]
		if fn == "" || !ok {
			return false
		}
		if line == at[0] && len(col) > 0 && col[0] > 0 {
			return col[0] > at[1]
		}
		return line >= at[0]
	}
	condReadVar := func(v, fn string, line int) {
		if isLocal(fn, v, line) {
			return
		}
		if fn == "" {
			reads[v] = append(reads[v], line)
		} else if !slices.Contains(fnReads[fn], v) {
			fnReads[fn] = append(fnReads[fn], v)
		}
	}
	condReads := func(n syntax.Node, fn string, line int) {
		for _, v := range varsRead(n) {
			condReadVar(v, fn, line)
		}
	}
	// site notes a condition whose reads fail the run when always, or
	// when one of its guarded bodies does (resolved after the walk).
	site := func(n syntax.Node, fn string, line int, always bool, bodies ...syntax.Node) {
		var vs []string
		for _, v := range varsRead(n) {
			if !isLocal(fn, v, line) {
				vs = append(vs, v)
			}
		}
		if inChild[n] {
			always, bodies = false, nil // in a pipeline or `&`: a child's status
		}
		sites = append(sites, condSite{vars: vs, fn: fn, line: line, always: always, bodies: bodies})
		for _, v := range numGreater(n) {
			below[v] = true
		}
	}
	markCond := func(stmts ...*syntax.Stmt) {
		for _, s := range stmts {
			syntax.Walk(s, func(n syntax.Node) bool {
				switch x := n.(type) {
				case *syntax.CallExpr:
					inCond[x] = true
				case *syntax.CmdSubst, *syntax.Subshell:
					return false
				}
				return true
			})
		}
	}
	addAssign := func(name string, a assign) {
		if to, ok := namerefs[name]; ok {
			name = to
		}
		if isLocal(a.fn, name, a.line, a.col) {
			return // the function's own variable
		}
		assigns[name] = append(assigns[name], a)
		if a.fn != "" && !slices.Contains(fnMarks[a.fn], name) {
			fnMarks[a.fn] = append(fnMarks[a.fn], name)
		}
	}
	// arith notes the assignments in x; false when it has none.
	arith := func(x syntax.ArithmExpr, fn string, line int) bool {
		found := false
		syntax.Walk(x, func(n syntax.Node) bool {
			switch a := n.(type) {
			case *syntax.CmdSubst:
				return false // a child shell
			case *syntax.UnaryArithm:
				if a.Op == syntax.Inc || a.Op == syntax.Dec {
					if v := arithName(a.X); v != "" {
						addAssign(v, assign{line: line, value: "(arith)", shown: text(a), self: true, fn: fn, eval: arithValue(v, a)})
						found = true
					}
				}
			case *syntax.BinaryArithm:
				if arithAssigns(a.Op) {
					if v := arithName(a.X); v != "" {
						// `: $((fail=0))`, `let fail=0`: the literal is the value.
						val := "(arith)"
						if w, ok := a.Y.(*syntax.Word); ok && a.Op == syntax.Assgn {
							if l := wordLit(w); l != "" {
								val = l
							}
						}
						addAssign(v, assign{line: line, value: val, shown: text(a), self: a.Op != syntax.Assgn || slices.Contains(varsRead(a.Y), v), fn: fn, eval: arithValue(v, a), others: othersRead(a.Y, v)})
						found = true
					}
				}
			}
			return true
		})
		return found
	}
	// ariths notes the arithmetic assignments n expands, outside child
	// shells (`case $((fail=0)) in`, a here-document, a redirection).
	ariths := func(n syntax.Node, fn string, line int) {
		syntax.Walk(n, func(n syntax.Node) bool {
			switch e := n.(type) {
			case *syntax.CmdSubst, *syntax.Subshell, *syntax.ProcSubst:
				return false
			case *syntax.ArithmExp:
				arith(e.X, fn, line)
				return false
			}
			return true
		})
	}
	assignWord := func(v string, val *syntax.Word, line, col int, fn string) {
		a := assign{line: line, fn: fn, col: col}
		if val == nil || len(val.Parts) == 0 {
			// `fail=`: empty (a Word with no parts has no position).
			a.eval = assignValue(v, &syntax.Word{})
			addAssign(v, a)
			return
		}
		a.value = text(val)
		ariths(val, fn, line)
		a.self = slices.Contains(varsRead(val), v)
		a.substOnly = a.self && !slices.Contains(varsReadOutsideSubst(val), v)
		a.eval, a.others = assignValue(v, val), othersRead(val, v)
		syntax.Walk(val, func(n syntax.Node) bool {
			if cs, ok := n.(*syntax.CmdSubst); ok {
				a.subst = true
				a.named = a.named || printsName(cs)
				a.nonBlank = a.nonBlank || countsNonBlank(cs)
				syntax.Walk(cs, func(n syntax.Node) bool {
					switch x := n.(type) {
					case *syntax.CallExpr:
						for _, w := range x.Args[min(1, len(x.Args)):] {
							if l, ok := Literal(w); ok {
								a.files = append(a.files, l)
							}
						}
					case *syntax.Redirect:
						if x.Word != nil {
							if l, ok := Literal(x.Word); ok {
								a.files = append(a.files, l)
							}
						}
					}
					return true
				})
			}
			return true
		})
		if len(val.Parts) == 1 {
			if pe, ok := val.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value != v && pe.Exp == nil && pe.Repl == nil && pe.Slice == nil && !pe.Length {
				a.reset = true // a copy of another variable or parameter
			}
		}
		addAssign(v, a)
		if fn == "" {
			for _, r := range varsRead(val) {
				if r != v {
					flows[r] = append(flows[r], counterFlowTo{v, line, col})
				}
			}
		}
	}
	assignNode := func(as *syntax.Assign, fn string) {
		if as.Name == nil || as.Naked {
			return // `export fail`: no value
		}
		line, col := int(as.Pos().Line()), int(as.Pos().Col())
		if as.Index != nil {
			arith(as.Index, fn, line) // `x[fail=0]=1`
			// bash: `fail[0]=0` (and `fail[1-1]=0`) sets the scalar fail
			// (element 0); another element leaves it.
			cfg := staticConfig(&valueEnv{vars: map[string]string{}})
			if i, err := expand.Arithm(cfg, as.Index); err != nil || i != 0 {
				return
			}
		}
		v := as.Name.Value
		switch {
		case as.Array != nil:
			// `fail=(0)`: element 0 is what $fail reads.
			var first *syntax.Word
			if len(as.Array.Elems) > 0 {
				first = as.Array.Elems[0].Value
			}
			assignWord(v, first, line, col, fn)
		case as.Append:
			// `fail+=0` appends text, or adds under declare -i.
			addAssign(v, assign{line: line, value: "(append)", shown: text(as), self: true, fn: fn, eval: appendValue(as.Value, intVars[v])})
		default:
			assignWord(v, as.Value, line, col, fn)
		}
	}
	// inline reads text as script run on line (an eval's words, a trap's
	// action, an alias, `command export fail=0`).
	inline := func(body string, line int, fn string, trap bool) {
		sub, err := syntax.NewParser().Parse(strings.NewReader(body), "")
		if err != nil {
			return
		}
		subFlow := readCounterFlow(sub, body, nil)
		for v, as := range subFlow.assigns {
			for _, a := range as {
				if a.fn != "" {
					continue // defined there, called elsewhere
				}
				a.line, a.fn, a.col, a.trap = line, fn, 0, trap
				addAssign(v, a)
			}
		}
		for _, c := range subFlow.calls {
			if c.fn == "" {
				c.line, c.fn = line, fn
				if trap {
					trapCalls = append(trapCalls, c)
				} else {
					calls = append(calls, c)
				}
			}
		}
	}
	walk = func(n syntax.Node, fn string) {
		syntax.Walk(n, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst:
				return false // a child shell sets nothing here
			case *syntax.ArithmExp:
				arith(x.X, fn, int(x.Pos().Line()))
				return false
			case *syntax.FuncDecl:
				if x.Name != nil && fn == "" {
					funcs[x.Name.Value] = true
					walk(x.Body, x.Name.Value)
					return false
				}
			case *syntax.IfClause:
				bodies := []syntax.Node{}
				for e := x; e != nil; e = e.Else {
					for _, s := range e.Then {
						bodies = append(bodies, s)
					}
				}
				for _, s := range x.Cond {
					condReads(s, fn, int(s.Pos().Line()))
					site(s, fn, int(s.Pos().Line()), false, bodies...)
				}
				markCond(x.Cond...)
			case *syntax.WhileClause:
				for _, s := range x.Cond {
					condReads(s, fn, int(s.Pos().Line()))
					var bodies []syntax.Node
					for _, b := range x.Do {
						bodies = append(bodies, b)
					}
					site(s, fn, int(s.Pos().Line()), false, bodies...)
				}
				markCond(x.Cond...)
			case *syntax.ForClause:
				switch l := x.Loop.(type) {
				case *syntax.WordIter:
					// `for fail in 0`: the loop leaves its last word set.
					if l.Name != nil {
						addAssign(l.Name.Value, assign{line: int(x.Pos().Line()), value: "(for)", fn: fn, reset: true})
					}
				case *syntax.CStyleLoop:
					for _, e := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
						if e != nil {
							arith(e, fn, int(x.Pos().Line()))
						}
					}
				}
			case *syntax.BinaryCmd:
				if x.Op == syntax.AndStmt || x.Op == syntax.OrStmt {
					condReads(x.X, fn, int(x.X.Pos().Line()))
					site(x.X, fn, int(x.X.Pos().Line()), false, x.Y)
					markCond(x.X)
				}
			case *syntax.TestClause:
				condReads(x, fn, int(x.Pos().Line()))
				site(x, fn, int(x.Pos().Line()), errexit || syntax.Node(x) == last)
			case *syntax.ArithmCmd:
				// `(( fail ))` tests it; `((fail++))` marks it.
				if !arith(x.X, fn, int(x.Pos().Line())) {
					condReads(x, fn, int(x.Pos().Line()))
					site(x, fn, int(x.Pos().Line()), errexit || syntax.Node(x) == last)
				}
				return false
			case *syntax.LetClause:
				for _, x := range x.Exprs {
					if !arith(x, fn, int(x.Pos().Line())) {
						condReads(x, fn, int(x.Pos().Line()))
					}
				}
				return false
			case *syntax.DeclClause:
				flags := ""
				for _, as := range x.Args {
					if as.Naked && as.Name == nil && as.Value != nil {
						flags += wordLit(as.Value)
					}
				}
				for _, as := range x.Args {
					if as.Name == nil {
						continue
					}
					if strings.Contains(flags, "i") && strings.HasPrefix(flags, "-") {
						intVars[as.Name.Value] = true
					}
					if strings.Contains(flags, "n") && strings.HasPrefix(flags, "-") && as.Value != nil {
						if to := wordLit(as.Value); syntax.ValidName(to) {
							namerefs[as.Name.Value] = to
						}
						continue
					}
					assignNode(as, fn)
				}
				return false
			case *syntax.CaseClause:
				ariths(x.Word, fn, int(x.Pos().Line()))
			case *syntax.Redirect:
				if x.Op == syntax.AppOut && x.Word != nil && fn != "" {
					if l, ok := Literal(x.Word); ok {
						appends[fn] = append(appends[fn], l)
					}
				}
			case *syntax.CallExpr:
				line := int(x.Pos().Line())
				args := x.Args
				// `command eval ...`, `builtin export ...`: the builtin.
				for len(args) > 1 {
					if l, _ := Literal(args[0]); (l == "command" || l == "builtin") && !strings.HasPrefix(wordLit(args[1]), "-") {
						args = args[1:]
						continue
					}
					break
				}
				for _, as := range x.Assigns {
					// `fail=0`, not `fail=0 cmd`; but before a special
					// builtin (`fail=0 :`) the assignment stays (POSIX).
					if len(args) == 0 || specialBuiltin(wordLit(args[0])) {
						assignNode(as, fn)
					} else if as.Value != nil {
						ariths(as.Value, fn, line)
					}
				}
				for _, a := range args {
					ariths(a, fn, line)
				}
				if len(args) == 0 {
					return false
				}
				name, ok := Literal(args[0])
				if !ok {
					name, _ = expandOnce(args[0]) // `$z` with z=zero
				}
				if body, ok := aliases[name]; ok && wordLit(args[0]) == name {
					rest := ""
					for _, a := range args[1:] {
						rest += " " + text(a)
					}
					inline(body+rest, line, fn, false)
					return false
				}
				switch name {
				case "read":
					for _, v := range readNames(args[1:]) {
						addAssign(v, assign{line: line, value: "(read)", fn: fn, reset: true})
					}
				case "printf", "mapfile", "readarray", "getopts":
					// `printf -v fail %d 0`, `mapfile -t fail`, `getopts
					// : fail`: the name gets a value the judge does not read.
					if v := setByBuiltin(name, args[1:]); v != "" {
						addAssign(v, assign{line: line, value: "(" + name + ")", fn: fn, reset: true})
					} else if v := printfVar(name, args[1:], expandOnce); v != "" {
						addAssign(v, assign{line: line, value: "(" + name + ")", fn: fn, reset: true})
					}
				case "alias":
					for _, a := range args[1:] {
						if l, ok := Literal(a); ok {
							if k, body, ok := strings.Cut(l, "="); ok {
								aliases[k] = body
							}
						}
					}
				case "export", "readonly", "local", "declare", "typeset":
					// Reached as a call only behind `command`.
					var words []string
					for _, a := range args[1:] {
						if l, ok := Literal(a); ok && !strings.HasPrefix(l, "-") {
							words = append(words, shellQuoteAssign(l))
						}
					}
					if len(words) > 0 {
						inline(strings.Join(words, "; "), line, fn, false)
					}
				case "eval", "trap":
					// The text an eval runs, or a trap's action, read as
					// script: literal words, or words whose expansion
					// reads no variable (`eval "fail=$((0))"`).
					var words []string
					for _, a := range args[1:] {
						t, ok := Literal(a)
						if !ok {
							t, ok = expandOnce(a)
						}
						if !ok {
							break
						}
						words = append(words, t)
						if name == "trap" {
							break // the action; the rest are signals
						}
					}
					if len(words) > 0 {
						inline(strings.Join(words, " "), line, fn, name == "trap")
					}
					if name == "eval" {
						calls = append(calls, call{name, fn, line})
					}
				case "[", "test", "exit", "return", "[[":
					condReads(x, fn, line)
					if name == "exit" || name == "return" {
						for _, v := range varsRead(x) {
							exits[v] = true
						}
						site(x, fn, line, true)
						if name == "exit" && (len(args) == 1 || wordLit(args[1]) != "0") && !inChild[x] {
							sites[len(sites)-1].exit = true
						}
						sites[len(sites)-1].ret = name == "return"
					} else if !inCond[x] {
						// A test of its own fails the run as its last
						// statement, or under set -e.
						site(x, fn, line, errexit || syntax.Node(x) == last)
					}
				case ".", "source":
					if text, ok := sourced[line]; ok {
						if sub, err := syntax.NewParser().Parse(strings.NewReader(text), ""); err == nil {
							lib := readCounterFlow(sub, text, nil)
							mergeSourced(lib, line, fn, addAssign, func(v string) { condReadVar(v, fn, line) }, &calls, funcs, fnMarks, fnReads, exits)
							sites = append(sites, condSite{vars: keys(lib.fails), fn: fn, line: line, always: true})
						}
					}
				case "unset":
					for _, a := range args[1:] {
						if v := wordLit(a); v != "" && !strings.HasPrefix(v, "-") {
							addAssign(v, assign{line: line, fn: fn})
						}
					}
				case "":
				default:
					calls = append(calls, call{name, fn, line})
				}
				return false
			}
			return true
		})
	}
	walk(f, "")
	// A function a trap runs: its assignments happen whenever the
	// signal comes (`trap zero USR1`).
	for _, c := range trapCalls {
		for v, as := range assigns {
			for _, a := range as {
				if a.fn == c.name {
					a.line, a.fn, a.col, a.trap = c.line, c.fn, 0, true
					assigns[v] = append(assigns[v], a)
				}
			}
		}
	}
	// A function marks (or reads) what the functions it calls do.
	for changed := true; changed; {
		changed = false
		for _, c := range calls {
			if c.fn == "" || !funcs[c.name] {
				continue
			}
			for _, v := range fnMarks[c.name] {
				if !slices.Contains(fnMarks[c.fn], v) {
					fnMarks[c.fn], changed = append(fnMarks[c.fn], v), true
				}
			}
			for _, v := range fnReads[c.name] {
				if !slices.Contains(fnReads[c.fn], v) {
					fnReads[c.fn], changed = append(fnReads[c.fn], v), true
				}
			}
		}
	}
	ctx := &statusCtx{unread: unreadStatusFns(f, funcs, calls, errexit), errexit: errexit}
	if len(f.Stmts) > 0 {
		ctx.last = f.Stmts[len(f.Stmts)-1]
	}
	fails, fnFails := resolveSites(sites, reads, calls, funcs, assigns, ctx)
	return &counterFlow{assigns, reads, fnMarks, fnReads, calls, funcs, flows, exits, fails, fnFails, below, appends}
}

// mergeSourced puts a sourced library's flow into the script's, at the
// `.` line: its functions as the script's, its top level as that line.
func mergeSourced(lib *counterFlow, line int, fn string, addAssign func(string, counterAssign), condRead func(string),
	calls *[]counterCall, funcs map[string]bool, fnMarks, fnReads map[string][]string, exits map[string]bool) {
	for name := range lib.funcs {
		funcs[name] = true
	}
	for name, vs := range lib.fnMarks {
		for _, v := range vs {
			if !slices.Contains(fnMarks[name], v) {
				fnMarks[name] = append(fnMarks[name], v)
			}
		}
	}
	for name, vs := range lib.fnReads {
		for _, v := range vs {
			if !slices.Contains(fnReads[name], v) {
				fnReads[name] = append(fnReads[name], v)
			}
		}
	}
	for v, as := range lib.assigns {
		for _, a := range as {
			if a.fn == "" {
				a.line, a.fn, a.col = line, fn, 0
			} else {
				a.lib = true
			}
			addAssign(v, a)
		}
	}
	for v := range lib.reads {
		condRead(v)
	}
	for _, c := range lib.calls {
		if c.fn == "" {
			c.line, c.fn = line, fn
		}
		*calls = append(*calls, c)
	}
	for v := range lib.exits {
		exits[v] = true
	}
}

// counterResets lists the 1-based lines of f that reset a failure mark,
// each with why. sourced is as readCounterFlow's.
func counterResets(f *syntax.File, src string, sourced map[int]string) map[int]string {
	fl := readCounterFlow(f, src, sourced)
	// A count saved to a file or $1 and restored (countercarry.go).
	restores := applyCarries(fl, readCarries(f, src))
	assigns, fnMarks, calls, funcs := fl.assigns, fl.fnMarks, fl.calls, fl.funcs
	type assign = counterAssign
	out := map[int]string{}
	// consts: variables set once, at the top level, to a value known
	// without the count (`max=255` before a clamp).
	consts := map[string]string{}
	for w, as := range assigns {
		if len(as) == 1 && as[0].fn == "" && !as[0].trap && as[0].eval != nil && len(as[0].others) == 0 && !as[0].self {
			if val, ok := as[0].eval("", "", nil); ok {
				consts[w] = val
			}
		}
	}
	// IFS set to digits splits every unquoted count to no word at all.
	var ifsDigits []assign
	for _, a := range assigns["IFS"] {
		if a.fn == "" && strings.ContainsAny(a.value, "0123456789") {
			ifsDigits = append(ifsDigits, a)
		}
	}
	for v, as := range assigns {
		var start *assign
		for i := range as {
			if as[i].fn == "" && as[i].value != "" && !as[i].self && !as[i].reset && !as[i].trap {
				start = &as[i]
				break
			}
		}
		if start == nil {
			continue
		}
		// Where the count is marked and read, at the top level.
		var marks []int
		// Only a condition that can fail the run reads the marks.
		readAt := slices.Clone(fl.fails[v])
		var others []assign
		for _, a := range as {
			if a.line != start.line || a.fn != "" || a.trap {
				others = append(others, a)
			}
		}
		own := consts
		if _, ok := consts[v]; ok {
			own = maps.Clone(consts)
			delete(own, v)
		}
		cv := readCounterValues(*start, others, fl.exits[v], fl.below[v], own)
		// A file carries the marks only when a marking helper the script
		// calls appends to it, and no line between that helper's first
		// call and the recount truncates or removes it (`: > f` before
		// `fail=$(wc -l < f)` drops them; one at the top is honest).
		cv.files = map[string]bool{}
		cv.firstMark = 0
		for _, c := range calls {
			if c.fn == "" && slices.Contains(fnMarks[c.name], v) && len(fl.appends[c.name]) > 0 && (cv.firstMark == 0 || c.line < cv.firstMark) {
				cv.firstMark = c.line
			}
		}
		for _, c := range calls {
			if c.fn == "" && slices.Contains(fnMarks[c.name], v) {
				for _, f := range fl.appends[c.name] {
					cv.files[f] = true
				}
			}
		}
		cv.clears = clearedFiles(f, calls)
		cv.blank = blankAppends(f)
		// carried: a reads only variables the count was summed into
		// above it (`total=$((total+fail))` ... `fail=$total`): its value
		// holds the marks.
		carried := func(a assign) bool {
			if a.fn != "" || len(a.others) == 0 {
				return false
			}
			for _, w := range a.others {
				ok := false
				for _, f := range fl.flows[v] {
					ok = ok || (f.to == w && (f.line < a.line || f.line == a.line && f.col < a.col))
				}
				if !ok {
					return false
				}
			}
			return true
		}
		// isReset: a value read as the start's from one the marks reach
		// (round 48: evaluated, however spelled), the start's value
		// spelled so, an unset, or a read or loop that drops the marks.
		isReset := func(a assign) bool {
			if c, ok := restores[v][a.line]; ok && a.fn == "" && !a.trap && a.col == c.col {
				return !cv.restores(c)
			}
			if recountCopy(a, v, fl, cv) {
				return false // `n=$(wc -l < failures.txt); fail=$n`
			}
			if carried(a) && a.eval != nil {
				for _, in := range cv.marked {
					if out, ok := a.eval(in, in, own); ok && cv.asStart(out) {
						return true
					}
				}
				return false
			}
			if _, ok := cv.dropsMarks(a); ok || cv.unknownValue(a) {
				return true
			}
			return !a.self && (a.value == start.value || a.value == "" || a.reset || sameNumber(a.value, start.value))
		}
		// carriedRead: the value carried into f.to is read there: a
		// condition reads f.to (`total=$((total+fail))` before `[ $total
		// -gt 0 ]`), or a later line carries it back into v and keeps it
		// (`fail=$total`, round 47's D3).
		carriedRead := func(f counterFlowTo) bool {
			if len(fl.fails[f.to]) > 0 {
				return true
			}
			for _, b := range as {
				if b.line > f.line && slices.Contains(b.others, f.to) && carried(b) && !isReset(b) && testedAfter(fl, v, b.line) {
					return true
				}
			}
			return false
		}
		for _, f := range fl.flows[v] {
			if carriedRead(f) {
				readAt = append(readAt, f.line)
			}
		}
		for _, a := range as {
			if a.fn != "" || a.trap || a.line == start.line || isReset(a) {
				continue
			}
			if m, known := cv.marks(a); known && !m {
				continue
			} else if !known && !a.self && a.value == start.value {
				continue
			}
			marks = append(marks, a.line)
		}
		for _, c := range calls {
			if c.fn == "" && funcs[c.name] {
				if slices.Contains(fnMarks[c.name], v) {
					marks = append(marks, c.line)
				}
				if slices.Contains(fl.fnFails[c.name], v) {
					readAt = append(readAt, c.line)
				}
			}
		}
		// resetAt: a reset at line l (the assignment, or a call of the
		// function holding it) hides the marks before it.
		resetAt := func(l int) bool {
			last := 0
			for _, m := range marks {
				if m < l && m > last {
					last = m
				}
			}
			if last == 0 {
				return false
			}
			between, after := false, false
			for _, r := range readAt {
				between = between || (r >= last && r < l)
				after = after || r > l
			}
			return !between && after
		}
		for _, a := range ifsDigits {
			if resetAt(a.line) {
				out[a.line] = fmt.Sprintf("it sets IFS to digits (IFS=%s) after the checks above it marked failures in %s and before the test that reads it: an unquoted $%s splits to no word there, and the test reads no failure", a.value, v, v)
			}
		}
		for _, a := range as {
			if (a.fn == "" && a.line <= start.line && !a.trap) || !isReset(a) {
				continue
			}
			set := v + "=" + a.value
			if a.shown != "" {
				set = a.shown
			}
			switch a.value {
			case "":
				set = "unset " + v
			case "(read)":
				set = "read " + v
			case "(for)":
				set = "for " + v + " in ..."
			}
			why := fmt.Sprintf("it sets %s back to its starting value (%s) after the checks above it marked failures in it and before the test that reads it: those failures never fail the run", v, set)
			if a.reset {
				why = fmt.Sprintf("it sets %s to another value (%s) after the checks above it marked failures in it and before the test that reads it: those failures never fail the run", v, set)
			}
			if a.trap {
				// A trap's action runs whenever the signal comes (`kill
				// -s USR1 $$` after the checks): where is not read here.
				out[a.line] = fmt.Sprintf("a trap's action sets %s back (%s): sent the signal after the checks, it drops the failures they marked", v, set)
				continue
			}
			if a.fn == "" {
				// `total=$((total+fail)); fail=0`: read first on its line.
				readFirst := false
				for _, f := range fl.flows[v] {
					readFirst = readFirst || (f.line == a.line && f.col < a.col && carriedRead(f))
				}
				if !readFirst && resetAt(a.line) {
					out[a.line] = why
				}
				continue
			}
			// In a function: where it is called (`reset() { fail=0; }`
			// above, `reset` before the test).
			for _, c := range calls {
				if c.fn == "" && c.name == a.fn && resetAt(c.line) {
					if !a.lib {
						out[a.line] = why
					}
					out[c.line] = why + " (through " + a.fn + ")"
				}
			}
		}
	}
	return out
}

// varsRead names the variables n expands ($v, ${v}, v in arithmetic).
func varsRead(n syntax.Node) []string {
	var out []string
	add := func(v string) {
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ParamExp:
			if x.Param != nil {
				add(x.Param.Value)
			}
		case *syntax.ArithmExp:
			syntax.Walk(x.X, func(n syntax.Node) bool {
				add(arithName(n))
				return true
			})
		case *syntax.ArithmCmd:
			syntax.Walk(x.X, func(n syntax.Node) bool {
				add(arithName(n))
				return true
			})
		}
		return true
	})
	return out
}

// varsReadOutsideSubst names the variables n expands outside command
// and process substitutions (what varsRead finds, less what only a
// child shell's commands read).
func varsReadOutsideSubst(n syntax.Node) []string {
	var out []string
	add := func(v string) {
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	var walk func(n syntax.Node, arith bool)
	walk = func(n syntax.Node, arith bool) {
		syntax.Walk(n, func(m syntax.Node) bool {
			switch x := m.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return false
			case *syntax.ParamExp:
				if x.Param != nil {
					add(x.Param.Value)
				}
			case *syntax.ArithmExp:
				walk(x.X, true)
				return false
			case *syntax.ArithmCmd:
				walk(x.X, true)
				return false
			}
			if arith {
				add(arithName(m))
			}
			return true
		})
	}
	walk(n, false)
	return out
}

// arithName is a bare name in an arithmetic expression (`fail` in
// $((fail+1))).
func arithName(n syntax.Node) string {
	w, ok := n.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return ""
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || l.Value == "" || (l.Value[0] >= '0' && l.Value[0] <= '9') {
		return ""
	}
	for i := 0; i < len(l.Value); i++ {
		c := l.Value[i]
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return ""
		}
	}
	return l.Value
}

// wordLit is a word's text when it is one plain literal, else "".
func wordLit(w *syntax.Word) string {
	if len(w.Parts) != 1 {
		return ""
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok {
		return l.Value
	}
	return ""
}

// arithAssigns: op assigns (the token values are not in one run).
func arithAssigns(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

// specialBuiltin: an assignment before it stays set after it (POSIX
// shells, dash among them).
func specialBuiltin(name string) bool {
	switch name {
	case ":", ".", "eval", "exec", "export", "readonly", "return", "set", "shift", "times", "trap", "unset", "break", "continue", "exit":
		return true
	}
	return false
}

// readNames are the variables a read sets: its words after the options
// (and the options' own arguments).
func readNames(args []*syntax.Word) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		w := wordLit(args[i])
		if strings.HasPrefix(w, "-") {
			if strings.HasSuffix(w, "a") && i+1 < len(args) {
				// -a NAME: bash reads into the array NAME, whose
				// element 0 is what $NAME reads.
				i++
				if n := wordLit(args[i]); n != "" {
					out = append(out, n)
				}
			} else if strings.ContainsAny(w[len(w)-1:], "dnNptu") {
				i++ // -p PROMPT, -d DELIM, -u FD ...
			}
			continue
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// sameNumber: a and b, unquoted, are the same integer (`00` and `0`).
func sameNumber(a, b string) bool {
	x, err1 := strconv.Atoi(strings.Trim(a, `"' `))
	y, err2 := strconv.Atoi(strings.Trim(b, `"' `))
	return err1 == nil && err2 == nil && x == y
}
