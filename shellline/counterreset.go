package shellline

import (
	"fmt"
	"slices"
	"strings"

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

// counterResets lists the 1-based lines of f that reset a failure mark,
// each with why.
func counterResets(f *syntax.File, src string) map[int]string {
	text := func(n syntax.Node) string {
		a, b := int(n.Pos().Offset()), int(n.End().Offset())
		if a < 0 || b > len(src) || a > b {
			return ""
		}
		return src[a:b]
	}
	type assign struct {
		line  int
		value string // "" for unset
		self  bool   // the value reads the variable (a count)
		fn    string // the function it stands in, "" at the top level
	}
	assigns := map[string][]assign{}
	reads := map[string][]int{}      // condition reads at the top level, by line
	fnMarks := map[string][]string{} // function → variables it assigns
	fnReads := map[string][]string{} // function → variables its conditions read
	type call struct {
		name, fn string
		line     int
	}
	var calls []call
	funcs := map[string]bool{}

	var walk func(n syntax.Node, fn string)
	condReads := func(n syntax.Node, fn string, line int) {
		for _, v := range varsRead(n) {
			if fn == "" {
				reads[v] = append(reads[v], line)
			} else if !slices.Contains(fnReads[fn], v) {
				fnReads[fn] = append(fnReads[fn], v)
			}
		}
	}
	addAssign := func(name string, a assign) {
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
			case *syntax.UnaryArithm:
				if a.Op == syntax.Inc || a.Op == syntax.Dec {
					if v := arithName(a.X); v != "" {
						addAssign(v, assign{line: line, value: "(arith)", self: true, fn: fn})
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
						addAssign(v, assign{line: line, value: val, self: a.Op != syntax.Assgn || slices.Contains(varsRead(a.Y), v), fn: fn})
						found = true
					}
				}
			}
			return true
		})
		return found
	}
	assignNode := func(as *syntax.Assign, fn string) {
		if as.Name == nil || as.Index != nil || as.Array != nil || as.Append {
			return
		}
		v := as.Name.Value
		val := ""
		if as.Value != nil {
			val = text(as.Value)
			syntax.Walk(as.Value, func(n syntax.Node) bool {
				if e, ok := n.(*syntax.ArithmExp); ok {
					arith(e.X, fn, int(as.Pos().Line()))
				}
				return true
			})
		}
		if as.Naked {
			return // `export fail`: no value
		}
		addAssign(v, assign{line: int(as.Pos().Line()), value: val, self: as.Value != nil && slices.Contains(varsRead(as.Value), v), fn: fn})
	}
	walk = func(n syntax.Node, fn string) {
		syntax.Walk(n, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.FuncDecl:
				if x.Name != nil && fn == "" {
					funcs[x.Name.Value] = true
					walk(x.Body, x.Name.Value)
					return false
				}
			case *syntax.IfClause:
				for _, s := range x.Cond {
					condReads(s, fn, int(s.Pos().Line()))
				}
			case *syntax.WhileClause:
				for _, s := range x.Cond {
					condReads(s, fn, int(s.Pos().Line()))
				}
			case *syntax.BinaryCmd:
				if x.Op == syntax.AndStmt || x.Op == syntax.OrStmt {
					condReads(x.X, fn, int(x.X.Pos().Line()))
				}
			case *syntax.TestClause:
				condReads(x, fn, int(x.Pos().Line()))
			case *syntax.ArithmCmd:
				// `(( fail ))` tests it; `((fail++))` marks it.
				if !arith(x.X, fn, int(x.Pos().Line())) {
					condReads(x, fn, int(x.Pos().Line()))
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
				for _, as := range x.Args {
					assignNode(as, fn)
				}
				return false
			case *syntax.CallExpr:
				for _, as := range x.Assigns {
					if len(x.Args) == 0 { // `fail=0`, not `fail=0 cmd`
						assignNode(as, fn)
					}
				}
				if len(x.Args) == 0 {
					return true
				}
				name := wordLit(x.Args[0])
				line := int(x.Pos().Line())
				switch name {
				case "[", "test", "exit", "return", "[[":
					condReads(x, fn, line)
				case "unset":
					for _, a := range x.Args[1:] {
						if v := wordLit(a); v != "" && !strings.HasPrefix(v, "-") {
							addAssign(v, assign{line: line, fn: fn})
						}
					}
				case "":
				default:
					calls = append(calls, call{name, fn, line})
				}
				for _, a := range x.Args {
					syntax.Walk(a, func(n syntax.Node) bool {
						if e, ok := n.(*syntax.ArithmExp); ok {
							arith(e.X, fn, line)
						}
						return true
					})
				}
				return false
			}
			return true
		})
	}
	walk(f, "")
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
	out := map[int]string{}
	for v, as := range assigns {
		var start *assign
		for i := range as {
			if as[i].fn == "" && as[i].value != "" && !as[i].self {
				start = &as[i]
				break
			}
		}
		if start == nil {
			continue
		}
		// Where the count is marked and read, at the top level.
		var marks []int
		readAt := slices.Clone(reads[v])
		for _, a := range as {
			if a.fn == "" && a.line != start.line && (a.self || a.value != start.value) {
				marks = append(marks, a.line)
			}
		}
		for _, c := range calls {
			if c.fn == "" && funcs[c.name] {
				if slices.Contains(fnMarks[c.name], v) {
					marks = append(marks, c.line)
				}
				if slices.Contains(fnReads[c.name], v) {
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
		for _, a := range as {
			if (a.fn == "" && a.line <= start.line) || (a.value != start.value && a.value != "") {
				continue
			}
			set := v + "=" + a.value
			if a.value == "" {
				set = "unset " + v
			}
			why := fmt.Sprintf("it sets %s back to its starting value (%s) after the checks above it marked failures in it and before the test that reads it: those failures never fail the run", v, set)
			if a.fn == "" {
				if resetAt(a.line) {
					out[a.line] = why
				}
				continue
			}
			// In a function: where it is called (`reset() { fail=0; }`
			// above, `reset` before the test).
			for _, c := range calls {
				if c.fn == "" && c.name == a.fn && resetAt(c.line) {
					out[a.line], out[c.line] = why, why+" (through "+a.fn+")"
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
