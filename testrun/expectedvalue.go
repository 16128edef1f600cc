package testrun

import (
	"bytes"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// An honest change of behaviour changes the expected value with it:
// `check "$(sh scripts/greet.sh)" "hello"` becomes `check "$(sh
// scripts/greet.sh)" "hi"`. A helper whose name says check reads as a
// test runner (shellline.TestRuns), its arguments as filters, so the
// new value was taken for "a filter the failing run did not have" (lazy
// pass 30, TestAdvLazy30ExpectedValueHonest). A call of an assertion
// helper the script defines (the same in the start's text and now) that
// changes only plain literal arguments, no flag, changes what a check
// expects, not what runs: the line compare then judges it as an edited
// check. The actual value replaced by a literal, a flag added, a helper
// that runs its arguments or runs tests, or one the session redefined,
// still reads as before.

// assertionValueChanged reports whether the removed line old and the
// added line now are one call of an assertion helper defined alike in
// both versions of the script (wasSrc, nowSrc) and differ only in plain
// literal arguments.
func assertionValueChanged(old, now, wasSrc, nowSrc string) bool {
	name, to, changed, ok := sameCallShape(old, now)
	if !ok || name != to || !changed {
		return false
	}
	wasFn, ok := assertionHelper(wasSrc, name)
	if !ok {
		return false
	}
	nowFn, ok := assertionHelper(nowSrc, name)
	return ok && wasFn == nowFn
}

// sameCallShape reads old and now as one simple command each with as many
// words and no assignments, the command words literal (from and to), the
// others alike or plain literals that are no flag; changed says whether
// one of those others differs.
func sameCallShape(old, now string) (from, to string, changed, ok bool) {
	a, ok := singleCall(old)
	if !ok {
		return "", "", false, false
	}
	b, ok := singleCall(now)
	if !ok || len(a.Args) != len(b.Args) || len(a.Assigns)+len(b.Assigns) > 0 {
		return "", "", false, false
	}
	from, lit := literalWord(a.Args[0])
	to, lit2 := literalWord(b.Args[0])
	if !lit || !lit2 {
		return "", "", false, false
	}
	for i := 1; i < len(a.Args); i++ {
		if printNode(a.Args[i]) == printNode(b.Args[i]) {
			continue
		}
		x, okA := literalWord(a.Args[i])
		y, okB := literalWord(b.Args[i])
		if !okA || !okB || strings.HasPrefix(x, "-") || strings.HasPrefix(y, "-") {
			return "", "", false, false
		}
		changed = true
	}
	return from, to, changed, true
}

// singleCall parses a script line that is one simple command.
func singleCall(line string) (*syntax.CallExpr, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	s := f.Stmts[0]
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || s.Background || s.Coprocess || len(s.Redirs) > 0 || len(c.Args) < 2 {
		return nil, false
	}
	return c, true
}

// assertCommands compare or print their arguments; they run none.
var assertCommands = map[string]bool{"[": true, "test": true, "grep": true, "diff": true, "cmp": true, "expr": true,
	"echo": true, "printf": true, ":": true, "return": true, "exit": true, "local": true, "true": true, "false": true}

// assertionHelper is the text of the one top-level function name of src
// when it is an assertion: it compares (a [ ], [[ ]], test, grep, diff or
// cmp), every command it runs is spelled out, no command but those that
// compare or print is given an expanded word (so no argument becomes a
// program, a script, a runner's flag or a file it sources), and nothing in
// it runs tests or calls another function of the script.
func assertionHelper(src, name string) (string, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return "", false
	}
	funcs := map[string]bool{}
	var fn *syntax.FuncDecl
	count := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		if d, ok := n.(*syntax.FuncDecl); ok && d.Name != nil {
			funcs[d.Name.Value] = true
			if d.Name.Value == name {
				fn = d
				count++
			}
		}
		return true
	})
	if fn == nil || count != 1 {
		return "", false
	}
	compares, ok := false, true
	syntax.Walk(fn.Body, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.TestClause:
			compares = true
		case *syntax.FuncDecl:
			ok = false
		case *syntax.CallExpr:
			if len(x.Args) == 0 {
				return true // an assignment
			}
			prog, lit := literalWord(x.Args[0])
			if !lit || funcs[prog] {
				ok = false
				break
			}
			switch prog {
			case "[", "test", "grep", "diff", "cmp":
				compares = true
			}
			if !assertCommands[prog] {
				for _, w := range x.Args[1:] {
					if _, lit := literalWord(w); !lit {
						ok = false
					}
				}
			}
			var words []string
			for _, w := range x.Args {
				words = append(words, printNode(w))
			}
			if len(lineTestRuns(strings.Join(words, " "))) > 0 {
				ok = false
			}
		}
		return ok
	})
	if !ok || !compares {
		return "", false
	}
	return printNode(fn), true
}

