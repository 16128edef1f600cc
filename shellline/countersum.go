package shellline

import (
	"regexp"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
)

// Per-suite counts: a script that kept one failure count starts it again
// for each suite and adds each suite's count to a total, which the test
// that fails the run now reads (`total=$((total+fail)); fail=0`, then
// `if [ $total -gt 0 ]`). The failure test's line changed from fail to
// total and the line compare read it as a changed check (round 47,
// helper-296's honest pass). It is the same check when every failure
// counted in fail reaches total before fail starts again and before the
// test reads total.

// SumsInto reports whether, in the script src, the variable total carries
// every failure marked in count to the test on line readLine (1-based):
// total starts at 0 once, on the top level, and is otherwise only summed
// (`total=$((total+count))`, a top-level statement) or read (`$total`);
// count is reset (to its starting value, or unset) only on the top level;
// and after each mark of count (an assignment, or a call of a function
// that assigns it) a sum comes before the next reset and before
// readLine. Nothing else may name total (`read total`, `unset total`,
// `eval total=0`), so no spelling this does not read changes it.
func SumsInto(src, total, count string, readLine int) bool {
	if total == count || total == "" || count == "" {
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return false
	}
	sumRE := regexp.MustCompile(`^\$\(\(\s*\$?\{?(` + regexp.QuoteMeta(total) + `|` + regexp.QuoteMeta(count) + `)\}?\s*\+\s*\$?\{?(` + regexp.QuoteMeta(total) + `|` + regexp.QuoteMeta(count) + `)\}?\s*\)\)$`)
	exprRE := exprSumRE(total, count)
	isSum := func(value string) bool {
		m := sumRE.FindStringSubmatch(value)
		if m == nil {
			m = exprRE.FindStringSubmatch(value) // `$(expr $total + $fail)`
		}
		return m != nil && m[1] != m[2]
	}
	// The sums that surely run: assignments that are top-level statements.
	var sums []int
	for _, s := range f.Stmts {
		c, ok := s.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) > 0 || s.Negated || s.Background {
			continue
		}
		for _, as := range c.Assigns {
			if as.Name != nil && as.Name.Value == total && as.Value != nil && isSum(src[as.Value.Pos().Offset():as.Value.End().Offset()]) {
				sums = append(sums, int(s.Pos().Line()))
			}
		}
	}
	// `: $((total+=fail))`, and calls of a function that sums
	// (sumspellings.go).
	sp := readSumSpellings(f, src, total, count, isSum)
	for l := range sp.arith {
		sums = append(sums, l)
	}
	for l := range sp.calls {
		sums = append(sums, l)
	}
	fl := readCounterFlow(f, src, nil)
	started := 0
	for _, a := range fl.assigns[total] {
		switch {
		case started == 0 && a.fn == "" && a.value == "0":
			started = a.line
		case started != 0 && a.fn == "" && a.self && isSum(a.value):
		case started != 0 && a.fn == "" && a.self && a.value == "(arith)" && sp.arith[a.line] > 0:
			sp.arith[a.line]--
		case started != 0 && sp.fns[a.fn] != "":
		default:
			return false // another start, an arithmetic or function assignment, an unset
		}
	}
	if started == 0 || len(sums) == 0 || slices.Min(sums) < started {
		return false
	}
	if !onlyNamedAs(f, total) {
		return false
	}
	// The marks and resets of count.
	var countStart *counterAssign
	var marks, resets []int
	for i, a := range fl.assigns[count] {
		if countStart == nil {
			if a.fn != "" || a.value == "" || a.self {
				return false
			}
			countStart = &fl.assigns[count][i]
			continue
		}
		switch {
		case a.value == countStart.value || a.value == "":
			if a.fn != "" && sp.fns[a.fn] == a.value {
				continue // a sum function's, read at its calls
			}
			if a.fn != "" {
				return false // a reset inside a function: where it runs is not read here
			}
			resets = append(resets, a.line)
		case a.fn == "":
			marks = append(marks, a.line)
		case sp.fns[a.fn] != "":
			return false // a sum function that marks
		}
	}
	if countStart == nil {
		return false
	}
	for _, c := range fl.calls {
		if c.fn == "" && fl.funcs[c.name] && sp.fns[c.name] == "" && slices.Contains(fl.fnMarks[c.name], count) {
			marks = append(marks, c.line)
		}
	}
	for l, n := range sp.calls {
		if sp.fns[n] != "-" {
			resets = append(resets, l) // the sum first, in the function
		}
	}
	lines := strings.Split(src, "\n")
	// summedBefore: a sum runs after the last mark before line l and
	// before l itself (on l's own line, first).
	summedBefore := func(l int, what string) bool {
		last := 0
		for _, m := range marks {
			if m <= l && m > last {
				last = m
			}
		}
		if last == 0 {
			return true
		}
		for _, s := range sums {
			if s < last || s > l {
				continue
			}
			if s == l && l <= len(lines) && sp.calls[l] == "" {
				// `total=$((total+fail)); fail=0`: the sum first.
				t := lines[l-1]
				i := strings.Index(t, total+"=")
				if i < 0 {
					i = strings.Index(t, total+"+=") // `: $((total+=fail))`
				}
				if j := strings.Index(t, what); i < 0 || j < 0 || i > j {
					continue
				}
			}
			if s == last && last != l {
				continue // `check a; total=...` on one line: order unread
			}
			return true
		}
		return false
	}
	for _, r := range resets {
		if !summedBefore(r, count+"=") {
			return false
		}
	}
	// The test reads total where it runs: on its own line at the top
	// level, or, in a function, at each of the function's calls (round
	// 48: `report() { [ $total -gt 0 ] && exit 1; }` defined early and
	// called before the sums tests a total nothing added to yet).
	sites := readSites(f, fl, readLine)
	if len(sites) == 0 {
		return false // a function nothing calls: the test never runs
	}
	for _, s := range sites {
		what := "$" + total
		if s.name != "" {
			what = s.name
		}
		if !summedBefore(s.line, what) {
			return false
		}
	}
	return true
}

