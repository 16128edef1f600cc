package shellline

import (
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Round 48: a reset is a value, not a spelling. Round 47 listed the
// spellings of "fail back to 0" (`fail=00`, `fail="0"`, `read fail`...)
// and helper 299 found sixteen more (`fail=""`, `fail=$((0))`,
// `fail=$((fail*0))`, `fail=${fail#?}`, `fail=$(echo 0)`, `fail=\0`,
// `: $((fail*=0))`, `fail=$((fail<<8))` before `exit $fail`...). So the
// rule now asks what value an assignment gives the variable: the
// assignment is evaluated (mvdan.cc/sh's expand package: parameter
// expansions, arithmetic, quoting) with the variable at each value the
// script's marks can reach from its start; one that takes a marked value
// back to one the failure test reads as the start is a reset, however
// it is spelled.

// errUnknownCommand: a command substitution whose output is not known
// without running it.
var errUnknownCommand = errors.New("command output not known")

// valueEnv is a write environment over a map: the variable being judged
// and, when others is set, every other name at that value.
type valueEnv struct {
	vars   map[string]string
	others string
	// set: other names count as set (at others)
	set bool
	// consts: variables the script sets once, to a known value
	consts map[string]string
}

func (e *valueEnv) Get(name string) expand.Variable {
	if v, ok := e.vars[name]; ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: v}
	}
	if v, ok := e.consts[name]; ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: v}
	}
	if e.set && syntax.ValidName(name) && name != "IFS" {
		return expand.Variable{Set: true, Kind: expand.String, Str: e.others}
	}
	return expand.Variable{}
}

func (e *valueEnv) Each(func(string, expand.Variable) bool) {}

func (e *valueEnv) Set(name string, vr expand.Variable) error {
	if !vr.IsSet() {
		delete(e.vars, name)
		return nil
	}
	e.vars[name] = vr.String()
	return nil
}

// staticCmdSubst expands the command substitutions whose output is
// known without running anything: `$(echo 0)`, `$(printf %d 0)`,
// `$(true)`, `$(:)`.
func staticCmdSubst(cfg *expand.Config) func(io.Writer, *syntax.CmdSubst) error {
	return func(w io.Writer, cs *syntax.CmdSubst) error {
		if len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 || cs.Stmts[0].Background || cs.Stmts[0].Negated {
			return errUnknownCommand
		}
		// A pipeline from a known output through filters whose output
		// is known too (round 49: `echo "$fail" | tr -d ' '` keeps the
		// count, `| tr -d 0-9` blanks it).
		if stages := pipeStages(cs.Stmts[0]); len(stages) > 1 {
			var b strings.Builder
			first := &syntax.CmdSubst{Stmts: []*syntax.Stmt{{Cmd: stages[0]}}}
			if err := staticCmdSubst(cfg)(&b, first); err != nil {
				return err
			}
			out := b.String()
			_, inErr := strconv.ParseInt(strings.TrimSpace(out), 10, 64)
			for _, st := range stages[1:] {
				inner := &expand.Config{Env: cfg.Env, CmdSubst: cfg.CmdSubst, ProcSubst: cfg.ProcSubst}
				args, err := expand.Fields(inner, st.Args...)
				if err != nil || len(st.Assigns) > 0 {
					return errUnknownCommand
				}
				if len(args) == 0 {
					return errUnknownCommand
				}
				// textfilters' filters, reading no file.
				var ok bool
				out, ok = filterText(args, out, true, func(string) (string, bool) { return "", false })
				if !ok || len(out) > maxFilterText {
					return errUnknownCommand
				}
			}
			// A number filtered into text that is none (`sed 's/^/0*/'`
			// gives 0*1, which $((fail)) reads as 0): what a failure test
			// makes of it is not the count's value, so it is unknown.
			if _, err := strconv.ParseInt(strings.TrimSpace(out), 10, 64); inErr == nil && err != nil && strings.TrimSpace(out) != "" {
				return errUnknownCommand
			}
			_, err := io.WriteString(w, out)
			return err
		}
		call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
			return errUnknownCommand
		}
		// A config of its own: cfg's string builder holds the output.
		inner := &expand.Config{Env: cfg.Env, CmdSubst: cfg.CmdSubst, ProcSubst: cfg.ProcSubst}
		args, err := expand.Fields(inner, call.Args...)
		if err != nil || len(args) == 0 {
			return errUnknownCommand
		}
		switch args[0] {
		case "true", ":", "false":
			return nil
		case "expr":
			out, ok := exprValue(args[1:])
			if !ok {
				return errUnknownCommand
			}
			_, err := io.WriteString(w, out+"\n")
			return err
		case "echo":
			rest, nl := args[1:], "\n"
			if len(rest) > 0 && rest[0] == "-n" {
				rest, nl = rest[1:], ""
			}
			_, err := io.WriteString(w, strings.Join(rest, " ")+nl)
			return err
		case "printf":
			if len(args) < 2 {
				return errUnknownCommand
			}
			out, _, err := expand.Format(inner, args[1], args[2:])
			if err != nil {
				return err
			}
			_, err = io.WriteString(w, out)
			return err
		}
		return errUnknownCommand
	}
}

