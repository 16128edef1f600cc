package testrun

import (
	"bytes"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"reflect"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A person refactoring a test script lays a one-line function out over
// lines, splits a long check with a backslash, quotes a plain word
// (`hello` -> `"hello"`): the same program. The line compare took each for
// a changed check (round 26 left open; round 27, c2). The script is read
// as statements: each top-level statement printed with positions and
// comments dropped and plain words spelt one way; a statement that prints
// the same in both versions is unchanged whatever its lines, and only the
// lines of statements that changed go to the line compare.

// shellStmt is one top-level statement of a script: its canonical print,
// its lines (1-based, here-doc bodies included), and whether it is
// control (exit, set, cd, trap, ...): a statement moved across one may
// run where it did not, or not at all.
type shellStmt struct {
	canon    string
	from, to int
	control  bool
}

var posType = reflect.TypeOf(syntax.Pos{})

// onePos is where zeroPositions puts every valid position.
var onePos = syntax.NewPos(0, 1, 1)

// plainWordRE: a word that means the same quoted or not (no glob, brace,
// tilde, assignment, expansion or escape).
var plainWordRE = lazyregexp.New(`^[A-Za-z0-9_./:,@%+-]+$`)

var reserved = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true, "done": true,
	"case": true, "esac": true, "while": true, "until": true, "for": true, "in": true, "function": true, "select": true, "time": true, "coproc": true}

// shellStmts parses src as a shell program into its top-level statements;
// ok is false when it does not parse. messages: an echo's text to the
// terminal is spelt one way (printedText), for the weakening compare,
// where a message proves nothing; elsewhere a changed message is a change.
func shellStmts(src string, messages bool) ([]shellStmt, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, false
	}
	out := make([]shellStmt, len(f.Stmts))
	for i, s := range f.Stmts {
		to := int(s.End().Line())
		syntax.Walk(s, func(n syntax.Node) bool {
			if r, ok := n.(*syntax.Redirect); ok && r.Hdoc != nil && int(r.Hdoc.End().Line()) > to {
				to = int(r.Hdoc.End().Line())
			}
			return true
		})
		out[i] = shellStmt{from: int(s.Pos().Line()), to: to, control: isControl(s)}
	}
	plainWords(f)
	if messages && !printRedefinedRE.MatchString(src) {
		printedText(f)
	}
	zeroPositions(f)
	p := syntax.NewPrinter()
	for i, s := range f.Stmts {
		var b bytes.Buffer
		if err := p.Print(&b, s); err != nil {
			return nil, false
		}
		out[i].canon = b.String()
	}
	return out, true
}

// isControl: a statement that ends the script, moves it or changes how
// later commands fail (not inside a function's body: a definition runs
// nothing).
func isControl(s *syntax.Stmt) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FuncDecl:
			return false
		case *syntax.CallExpr:
			if len(x.Args) > 0 {
				switch x.Args[0].Lit() {
				case "exit", "exec", "return", "set", "trap", "cd", "pushd", "popd", "source", ".", "shift", "eval", "unset", "alias", "shopt":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// plainWords spells every word whose text is plain (plainWordRE) once
// quoted or not as a bare word, and other literal words single-quoted;
// words with expansions, escapes, globs and an =~ operand stay as
// written.
func plainWords(f *syntax.File) {
	skip := map[*syntax.Word]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.BinaryTest:
			if x.Op == syntax.TsReMatch {
				if w, ok := x.Y.(*syntax.Word); ok {
					skip[w] = true
				}
			}
		case *syntax.Word:
			if !skip[x] {
				if v, ok := literalValue(x); ok {
					switch {
					case plainWordRE.MatchString(v) && !reserved[v]:
						x.Parts = []syntax.WordPart{&syntax.Lit{Value: v}}
					case !strings.Contains(v, "'"):
						x.Parts = []syntax.WordPart{&syntax.SglQuoted{Value: v}}
					}
				}
			}
		}
		return true
	})
}

// printRedefinedRE: a script that defines or aliases echo, where an echo
// line may run anything.
var printRedefinedRE = lazyregexp.New(`(?m)(^|[\s;{(])(function\s+echo\b|echo\s*\(\s*\)|alias\s+echo=|enable\s+-n)`)