// readSite is a top-level line where a read runs: its own (name ""), or
// a call of the function name that runs it.
type readSite struct {
	line int
	name string
}

// readSites lists where line l of f runs, by execution order: l itself
// when it stands outside every function; else each top-level call of
// the function it stands in, through the functions that call it. None
// when no call reaches it.
func readSites(f *syntax.File, fl *counterFlow, l int) []readSite {
	fn := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if fn != "" {
			return false
		}
		if d, ok := n.(*syntax.FuncDecl); ok && d.Name != nil {
			// The outermost function holding l: readCounterFlow reads a
			// nested definition's body as its parent's.
			if int(d.Pos().Line()) <= l && l <= int(d.End().Line()) {
				fn = d.Name.Value
			}
			return false
		}
		return true
	})
	if fn == "" {
		return []readSite{{line: l}}
	}
	var out []readSite
	seen := map[string]bool{fn: true}
	queue := []string{fn}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		for _, c := range fl.calls {
			if c.name != name {
				continue
			}
			if c.fn == "" {
				out = append(out, readSite{c.line, name})
			} else if !seen[c.fn] {
				seen[c.fn] = true
				queue = append(queue, c.fn)
			}
		}
	}
	return out
}

// onlyNamedAs: nothing in f may set name but its plain assignments (which
// readCounterFlow reads): no command that takes a variable's name (`read
// total`, `unset total`, `eval total=0`, `printf -v total`, `declare -n`),
// no loop over it, no assigning expansion (`${total:=1}`), no
// indirection, and no eval, trap or source of text not spelled out.
func onlyNamedAs(f *syntax.File, name string) bool {
	word := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_])`)
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ForClause:
			if w, is := x.Loop.(*syntax.WordIter); is && w.Name != nil && w.Name.Value == name {
				ok = false
			}
		case *syntax.ParamExp:
			if x.Excl {
				ok = false // ${!ref}: any variable
			}
			if x.Param != nil && x.Param.Value == name && x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
				ok = false
			}
		case *syntax.DeclClause:
			// declare, local, readonly, typeset, export: attributes, a
			// second start, or a nameref (`declare -n r=total`).
			for _, as := range x.Args {
				if as.Name != nil && as.Name.Value == name {
					ok = false
				}
				if t, lit := Literal(as.Value); lit && word.MatchString(t) {
					ok = false
				}
			}
		case *syntax.CallExpr:
			if len(x.Args) == 0 {
				return true
			}
			switch cmd, _ := Literal(x.Args[0]); cmd {
			case "eval", "trap", ".", "source":
				for _, a := range x.Args[1:] {
					if t, lit := Literal(a); !lit || word.MatchString(t) {
						ok = false
					}
				}
			case "read", "unset", "printf", "mapfile", "readarray", "getopts", "let", "wait":
				// The name as an argument (`read total`, `printf -v
				// total`, `let total=0`).
				for _, a := range x.Args[1:] {
					if t, lit := Literal(a); lit && (t == name || strings.HasPrefix(t, name+"=")) {
						ok = false
					}
				}
			}
		}
		return ok
	})
	return ok
}

// CounterExits reports whether the script src ends by failing on its own
// failure count: its last top-level statement tests a variable (`exit
// $fail`, `[ "$fail" -eq 0 ]`, `if [ $fail -gt 0 ]; then ... exit 1;
// fi`) that the script marks (directly or through a function it calls)
// and never resets after a mark (counterResets). A script run as a child
// that does so fails when its checks fail.
func CounterExits(src string) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) == 0 {
		return false
	}
	last := f.Stmts[len(f.Stmts)-1]
	text := src[last.Pos().Offset():last.End().Offset()]
	m := counterExitRE.Regexp().FindStringSubmatch(strings.Join(strings.Fields(text), " "))
	if m == nil {
		return false
	}
	v := m[1] + m[2] + m[3]
	if len(counterResets(f, src, nil)) > 0 {
		return false
	}
	fl := readCounterFlow(f, src, nil)
	start := ""
	for _, a := range fl.assigns[v] {
		if start == "" && a.fn == "" && !a.self {
			start = a.value
			continue
		}
		if a.self || (a.value != start && !a.reset && !a.trap && a.value != "" && !sameNumber(a.value, start)) {
			return true // a mark, here or in a function
		}
	}
	for _, c := range fl.calls {
		if c.fn == "" && fl.funcs[c.name] && slices.Contains(fl.fnMarks[c.name], v) {
			return true
		}
	}
	return false
}

var counterExitRE = lazyregexp.New(`^(?:exit "?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?|\[ "?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"? -eq 0 \]|if \[ "?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"? -(?:gt|ne) 0 \]; then (?:[^;]*; )*exit 1;? fi)$`)