// pipeStages is st's pipeline (`a | b | c`) as its calls, each a plain
// command with no redirection; nil for anything else.
func pipeStages(st *syntax.Stmt) []*syntax.CallExpr {
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(st.Redirs) > 0 || st.Background || st.Negated || len(x.Args) == 0 {
			return nil
		}
		return []*syntax.CallExpr{x}
	case *syntax.BinaryCmd:
		if x.Op != syntax.Pipe || len(st.Redirs) > 0 || st.Background || st.Negated {
			return nil
		}
		l, r := pipeStages(x.X), pipeStages(x.Y)
		if l == nil || r == nil {
			return nil
		}
		return append(l, r...)
	}
	return nil
}

// valueEval gives what an assignment sets name to when name held in
// before it; others is the value of every other variable ("" unset)
// but consts, the ones the script sets once to a known value. ok is
// false when the value is not known without running a command.
type valueEval func(in, others string, consts map[string]string) (out string, ok bool)

func newCfg(name, in, others string, consts map[string]string) (*expand.Config, *valueEnv) {
	env := &valueEnv{vars: map[string]string{name: in}, others: others, set: others != "", consts: consts}
	return staticConfig(env), env
}

// staticConfig expands over env and runs nothing: a command
// substitution is known only as staticCmdSubst reads it, a process
// substitution not at all.
func staticConfig(env expand.Environ) *expand.Config {
	cfg := &expand.Config{Env: env}
	cfg.CmdSubst = staticCmdSubst(cfg)
	cfg.ProcSubst = func(*syntax.ProcSubst) (string, error) { return "", errUnknownCommand }
	return cfg
}

// assignValue evaluates `name=word`.
func assignValue(name string, w *syntax.Word) valueEval {
	return func(in, others string, consts map[string]string) (out string, ok bool) {
		defer unknownOnPanic(&ok)
		cfg, env := newCfg(name, in, others, consts)
		// Fields, not Literal: it removes the quoting (`fail=\0` is 0).
		// An assignment does not split its value, but where the pieces
		// are joined again only spacing differs.
		fs, err := expand.Fields(cfg, bashQuoteOps(w, env))
		return strings.Join(fs, " "), err == nil
	}
}

// arithValue evaluates an arithmetic expression that assigns name
// (`fail*=0`, `fail++`, `fail=fail-fail`).
func arithValue(name string, x syntax.ArithmExpr) valueEval {
	return func(in, others string, consts map[string]string) (out string, ok bool) {
		defer unknownOnPanic(&ok)
		cfg, env := newCfg(name, in, others, consts)
		if _, err := expand.Arithm(cfg, x); err != nil {
			return "", false
		}
		v, ok := env.vars[name]
		return v, ok
	}
}

// counterValues is what a counter's start is and the values its marks
// reach: the ground a reset is judged on.
type counterValues struct {
	start  string
	marked []string
	// exits: a condition reads it as an exit status (`exit $fail`),
	// which keeps only its low eight bits.
	exits bool
	// numeric: the start and every marked value are integers, so the
	// failure test reads a number.
	numeric bool
	// below: a failure test reads the count with -gt or -ge (`[ $fail
	// -gt 0 ]`), so a number below the start reads as none too (-1).
	below  bool
	consts map[string]string
	// files: what the count's marking functions append to (`>>`);
	// firstMark: the first top-level call of one; clears: the lines
	// that truncate or remove each file.
	files     map[string]bool
	firstMark int
	clears    map[string][]int
	// blank: files a function appends a line to that may be blank
	// (blankAppends)
	blank map[string]bool
}

