package shellline

import (
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
)

// PrintsOnly says whether a line of a shell script only prints literal
// text (`echo 'PASS: greet (3 tests)'`, `printf '%s\n' "ok $n"`, to stdout
// or `>&2`): it runs no command and sets no status but 0, so changing or
// removing it cannot make a test script prove less (round 24: an honest
// agent that added checks and updated the printed count was refused).
// body is the script: where it defines or aliases echo or printf, the
// line may run anything and is not judged as a print.
func PrintsOnly(line, body string) bool {
	l := strings.TrimSpace(line)
	for _, r := range []string{"1>&2", ">&2"} {
		if s, ok := strings.CutSuffix(l, r); ok {
			l = strings.TrimSpace(s)
			break
		}
	}
	name, rest, _ := strings.Cut(l, " ")
	if name != "echo" && name != "printf" {
		return false
	}
	// Command substitution, lists, pipes, redirections, a trailing line
	// continuation or a parameter expansion that assigns or exits
	// (${X:=v}, ${X?}) make the line more than a print; printf -v assigns.
	if strings.ContainsAny(rest, "`;&|<>") || strings.HasSuffix(rest, "\\") || strings.Contains(rest, "$(") ||
		(strings.Contains(rest, "${") && strings.ContainsAny(rest, "?=")) ||
		(name == "printf" && strings.HasPrefix(strings.TrimSpace(rest), "-v")) {
		return false
	}
	if name == "printf" && !printfCannotFail(rest) {
		return false
	}
	return !printRedefinedRE.MatchString(body)
}

// numericConvRE is a printf conversion that reads its argument as a
// number (or a * width that does): a word that is not one makes printf
// fail, which under set -e ends the script (round 27, c2).
var numericConvRE = lazyregexp.New(`%[-+ #0]*(\*|[0-9]*)(\.(\*|[0-9]*))?[diouxXeEfFgGaA]|%[-+ #0]*\*`)

// printfCannotFail: printf's words (after the name) are a literal format
// and, when it converts numbers, only literal numbers.
func printfCannotFail(rest string) bool {
	f, err := syntax.NewParser().Parse(strings.NewReader("printf "+rest), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	c, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 2 {
		return ok
	}
	format, ok := Literal(c.Args[1])
	if !ok {
		return false // a format from a variable may convert anything
	}
	if !numericConvRE.MatchString(format) {
		return true
	}
	for _, a := range c.Args[2:] {
		v, ok := Literal(a)
		if !ok || !numberRE.MatchString(v) {
			return false
		}
	}
	return true
}

var numberRE = lazyregexp.New(`^[-+]?[0-9]+(\.[0-9]+)?$`)

var printRedefinedRE = lazyregexp.New(`(?m)(^|[\s;{(])(function\s+(echo|printf)\b|(echo|printf)\s*\(\s*\)|alias\s+(echo|printf)=|enable\s+-n)`)

// OwnLine says whether every line of body that reads line (trimmed) is a
// line of its own: not in a here-doc body, a multi-line word (a quoted
// string, a command substitution) or a command continued over lines. A
// comment or print removed there is data a check compares or part of a
// check (`diff - <<EOF` with `# greeting` or `echo hello` as expected
// output), not a comment or print (issue 25, c13). A body that is not a
// shell program (parse error) judges the line by its text alone.
func OwnLine(line, body string) bool {
	l := strings.TrimSpace(line)
	lines := strings.Split(body, "\n")
	var at []int
	for i, b := range lines {
		if strings.TrimSpace(b) == l {
			at = append(at, i+1)
		}
	}
	if len(at) == 0 {
		return false
	}
	// A line continued from the one before is part of it, comment or not
	// (the parser keeps no node for `\`+newline before a `#`).
	for _, n := range at {
		if n > 1 && strings.HasSuffix(strings.TrimRight(lines[n-2], " \t"), "\\") {
			return false
		}
	}
	f, err := syntax.NewParser(syntax.KeepComments(true)).Parse(strings.NewReader(body), "")
	if err != nil {
		return true
	}
	joined := map[uint]bool{}
	span := func(a, b syntax.Pos) {
		for n := a.Line(); n <= b.Line() && b.Line() > a.Line(); n++ {
			joined[n] = true
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Word:
			span(x.Pos(), x.End())
		case *syntax.Redirect:
			if x.Hdoc != nil {
				// The body lines, and the line the here-doc starts on.
				span(x.Pos(), x.Hdoc.End())
			}
		case *syntax.Stmt:
			switch x.Cmd.(type) {
			case *syntax.CallExpr, *syntax.BinaryCmd, *syntax.DeclClause, *syntax.TestClause, *syntax.ArithmCmd, *syntax.LetClause:
				span(x.Pos(), x.End())
			}
		}
		return true
	})
	for _, n := range at {
		if joined[uint(n)] {
			return false
		}
	}
	return true
}
