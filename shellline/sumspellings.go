package shellline

import (
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Sums of a per-suite count into its total spelled otherwise than
// `total=$((total+fail))` (round 48): `: $((total+=fail))`, `total=$(expr
// $total + $fail)`, or a function that sums and starts the count again
// (`end_suite() { total=$((total+fail)); fail=0; }`) called after each
// suite. SumsInto reads each as the sum it is.

// exprSumRE is `$(expr $a + $b)` (quotes and braces allowed), a and b
// the total and the count in either order.
func exprSumRE(total, count string) *regexp.Regexp {
	v := `"?\$\{?(` + regexp.QuoteMeta(total) + `|` + regexp.QuoteMeta(count) + `)\}?"?`
	return regexp.MustCompile(`^\$\(\s*expr\s+` + v + `\s+\\?\+\s+` + v + `\s*\)$`)
}

// sumSpellings are the sums of count into total in f not spelled as an
// assignment of `$((total+count))`.
type sumSpellings struct {
	arith map[int]int // line → top-level `: $((total+=count))` statements on it
	// fns: functions whose body is only a sum (an assignment SumsInto's
	// isSum reads) and, when resets, then a reset of count to reset's
	// value, called only as top-level statements of their own.
	fns   map[string]string // function → the value it resets count to, "-" for none
	calls map[int]string    // line → the sum function a top-level statement calls
}

func readSumSpellings(f *syntax.File, src, total, count string, isSum func(string) bool) sumSpellings {
	sp := sumSpellings{arith: map[int]int{}, fns: map[string]string{}, calls: map[int]string{}}
	text := func(n syntax.Node) string { return src[n.Pos().Offset():n.End().Offset()] }
	plainCall := func(s *syntax.Stmt) (*syntax.CallExpr, bool) {
		c, ok := s.Cmd.(*syntax.CallExpr)
		return c, ok && !s.Negated && !s.Background && !s.Coprocess && len(s.Redirs) == 0
	}
	defined := map[string]int{}
	for _, s := range f.Stmts {
		if d, ok := s.Cmd.(*syntax.FuncDecl); ok && d.Name != nil {
			defined[d.Name.Value]++
		}
	}
	for _, s := range f.Stmts {
		switch x := s.Cmd.(type) {
		case *syntax.CallExpr:
			c, ok := plainCall(s)
			if !ok || len(c.Assigns) > 0 || len(c.Args) != 2 || wordLit(c.Args[0]) != ":" || len(c.Args[1].Parts) != 1 {
				continue
			}
			e, ok := c.Args[1].Parts[0].(*syntax.ArithmExp)
			if !ok {
				continue
			}
			if b, ok := e.X.(*syntax.BinaryArithm); ok && b.Op == syntax.AddAssgn && arithName(b.X) == total && arithVar(b.Y) == count {
				sp.arith[int(s.Pos().Line())]++
			}
		case *syntax.FuncDecl:
			if x.Name == nil || defined[x.Name.Value] != 1 {
				continue
			}
			b, ok := x.Body.Cmd.(*syntax.Block)
			if !ok || len(b.Stmts) < 1 || len(b.Stmts) > 2 || len(x.Body.Redirs) > 0 {
				continue
			}
			c, ok := plainCall(b.Stmts[0])
			if !ok || len(c.Args) > 0 || len(c.Assigns) != 1 || c.Assigns[0].Name == nil || c.Assigns[0].Name.Value != total ||
				c.Assigns[0].Value == nil || !isSum(text(c.Assigns[0].Value)) {
				continue
			}
			reset := "-"
			if len(b.Stmts) == 2 {
				c, ok := plainCall(b.Stmts[1])
				if !ok || len(c.Args) > 0 || len(c.Assigns) != 1 || c.Assigns[0].Name == nil || c.Assigns[0].Name.Value != count ||
					c.Assigns[0].Value == nil || wordLit(c.Assigns[0].Value) == "" {
					continue
				}
				reset = wordLit(c.Assigns[0].Value)
			}
			sp.fns[x.Name.Value] = reset
		}
	}
	if len(sp.fns) == 0 {
		return sp
	}
	// Every call of a sum function a top-level statement of its own.
	for _, s := range f.Stmts {
		if c, ok := plainCall(s); ok && len(c.Assigns) == 0 && len(c.Args) == 1 {
			if n := wordLit(c.Args[0]); sp.fns[n] != "" {
				sp.calls[int(s.Pos().Line())] = n
			}
		}
	}
	calledElsewhere := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		for _, a := range c.Args {
			if n := wordLit(a); sp.fns[n] != "" && (a != c.Args[0] || sp.calls[int(c.Pos().Line())] != n) {
				calledElsewhere[n] = true
			}
		}
		return true
	})
	// A line holding another statement besides the call: not read here.
	for l, n := range sp.calls {
		k := 0
		for _, s := range f.Stmts {
			if int(s.Pos().Line()) <= l && int(s.End().Line()) >= l {
				k++
			}
		}
		if k != 1 {
			calledElsewhere[n] = true
		}
	}
	for n := range calledElsewhere {
		delete(sp.fns, n)
	}
	for l, n := range sp.calls {
		if sp.fns[n] == "" {
			delete(sp.calls, l)
		}
	}
	return sp
}