// printedText spells the words of every echo a reader only sees one way:
// an echo whose output goes to the terminal (stdout or >&2, not into a
// command substitution, a pipe or a file) and whose words expand nothing
// that runs, assigns or exits. Its text proves nothing, so a statement
// whose only change is a message is unchanged (lazy pass 43, HX19: a test
// helper's one-line check() got a better FAIL message, and the QA gate
// read a changed check).
func printedText(f *syntax.File) {
	inFuncs := !capturesFunction(f)
	var walk func(n syntax.Node, consumed bool)
	walk = func(n syntax.Node, consumed bool) {
		syntax.Walk(n, func(c syntax.Node) bool {
			switch x := c.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return false // output read by the script: as written
			case *syntax.FuncDecl:
				return inFuncs
			case *syntax.BinaryCmd:
				if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
					walk(x.X, true)
					walk(x.Y, consumed)
					return false
				}
			case *syntax.Stmt:
				if call, ok := x.Cmd.(*syntax.CallExpr); ok && !consumed && terminalRedirs(x.Redirs) && len(call.Assigns) == 0 && isPlainEcho(call) {
					call.Args = []*syntax.Word{call.Args[0], {Parts: []syntax.WordPart{&syntax.Lit{Value: "TEXT"}}}}
					x.Redirs = nil // stdout or stderr: the terminal either way
					return false
				}
			}
			return true
		})
	}
	walk(f, false)
}

// capturesFunction reports whether the script reads the output of one of
// its own functions (a call in a command substitution, a process
// substitution or before a pipe): an echo in a function body may then be
// what a check compares (`expected() { echo hello; }`).
func capturesFunction(f *syntax.File) bool {
	funcs := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if d, ok := n.(*syntax.FuncDecl); ok && d.Name != nil {
			funcs[d.Name.Value] = true
		}
		return true
	})
	if len(funcs) == 0 {
		return false
	}
	found := false
	calls := func(n syntax.Node) {
		syntax.Walk(n, func(c syntax.Node) bool {
			if x, ok := c.(*syntax.CallExpr); ok && len(x.Args) > 0 && funcs[x.Args[0].Lit()] {
				found = true
			}
			return !found
		})
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			calls(x)
		case *syntax.ProcSubst:
			calls(x)
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
				calls(x.X)
			}
		}
		return !found
	})
	return found
}

// terminalRedirs: no redirection, or only stdout to stderr.
func terminalRedirs(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if !(r.Op == syntax.DplOut && r.Word != nil && r.Word.Lit() == "2" && (r.N == nil || r.N.Value == "1")) {
			return false
		}
	}
	return true
}

// isPlainEcho: `echo WORDS` whose words expand only parameters without
// assigning or exiting (no command or arithmetic substitution, no
// ${X:=v} or ${X?}).
func isPlainEcho(c *syntax.CallExpr) bool {
	if len(c.Args) == 0 || c.Args[0].Lit() != "echo" {
		return false
	}
	ok := true
	for _, w := range c.Args[1:] {
		syntax.Walk(w, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob:
				ok = false
			case *syntax.ParamExp:
				if x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull || x.Exp.Op == syntax.ErrorUnset || x.Exp.Op == syntax.ErrorUnsetOrNull) {
					ok = false
				}
			}
			return ok
		})
	}
	return ok
}

// literalValue is a word's value when every part is literal: a bare part
// with nothing the shell would expand, a single-quoted part, or a
// double-quoted part of plain text.
func literalValue(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(x.Value, "\\*?[]{}~=") {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			if x.Dollar {
				return "", false
			}
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.ContainsAny(l.Value, "\\$`") {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), len(w.Parts) > 0
}

// zeroPositions puts every position in the tree on one place, so the
// printer lays the program out its own way, whatever the source's line
// breaks.
func zeroPositions(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		v := reflect.ValueOf(n)
		if !v.IsValid() || v.Kind() != reflect.Pointer || v.IsNil() {
			return true
		}
		e := v.Elem()
		if e.Kind() != reflect.Struct {
			return true
		}
		for i := 0; i < e.NumField(); i++ {
			// A position the printer reads as a flag (a for's `in`, an
			// elif's then) stays valid: one place for all of them.
			if fd := e.Field(i); fd.Type() == posType && fd.CanSet() && fd.Interface().(syntax.Pos).IsValid() {
				fd.Set(reflect.ValueOf(onePos))
			}
		}
		return true
	})
}

