package testrun

import (
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
	"mvdan.cc/sh/v3/syntax"
)

// A failure test spelled another way: `if [ $fail -gt 0 ]; then echo
// ...; exit 1; fi` now `[ "$total" -eq 0 ] || exit 1`, `if [ $total -gt
// 0 ]; then exit 1; else echo ok; fi`, or `[ "$total" -eq 0 ]` as the
// script's last statement (its status is the script's). Each fails the
// run exactly when the count is not 0, whatever it prints (round 48,
// honest pass 51's D1 and D2: per-suite counts summed into a total the
// last line tests in its own form). pairSummedCounts paired only the
// failure test kept word for word.

var countWordRE = lazyregexp.New(`^"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?$`)

// failureTestOf is the variable the line (a statement of the script src)
// fails the run on when it is not 0, "" when line is no such test.
func failureTestOf(line, src string) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 {
		return ""
	}
	s := f.Stmts[0]
	if s.Negated || s.Background || s.Coprocess || len(s.Redirs) > 0 {
		return ""
	}
	switch x := s.Cmd.(type) {
	case *syntax.IfClause:
		v, failsWhenTrue := countTest(line, x.Cond)
		if v == "" || !x.ThenPos.IsValid() {
			return ""
		}
		var elseBody []*syntax.Stmt
		if x.Else != nil {
			if x.Else.ThenPos.IsValid() {
				return "" // an elif
			}
			elseBody = x.Else.Then
		}
		if failsWhenTrue && exitsFailing(line, src, x.Then) && printsOnlyAll(line, src, elseBody) {
			return v
		}
		if !failsWhenTrue && x.Else != nil && printsOnlyAll(line, src, x.Then) && exitsFailing(line, src, elseBody) {
			return v
		}
	case *syntax.BinaryCmd:
		v, failsWhenTrue := countTest(line, []*syntax.Stmt{x.X})
		if v == "" || !exitsFailing(line, src, []*syntax.Stmt{x.Y}) {
			return ""
		}
		if (x.Op == syntax.OrStmt && !failsWhenTrue) || (x.Op == syntax.AndStmt && failsWhenTrue) {
			return v
		}
	case *syntax.CallExpr:
		// A bare test of no failures, the script's last statement, with no
		// trap to run after it.
		v, failsWhenTrue := countTest(line, []*syntax.Stmt{s})
		if v == "" || failsWhenTrue || strings.Contains(src, "trap") {
			return ""
		}
		g, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
		if err != nil || len(g.Stmts) == 0 {
			return ""
		}
		last := g.Stmts[len(g.Stmts)-1]
		if strings.TrimSuffix(strings.TrimSpace(src[last.Pos().Offset():last.End().Offset()]), ";") == strings.TrimSuffix(strings.TrimSpace(line), ";") {
			return v
		}
	}
	return ""
}

// countTest reads cond as one test of a variable against 0 (`[ $v -gt 0
// ]`, `test "$v" -eq 0`): the variable, and whether the test is true on
// failures (-gt, -ne, !=) or on none (-eq, =).
func countTest(line string, cond []*syntax.Stmt) (string, bool) {
	if len(cond) != 1 || cond[0].Negated || cond[0].Background || len(cond[0].Redirs) > 0 {
		return "", false
	}
	c, ok := cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 {
		return "", false
	}
	var words []string
	for _, a := range c.Args {
		words = append(words, line[a.Pos().Offset():a.End().Offset()])
	}
	switch {
	case len(words) == 5 && words[0] == "[" && words[4] == "]":
		words = words[1:4]
	case len(words) == 4 && words[0] == "test":
		words = words[1:]
	default:
		return "", false
	}
	m := countWordRE.FindStringSubmatch(words[0])
	if m == nil || strings.Trim(words[2], `"'`) != "0" {
		return "", false
	}
	switch words[1] {
	case "-gt", "-ne", "!=":
		return m[1], true
	case "-eq", "=":
		return m[1], false
	}
	return "", false
}

// exitsFailing: body prints (shellline.PrintsOnly) and then exits with a
// literal status that is not 0, alone or in a { } group.
func exitsFailing(line, src string, body []*syntax.Stmt) bool {
	if len(body) == 1 {
		if b, ok := body[0].Cmd.(*syntax.Block); ok && !body[0].Negated && !body[0].Background && len(body[0].Redirs) == 0 {
			body = b.Stmts
		}
	}
	if len(body) == 0 || !printsOnlyAll(line, src, body[:len(body)-1]) {
		return false
	}
	last := body[len(body)-1]
	c, ok := last.Cmd.(*syntax.CallExpr)
	if !ok || last.Negated || last.Background || len(last.Redirs) > 0 || len(c.Assigns) > 0 || len(c.Args) != 2 {
		return false
	}
	if name, lit := literalWord(c.Args[0]); !lit || name != "exit" {
		return false
	}
	code, lit := literalWord(c.Args[1])
	if !lit || code == "" || strings.Trim(code, "0123456789") != "" || strings.Trim(code, "0") == "" {
		return false
	}
	return true
}

// printsOnlyAll: each statement of body only prints (an echo of plain
// text, shellline.PrintsOnly in src).
func printsOnlyAll(line, src string, body []*syntax.Stmt) bool {
	for _, s := range body {
		c, ok := s.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return false
		}
		if name, _ := literalWord(c.Args[0]); name != "echo" {
			return false
		}
		if s.Background || s.Coprocess || s.Negated || !shellline.PrintsOnly(strings.TrimSuffix(line[s.Pos().Offset():s.End().Offset()], ";"), src) {
			return false
		}
	}
	return true
}

// pairSummedFailureTests pairs a removed failure test of a count in was
// with an added failure test, in another form (failureTestOf), of the
// same count or of a total the count is summed into
// (shellline.SumsInto; an index below 0 in addedAt: at each line that
// reads as the added one). Paired lines leave both lists.
func pairSummedFailureTests(removed, added []string, addedAt []int, wasSrc, nowSrc string) ([]string, []string, []int) {
	if len(removed) == 0 || len(added) == 0 {
		return removed, added, addedAt
	}
	nowLines := strings.Split(nowSrc, "\n")
	used := make([]bool, len(added))
	var keep []string
	for _, r := range removed {
		v := failureTestOf(r, wasSrc)
		paired := false
		for j, a := range added {
			if v == "" || used[j] {
				break
			}
			t := failureTestOf(a, nowSrc)
			if t == "" || (t != v && !summedAt(nowSrc, nowLines, t, v, a, addedAt[j])) || testedBeforeMarks(nowLines, nowSrc, a, addedAt[j], v, t) {
				continue
			}
			used[j], paired = true, true
			break
		}
		if !paired {
			keep = append(keep, r)
		}
	}
	al, at := unpaired(added, addedAt, used)
	return keep, al, at
}

// testedBeforeMarks: the added failure test a (at index at of nowLines,
// or, below 0, each line that reads as a) comes before a line that may
// mark the count v or the total t (shellline.MarkedAfter): the checks
// after it are tested by nothing.
func testedBeforeMarks(nowLines []string, nowSrc, a string, at int, v, t string) bool {
	if at >= 0 {
		return shellline.MarkedAfter(nowSrc, []string{v, t}, at+1)
	}
	for i, l := range nowLines {
		if strings.TrimSpace(l) == a && shellline.MarkedAfter(nowSrc, []string{v, t}, i+1) {
			return true
		}
	}
	return false
}
