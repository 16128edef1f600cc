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
// ok is false when it does not parse.
func shellStmts(src string) ([]shellStmt, bool) {
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
	a, ok := shellStmts(was)
	if !ok {
		return nil
	}
	b, ok := shellStmts(now)
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