// keptStmts is what the statement compare leaves out of the line compare.
type keptStmts struct {
	wasLines, nowLines map[int]bool // 1-based lines only kept statements cover
	was                []string     // was's lines
	moved              string       // a statement moved across a control statement
}

// keepStatements pairs was's and now's top-level statements that print
// the same, in order (longest common subsequence); nil when either does
// not parse.
func keepStatements(was, now string) *keptStmts {
	a, ok := shellStmts(was, false)
	if !ok {
		return nil
	}
	b, ok := shellStmts(now, false)
	if !ok || len(a)*len(b) > 1<<20 {
		return nil
	}
	// lcs[i][j]: the common subsequence's length of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i].canon == b[j].canon {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	ka, kb := make([]bool, len(a)), make([]bool, len(b))
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].canon == b[j].canon:
			ka[i], kb[j] = true, true
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	k := &keptStmts{wasLines: keptLines(a, ka), nowLines: keptLines(b, kb), was: strings.Split(was, "\n")}
	k.moved = movedAcrossControl(a, b)
	// An exit added above statements the start had (`exit $fail` put
	// before the checks, while fail is still 0) ends the script before
	// them, whatever its status word says.
	for j, s := range b {
		if kb[j] || !earlyExit(s.canon) {
			continue
		}
		for j2 := j + 1; j2 < len(b) && k.moved == ""; j2++ {
			if kb[j2] && !b[j2].control {
				k.moved = b[j2].canon
			}
		}
	}
	return k
}

// earlyExit: a statement that is `exit` or `return` with no status, or a
// status that is not a literal failure.
func earlyExit(canon string) bool {
	f := strings.Fields(canon)
	if len(f) == 0 || f[0] != "exit" && f[0] != "return" || len(f) > 2 {
		return false
	}
	if len(f) == 1 {
		return true
	}
	n, err := strconv.Atoi(f[1])
	return err != nil || n == 0
}

// keptLines is the lines only kept statements cover.
func keptLines(ss []shellStmt, kept []bool) map[int]bool {
	out, bad := map[int]bool{}, map[int]bool{}
	for i, s := range ss {
		for l := s.from; l <= s.to; l++ {
			if kept[i] {
				out[l] = true
			} else {
				bad[l] = true
			}
		}
	}
	for l := range bad {
		delete(out, l)
	}
	return out
}

// movedAcrossControl is a statement of both versions that has a different
// run of control statements before it (`exit $fail` moved above the
// checks), when the control statements themselves are the same in both;
// "" for none. An added or removed control statement is judged as an
// added or removed line.
func movedAcrossControl(a, b []shellStmt) string {
	ctl := func(ss []shellStmt) (seq []string, before map[string]string) {
		before = map[string]string{}
		for _, s := range ss {
			if s.control {
				seq = append(seq, s.canon)
				continue
			}
			if _, ok := before[s.canon]; !ok {
				before[s.canon] = strings.Join(seq, "\x00")
			}
		}
		return seq, before
	}
	sa, ba := ctl(a)
	sb, bb := ctl(b)
	if len(sa) == 0 || strings.Join(sa, "\x00") != strings.Join(sb, "\x00") {
		return ""
	}
	for _, s := range a {
		if x, ok := bb[s.canon]; ok && !s.control && x != ba[s.canon] {
			return s.canon
		}
	}
	return ""
}

// wasKept: every line of was that reads line (trimmed) is in a kept
// statement.
func (k *keptStmts) wasKept(line string) bool {
	n := 0
	for i, l := range k.was {
		if strings.TrimSpace(l) == line {
			if !k.wasLines[i+1] {
				return false
			}
			n++
		}
	}
	return n > 0
}