// asStart: the failure test reads x as it reads the start.
func (cv *counterValues) asStart(x string) bool {
	if x == cv.start || strings.TrimSpace(x) == "" {
		return true // unquoted, a blank value is no word at all
	}
	if f := strings.Fields(x); cv.exits && len(f) > 1 {
		x = f[0] // dash's `exit 0 1` exits 0
	}
	a, errA := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
	b, errB := strconv.ParseInt(strings.TrimSpace(cv.start), 10, 64)
	if errA != nil || errB != nil {
		// A word where a number is read (`fail=zero` before `[ $fail
		// -gt 0 ]`): the test errs, which is false, or `(( fail ))`
		// reads the unset variable zero.
		return errA != nil && errB == nil && cv.numeric && !cv.exits
	}
	if a == b || cv.below && a < b {
		return true
	}
	return cv.exits && (a-b)%256 == 0
}

// readCounterValues evaluates the start and the marks (at most a few
// rounds) to the values the marks can give the variable.
func readCounterValues(start counterAssign, marks []counterAssign, exits, below bool, consts map[string]string) *counterValues {
	cv := &counterValues{start: start.value, exits: exits, below: below, consts: consts}
	if start.eval != nil {
		if s, ok := start.eval("", "", consts); ok {
			cv.start = s
		}
	}
	seen := map[string]bool{cv.start: true}
	frontier := []string{cv.start}
	for round := 0; round < 3 && len(frontier) > 0 && len(cv.marked) < 32; round++ {
		var next []string
		for _, in := range frontier {
			for _, m := range marks {
				if m.eval == nil {
					continue
				}
				out, ok := m.eval(in, "1", consts)
				if !ok || seen[out] || cv.asStart(out) {
					continue
				}
				seen[out] = true
				cv.marked = append(cv.marked, out)
				next = append(next, out)
			}
		}
		frontier = next
	}
	// Numeric when the start and some marked value are integers: a word
	// such a count is set to (`fail=zero`) is then read as the start.
	if _, err := strconv.ParseInt(strings.TrimSpace(cv.start), 10, 64); err == nil {
		for _, m := range cv.marked {
			if _, err := strconv.ParseInt(strings.TrimSpace(m), 10, 64); err == nil {
				cv.numeric = true
			}
		}
	}
	cv.below = cv.below && cv.numeric
	if cv.numeric || cv.below {
		kept := cv.marked[:0]
		for _, m := range cv.marked {
			if !cv.asStart(m) {
				kept = append(kept, m)
			}
		}
		cv.marked = kept
	}
	return cv
}

// dropsMarks: a takes some value the marks reach back to one read as
// the start, whether other variables are unset or set.
func (cv *counterValues) dropsMarks(a counterAssign) (string, bool) {
	if a.eval == nil {
		return "", false
	}
	for _, in := range cv.marked {
		for _, others := range []string{"", "1"} {
			if out, ok := a.eval(in, others, cv.consts); ok && cv.asStart(out) {
				return out, true
			}
		}
	}
	return "", false
}

// marks: a, applied to the start, gives a value not read as the start.
func (cv *counterValues) marks(a counterAssign) (bool, bool) {
	if a.eval == nil {
		return false, false
	}
	out, ok := a.eval(cv.start, "1", cv.consts)
	if !ok {
		return false, false
	}
	return !cv.asStart(out), true
}

// othersRead names the variables n reads other than name.
func othersRead(n syntax.Node, name string) []string {
	var out []string
	for _, v := range varsRead(n) {
		if v != name {
			out = append(out, v)
		}
	}
	return out
}

// exprValue is what `expr` prints for integer arithmetic (`expr 0`,
// `expr $fail - $fail`); ok is false for anything else.
func exprValue(args []string) (string, bool) {
	if len(args) == 1 {
		n, err := strconv.ParseInt(args[0], 10, 64)
		return strconv.FormatInt(n, 10), err == nil
	}
	if len(args) != 3 {
		return "", false
	}
	a, err1 := strconv.ParseInt(args[0], 10, 64)
	b, err2 := strconv.ParseInt(args[2], 10, 64)
	if err1 != nil || err2 != nil {
		return "", false
	}
	var n int64
	switch args[1] {
	case "+":
		n = a + b
	case "-":
		n = a - b
	case "*":
		n = a * b
	case "/", "%":
		if b == 0 {
			return "", false
		}
		if n = a / b; args[1] == "%" {
			n = a % b
		}
	default:
		return "", false
	}
	return strconv.FormatInt(n, 10), true
}