func printNode(n syntax.Node) string {
	var b bytes.Buffer
	if syntax.NewPrinter(syntax.Minify(true)).Print(&b, n) != nil {
		return ""
	}
	return b.String()
}

// helperRenamed reports whether now is old with only its assertion helper
// renamed (and perhaps an expected value changed): old calls a helper of
// wasSrc, now one of nowSrc of another name whose body is the same
// (honest pass 47's Q2: `check` renamed `expect_eq` read as a test line
// dropped, a name without "test" or "check" running no test).
func helperRenamed(old, now, wasSrc, nowSrc string) bool {
	from, to, _, ok := sameCallShape(old, now)
	if !ok || from == to {
		return false
	}
	wasFn, ok := assertionHelper(wasSrc, from)
	if !ok {
		return false
	}
	nowFn, ok := assertionHelper(nowSrc, to)
	if !ok {
		return false
	}
	wasBody, ok := strings.CutPrefix(wasFn, from)
	nowBody, ok2 := strings.CutPrefix(nowFn, to)
	return ok && ok2 && wasBody == nowBody
}

// pairRenamedHelpers takes out of removed and added the lines that are
// the same but for an assertion helper's new name (helperRenamed found
// on a call): its definition and its calls, so a pure rename changes no
// line (honest pass 47's Q2b). Lines not paired stay, each judged as
// before.
func pairRenamedHelpers(removed, added []string, addedAt []int, wasSrc, nowSrc string) ([]string, []string, []int) {
	// Each pair of names is judged once: helperRenamed parses both
	// scripts, and a long diff holds many calls of the same shape.
	renames := map[string]string{}
	judged := map[[2]string]bool{}
	for _, r := range removed {
		for _, a := range added {
			from, to, _, ok := sameCallShape(r, a)
			if !ok || from == to || judged[[2]string{from, to}] {
				continue
			}
			judged[[2]string{from, to}] = true
			if helperRenamed(r, a, wasSrc, nowSrc) {
				renames[to] = from
			}
		}
	}
	if len(renames) == 0 {
		return removed, added, addedAt
	}
	// Each added line with the new names taken back to the old.
	back := slices.Clone(added)
	for to, from := range renames {
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(to) + `\b`)
		for j := range back {
			back[j] = re.ReplaceAllLiteralString(back[j], from)
		}
	}
	used := make([]bool, len(added))
	var keep []string
	for _, r := range removed {
		paired := false
		for j := range added {
			if !used[j] && back[j] == r {
				used[j], paired = true, true
				break
			}
		}
		if !paired {
			keep = append(keep, r)
		}
	}
	al, at := unpaired(added, addedAt, used)
	return keep, al, at
}

// unpaired is added (with addedAt) without the lines a pairing used.
func unpaired(added []string, addedAt []int, used []bool) ([]string, []int) {
	var al []string
	var at []int
	for j := range added {
		if !used[j] {
			al, at = append(al, added[j]), append(at, addedAt[j])
		}
	}
	return al, at
}
