package testrun

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A check moved into a function nothing calls never runs, yet each of its
// lines is still in the script: the line compare counted it as kept and
// the statement compare pairs only top-level statements (round 27 c2's
// open row; round 28, c4, TestInputsCheckMovedIntoUncalledFunction28).
// The lines of such functions leave the line compare on both sides, so a
// check that was live at the start and sits in one now reads as removed.

// deadFuncLines lists the 1-based lines of src's top-level function
// definitions that no live code names: not the top level outside the
// definitions, nor a live function's body (a name counts wherever it
// appears as a word: a call, `f=name`, an eval's or trap's string). Nil
// when src does not parse, or when the top level runs a command word it
// does not spell (`"$@"`, `$cmd`): that may be any function.
//
// With them, the lines nothing ever runs (neverrun.go): a branch whose
// condition is a constant, a here-document or quoted word nothing runs.
func deadFuncLines(src string) map[int]bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil
	}
	out := neverRunLines(f, src)
	for l := range uncalledFuncLines(f, strings.Split(src, "\n")) {
		out[l] = true
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// uncalledFuncLines is deadFuncLines' functions nothing calls.
func uncalledFuncLines(f *syntax.File, lines []string) map[int]bool {
	type fn struct {
		name     string
		from, to int
	}
	var fns []fn
	inFn := map[int]bool{}
	for _, s := range f.Stmts {
		if d, ok := s.Cmd.(*syntax.FuncDecl); ok && d.Name != nil {
			x := fn{d.Name.Value, int(s.Pos().Line()), int(s.End().Line())}
			fns = append(fns, x)
			for l := x.from; l <= x.to; l++ {
				inFn[l] = true
			}
			continue
		}
		dynamic := false
		syntax.Walk(s, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
				if _, lit := literalWord(c.Args[0]); !lit {
					dynamic = true
				}
			}
			return !dynamic
		})
		if dynamic {
			return nil
		}
	}
	if len(fns) == 0 {
		return nil
	}
	// text is lines from..to; the top level (from 0) without the
	// definitions' lines.
	text := func(from, to int) string {
		var b strings.Builder
		for l := max(from, 1); l <= to && l <= len(lines); l++ {
			// A comment naming a function calls nothing (round 47,
			// helper-298's A4: "# check_legacy checked the old script").
			if from == 0 && inFn[l] || strings.HasPrefix(strings.TrimSpace(lines[l-1]), "#") {
				continue
			}
			b.WriteString(lines[l-1])
			b.WriteByte('\n')
		}
		return b.String()
	}
	res := make([]*regexp.Regexp, len(fns)) // at the gate only, one per definition
	for i, x := range fns {
		res[i] = regexp.MustCompile(`(^|[^A-Za-z0-9_.-])` + regexp.QuoteMeta(x.name) + `($|[^A-Za-z0-9_.-])`)
	}
	live := map[string]bool{}
	queue := []string{text(0, len(lines))} // the top level
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		for i, x := range fns {
			if !live[x.name] && res[i].MatchString(t) {
				live[x.name] = true
				queue = append(queue, text(x.from, x.to))
			}
		}
	}
	out := map[int]bool{}
	for _, x := range fns {
		if !live[x.name] {
			for l := x.from; l <= x.to; l++ {
				out[l] = true
			}
		}
	}
	return out
}

// literalWord is a word's text when it has no expansion.
func literalWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// ChecksMadeDead is a line of the shell script p that ran at the start
// (was) and now stands only in a function nothing calls, "" for none:
// verify's rerun guard reads its patch, where such a move is lines added
// around the check (TestInputsCheckMovedIntoUncalledFunction28).
func ChecksMadeDead(p, was, now string) string {
	if !isShellScript(p, was) {
		return ""
	}
	deadNow := deadFuncLines(now)
	if len(deadNow) == 0 {
		return ""
	}
	deadWas := deadFuncLines(was)
	live := map[string]int{}
	for i, l := range strings.Split(was, "\n") {
		if k := strings.TrimSpace(l); k != "" && !deadWas[i+1] && !strings.HasPrefix(k, "#") {
			live[k]++
		}
	}
	var moved []string
	for i, l := range strings.Split(now, "\n") {
		k := strings.TrimSpace(l)
		if deadNow[i+1] && live[k] > 0 {
			moved = append(moved, k)
		} else if !deadNow[i+1] {
			live[k]--
		}
	}
	for _, k := range moved {
		if live[k] > 0 && k != "}" && k != "{" {
			return k
		}
	}
	return ""
}