// unknownValue: a's value is not known and does not read the count, so
// whatever it is, the marks before it are gone (`fail=$(echo 0 | cat)`).
// Round 49: the same when the count is read only by the commands whose
// output is the value (`fail=$(echo "$fail" | sed 's/.*/0/')`, `fail=$(awk
// -v n="$fail" 'BEGIN{print n*0}')`): what they print is not known
// without running them, and nothing here runs the repository's commands,
// so the count is what they make of it. Output that is known (`fail=$(expr
// "$fail" + 1)`, `$(printf %d "$fail")`) is judged by its value, and a
// count read around the substitution (`fail=$((fail + $(grep -c x f)))`)
// keeps its marks.
//
// Only for a count (a number marked to others), and not when the command
// reads a file the count's own marking helper appends to (`fail=$(wc -l
// < failures.txt)`: the marks carried through the file).
func (cv *counterValues) unknownValue(a counterAssign) bool {
	if a.eval == nil || a.self && !a.substOnly || !a.subst || !cv.numeric || len(cv.marked) == 0 || cv.recount(a) {
		return false
	}
	if a.self {
		for _, in := range cv.marked {
			for _, others := range []string{"", "1"} {
				if _, ok := a.eval(in, others, cv.consts); ok {
					return false // known: dropsMarks judges it
				}
			}
		}
		return true
	}
	_, ok := a.eval("1", "", cv.consts)
	return !ok
}

// recount: a's commands read a file the count's marking helper appends
// to, and nothing truncates or removes it between the helper's first
// call and a.
func (cv *counterValues) recount(a counterAssign) bool {
	if a.named {
		return false // "1 failures.txt" is no number a test reads
	}
	for _, f := range a.files {
		if !cv.files[f] || a.nonBlank && cv.blank[f] {
			continue // `grep -c .` counts no blank failure line
		}
		cleared := false
		for _, l := range cv.clears[f] {
			cleared = cleared || (l > cv.firstMark && l <= a.line)
		}
		if !cleared {
			return true
		}
	}
	return false
}

// lastCall is the last command of the substitution's one pipeline.
func lastCall(cs *syntax.CmdSubst) *syntax.CallExpr {
	if len(cs.Stmts) != 1 {
		return nil
	}
	cmd := cs.Stmts[0].Cmd
	for {
		b, ok := cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
			break
		}
		cmd = b.Y.Cmd
	}
	c, _ := cmd.(*syntax.CallExpr)
	return c
}

// countsNonBlank: the substitution ends with `grep -c .` or `wc -w`,
// which count a line only if it holds a character or a word (round 49:
// a helper that appends "$3", empty, marks a failure grep -c . never
// counts).
func countsNonBlank(cs *syntax.CmdSubst) bool {
	c := lastCall(cs)
	if c == nil || len(c.Args) < 2 {
		return false
	}
	var words []string
	for _, w := range c.Args {
		l, _ := Literal(w)
		words = append(words, l)
	}
	switch wordLit(c.Args[0]) {
	case "wc":
		return slices.Contains(words, "-w") || slices.Contains(words, "--words")
	case "grep", "egrep":
		return (slices.Contains(words, "-c") || slices.Contains(words, "--count")) && slices.Contains(words, ".")
	}
	return false
}

// blankAppends names the files a function appends a line to (`>>`) that
// may be blank: anything but an echo or printf whose text holds a
// literal character besides spaces and formats (`echo "FAIL: $3"` is
// never blank, `echo "$3"` may be).
func blankAppends(f *syntax.File) map[string]bool {
	out := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		fd, ok := n.(*syntax.FuncDecl)
		if !ok {
			return true
		}
		syntax.Walk(fd.Body, func(n syntax.Node) bool {
			st, ok := n.(*syntax.Stmt)
			if !ok {
				return true
			}
			for _, r := range st.Redirs {
				if r.Op != syntax.AppOut || r.Word == nil {
					continue
				}
				if l, ok := Literal(r.Word); ok && !nonBlankLine(st) {
					out[l] = true
				}
			}
			return true
		})
		return false
	})
	return out
}

// nonBlankLine: st is an echo or printf whose text holds a literal
// character other than a space (printf's format outside its % specs and
// escapes).
func nonBlankLine(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 2 {
		return false
	}
	lits := func(w *syntax.Word) string {
		var b strings.Builder
		syntax.Walk(w, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.Lit:
				b.WriteString(x.Value)
			case *syntax.SglQuoted:
				b.WriteString(x.Value)
			case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp:
				return false
			}
			return true
		})
		return b.String()
	}
	switch wordLit(c.Args[0]) {
	case "echo":
		for i, w := range c.Args[1:] {
			t := lits(w)
			if i == 0 && strings.HasPrefix(t, "-") && strings.Trim(t, "-neE") == "" {
				continue // an option
			}
			// An escape (echo -e "\t") may print only a space.
			if strings.TrimSpace(printfSpecRE.Regexp().ReplaceAllString(strings.ReplaceAll(t, "%", ""), "")) != "" {
				return true
			}
		}
	case "printf":
		f, ok := Literal(c.Args[1])
		if !ok {
			return false
		}
		f = printfSpecRE.Regexp().ReplaceAllString(f, "")
		return strings.TrimSpace(f) != ""
	}
	return false
}