// arithVar is the variable an arithmetic operand names (`fail`, `$fail`,
// `${fail}`), "" otherwise.
func arithVar(n syntax.ArithmExpr) string {
	if v := arithName(n); v != "" {
		return v
	}
	w, ok := n.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return ""
	}
	if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil && pe.Exp == nil && pe.Repl == nil && pe.Slice == nil && pe.Index == nil && !pe.Length && !pe.Excl {
		return pe.Param.Value
	}
	return ""
}

// MarkedAfter reports whether the script src may set one of names after
// line (1-based): an assignment of one, anywhere in the text below it, or
// a call there of a function that assigns one. A failure test placed
// before checks that mark its count tests none of their failures.
func MarkedAfter(src string, names []string, line int) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return true
	}
	fl := readCounterFlow(f, src, nil)
	// A test inside a function runs where the function is called (at
	// the top level, or where a function calling it is): judged at each
	// such line; a function nothing calls tests nothing.
	if fn := enclosingFunc(f, line); fn != "" {
		var at []int
		for _, c := range fl.calls {
			if c.name != fn {
				continue
			}
			if c.fn == "" {
				at = append(at, c.line)
				continue
			}
			for _, d := range fl.calls {
				if d.name == c.fn && d.fn == "" {
					at = append(at, d.line)
				}
			}
		}
		if len(at) == 0 {
			return true
		}
		for _, l := range at {
			if markedAfterLine(fl, names, l) {
				return true
			}
		}
		return false
	}
	return markedAfterLine(fl, names, line)
}

// markedAfterLine: a top-level line after line marks one of names,
// itself or through a function it calls.
func markedAfterLine(fl *counterFlow, names []string, line int) bool {
	for _, n := range names {
		for _, a := range fl.assigns[n] {
			if a.fn == "" && a.line > line {
				return true
			}
		}
	}
	for _, c := range fl.calls {
		if c.line <= line || !fl.funcs[c.name] || c.fn != "" {
			continue
		}
		for _, n := range names {
			if slices.Contains(fl.fnMarks[c.name], n) {
				return true
			}
		}
	}
	return false
}

// enclosingFunc names the top-level function whose body holds line, ""
// for none.
func enclosingFunc(f *syntax.File, line int) string {
	for _, s := range f.Stmts {
		if fd, ok := s.Cmd.(*syntax.FuncDecl); ok && fd.Name != nil && int(fd.Pos().Line()) <= line && int(fd.End().Line()) >= line {
			return fd.Name.Value
		}
	}
	return ""
}