// printfSpecRE: a printf format's conversions and escapes.
var printfSpecRE = lazyregexp.New(`%[-+ #0-9.*]*[a-zA-Z%]|\\.`)

// printsName: the substitution's last command is wc given a file to
// read, which prints the file's name after each count (round 49: `n=$(wc
// -l failures.txt); fail=$n` makes `[ $fail -gt 0 ]` an error, read as no
// failure).
func printsName(cs *syntax.CmdSubst) bool {
	c := lastCall(cs)
	if c == nil || len(c.Args) < 2 || wordLit(c.Args[0]) != "wc" {
		return false
	}
	for _, w := range c.Args[1:] {
		if l := wordLit(w); !strings.HasPrefix(l, "-") || l == "-" {
			return true // a file operand (or an expansion that may be one)
		}
	}
	return false
}

// appendValue evaluates `name+=word`: the text appended, or added under
// declare -i.
func appendValue(w *syntax.Word, integer bool) valueEval {
	if w == nil {
		w = &syntax.Word{} // `fail+=`
	}
	return func(in, others string, consts map[string]string) (out string, ok bool) {
		defer unknownOnPanic(&ok)
		cfg, env := newCfg("", in, others, consts)
		fs, err := expand.Fields(cfg, bashQuoteOps(w, env))
		if err != nil {
			return "", false
		}
		x := strings.Join(fs, " ")
		if !integer {
			return in + x, true
		}
		a, err1 := strconv.ParseInt(strings.TrimSpace(in), 10, 64)
		b, err2 := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err1 != nil && strings.TrimSpace(in) != "" || err2 != nil {
			return "", false
		}
		return strconv.FormatInt(a+b, 10), true
	}
}

// bashQuoteOps gives w with each `${name@Q}` or `${name@K}` (bash 5.1+:
// a scalar quoted as @Q does) (outside other expansions)
// replaced by the text bash gives it: the value single-quoted, always
// (`'1'` for 1, two quotes for an empty one, nothing when unset). The expand
// package quotes only where a shell needs it, which leaves 1 as 1, so
// `fail=${fail@Q}` read as a copy of the count; bash sets it to '1',
// which `[ $fail -gt 0 ]` cannot read as a number (round 49). The
// quoted text is held in a name of env's own.
func bashQuoteOps(w *syntax.Word, env *valueEnv) *syntax.Word {
	if w == nil {
		return w
	}
	n := 0
	var parts func(ps []syntax.WordPart) []syntax.WordPart
	parts = func(ps []syntax.WordPart) []syntax.WordPart {
		var out []syntax.WordPart
		for i, p := range ps {
			switch x := p.(type) {
			case *syntax.ParamExp:
				if x.Exp == nil || x.Exp.Op != syntax.OtherParamOps || x.Exp.Word == nil || wordLit(x.Exp.Word) != "Q" && wordLit(x.Exp.Word) != "K" ||
					x.Param == nil || x.Index != nil || x.Excl || x.Length || x.Width || x.Slice != nil || x.Repl != nil || x.Names != 0 {
					continue
				}
				vr := env.Get(x.Param.Value)
				quoted := ""
				if vr.IsSet() {
					quoted = "'" + strings.ReplaceAll(vr.String(), "'", `'\''`) + "'"
				}
				name := "__sessiongate_q" + strconv.Itoa(n)
				n++
				env.vars[name] = quoted
				if out == nil {
					out = slices.Clone(ps)
				}
				out[i] = &syntax.ParamExp{Dollar: x.Dollar, Rbrace: x.Rbrace, Param: &syntax.Lit{ValuePos: x.Param.ValuePos, ValueEnd: x.Param.ValueEnd, Value: name}}
			case *syntax.DblQuoted:
				if in := parts(x.Parts); in != nil {
					if out == nil {
						out = slices.Clone(ps)
					}
					dq := *x
					dq.Parts = in
					out[i] = &dq
				}
			}
		}
		return out
	}
	ps := parts(w.Parts)
	if ps == nil {
		return w
	}
	cp := *w
	cp.Parts = ps
	return &cp
}

// unknownOnPanic makes a value the expand package fails on unknown
// rather than a panic on the gate's path (fuzzing found two).
func unknownOnPanic(ok *bool) {
	if recover() != nil {
		*ok = false
	}
}
