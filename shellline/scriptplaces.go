package shellline

import (
	"maps"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A test script read as a whole, so that a line added to it is judged
// where it stands: the variables and the folder the lines above it left
// (issue 25, items 4 and 5, round 26). Read one line at a time, `R=$(pwd)`
// on one line and `cp -r fixed/. "$R"` on the next read as a copy into a
// scratch folder, and the lazy line passed; `tmp=$(mktemp -d)`, `cd "$tmp"`
// and `tar xf fx.tar` on three lines read as an unpack into the repository,
// and the honest script was refused.
//
// What is followed: simple assignments (`R=...`, `export R=...`), `cd`,
// `pushd`, `popd`, `set -e`, `&&`, `||`, if, case, loops, subshells and
// functions called where they are defined in the script. What is not
// known is read as the repository: a variable set in one branch only, or
// by `read`, `eval` or a sourced file, is the repository's folder when
// any assignment of it in the script is; a `cd` that may fail (its folder
// not known to exist, no `set -e`, no `|| exit`) leaves the line either
// where it was or where it went, and the repository wins.

// Script is a script's text read once (ReadScript).
type Script struct {
	lines  []string
	writes map[int]string // 1-based line → the first tree write a command on it makes
	// resolved: 1-based line → its command with variables the walk knows
	// written out as the repository's paths (noteResolved)
	resolved map[int]string
}

// ReadScript reads a script's whole text. A text that does not parse as
// shell is read line by line, each line alone from the repository's folder.
func ReadScript(text string) *Script {
	s := &Script{lines: strings.Split(text, "\n"), writes: map[int]string{}, resolved: map[int]string{}}
	f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil {
		s.writes = nil
		return s
	}
	w := &placeWalk{src: text, s: s, seen: map[*syntax.CallExpr]bool{}, funcs: map[string]*syntax.Stmt{}, repoVars: map[string]string{}}
	w.collect(f)
	st := newPlaceState()
	w.stmts(f.Stmts, st)
	// A command the walk did not reach (inside a $(...), a function never
	// called) is read alone, from the repository's folder.
	syntax.Walk(f, func(n syntax.Node) bool {
		if x, ok := n.(*syntax.CallExpr); ok && !w.seen[x] {
			w.call(x, newPlaceState())
		}
		return true
	})
	return s
}

// Lines is the script's text split into lines (0-based, as LineWeakens takes them).
func (s *Script) Lines() []string { return s.lines }

// Index is the first line at or after from whose trimmed text is line's, -1 for none.
func (s *Script) Index(line string, from int) int {
	line = strings.TrimSpace(line)
	for i := max(from, 0); i < len(s.lines); i++ {
		if strings.TrimSpace(s.lines[i]) == line {
			return i
		}
	}
	return -1
}

// LineWeakens is AddedLineWeakensIn for the script's line i (0-based),
// its tree writes read where the line stands in the script.
func (s *Script) LineWeakens(i int, base string, isCode func(string) bool) string {
	if i < 0 || i >= len(s.lines) {
		return ""
	}
	line := s.lines[i]
	if s.writes == nil {
		return AddedLineWeakensIn(line, base, isCode)
	}
	if why := addedLineWeakens(line, base, isCode, func(string) string { return s.writes[i+1] }); why != "" {
		return why
	}
	if r := s.resolved[i+1]; r != "" {
		if p := writesSource(r, isCode); p != "" {
			return "it writes " + p + " (through a variable set above it), so the run tests what the line puts there, not the committed code"
		}
	}
	return ""
}

func (s *Script) anyWrite() string {
	if s.writes == nil {
		return ""
	}
	for i := range len(s.lines) + 1 {
		if w := s.writes[i]; w != "" {
			return w
		}
	}
	return ""
}

// madeDir is the place of a folder `mktemp -d` made: not the repository,
// and a cd into it cannot fail.
const madeDir = "$d"

// placeState is where the shell is at one point of the script. A place
// is "." or a path below it (the repository, relative to its folder), an
// absolute path, madeDir, maybeNowhere (a lone
// expansion that may be empty) or another "$..." (somewhere the script
// does not say, not the repository). A variable's place written with a
// leading ^ is relative to the repository's folder, not to the cwd.
type placeState struct {
	cwd, oldpwd string
	dirs        []string
	vars        map[string]string
	made        map[string]bool // folders `mkdir -p` made: a cd there cannot fail
	errexit     bool
	// stash is 1 after the script's own `git stash` (push), 2 once tests
	// ran after it: a plain `git stash pop` then puts back what the
	// script set aside, after its tests (round 27, c7).
	stash int
	sure  bool // a failure here ends what is judged (&& chain, `|| exit`)
	cond  bool // a condition (if, while, ||, !): set -e does not stop a failure here
}

func newPlaceState() *placeState {
	return &placeState{cwd: ".", oldpwd: ".", vars: map[string]string{}, made: map[string]bool{}}
}

func (st *placeState) clone() *placeState {
	c := *st
	c.vars = maps.Clone(st.vars)
	c.made = maps.Clone(st.made)
	c.dirs = append([]string(nil), st.dirs...)
	return &c
}

// inRepo reports whether a place (cwd-style or ^-marked) is in the repository.
func inRepo(p string) bool {
	return p != "" && !strings.HasPrefix(p, "$") && !strings.HasPrefix(p, "~") && !path.IsAbs(p) && !strings.HasPrefix(strings.TrimPrefix(p, "^"), "..")
}

// mergePlace is a place that is either a or b: the repository when either
// is (what is judged must hold in both).
func mergePlace(a, b string) string {
	rank := func(p string) int {
		switch {
		case !inRepo(p):
			return 0
		case ownDest(strings.TrimPrefix(p, "^")):
			return 1 // build/, testdata/: the run's own
		}
		return 2
	}
	switch ra, rb := rank(a), rank(b); {
	case a == b:
		return a
	case ra > 0 && ra >= rb:
		return a
	case rb > 0:
		return b
	}
	return "$x"
}

// merge is a state that is either st or o.
func (st *placeState) merge(o *placeState) {
	st.cwd = mergePlace(st.cwd, o.cwd)
	st.oldpwd = mergePlace(st.oldpwd, o.oldpwd)
	for k, v := range st.vars {
		if ov, ok := o.vars[k]; ok {
			st.vars[k] = mergePlace(v, ov)
		} else if !inRepo(v) {
			delete(st.vars, k)
		}
	}
	for k, ov := range o.vars {
		if _, ok := st.vars[k]; !ok && inRepo(ov) {
			st.vars[k] = ov
		}
	}
	for k := range st.made {
		if !o.made[k] {
			delete(st.made, k)
		}
	}
	st.errexit = st.errexit && o.errexit
}

type placeWalk struct {
	src      string
	s        *Script
	seen     map[*syntax.CallExpr]bool
	funcs    map[string]*syntax.Stmt
	depth    int
	redirs   []*syntax.Redirect // the statement's whose call is being walked
	repoVars map[string]string  // a place in the repository some assignment sets; "^." for read and for
}

// collect notes, before the walk, every variable some assignment sets to
// the repository's folder (read from that line alone), or that read,
// mapfile, getopts or printf -v fill: such a variable, where the walk does
// not know its value, is the repository.
func (w *placeWalk) collect(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil && x.Value != nil && w.repoVars[x.Name.Value] == "" {
				if v := w.value(x.Value, newPlaceState()); inRepo(v) {
					w.repoVars[x.Name.Value] = v
				}
			}
		case *syntax.ForClause:
			if it, ok := x.Loop.(*syntax.WordIter); ok {
				w.repoVars[it.Name.Value] = "^."
			}
		case *syntax.CallExpr:
			if len(x.Args) > 1 {
				if n, _ := Literal(x.Args[0]); n == "read" || n == "mapfile" || n == "readarray" || n == "getopts" || n == "printf" {
					for _, a := range x.Args[1:] {
						if s, ok := Literal(a); ok && isName(s) {
							w.repoVars[s] = "^."
						}
					}
				}
			}
		}
		return true
	})
}

func (w *placeWalk) stmts(ss []*syntax.Stmt, st *placeState) {
	for _, s := range ss {
		w.stmt(s, st)
	}
}

// stmt walks one statement in st, leaving st as the statement leaves the
// shell; it reports whether the statement may fail.
func (w *placeWalk) stmt(s *syntax.Stmt, st *placeState) (mayFail bool) {
	if s == nil || s.Cmd == nil {
		return false
	}
	if s.Background || s.Negated {
		st = st.clone() // & runs in a subshell; ! is a condition
		st.cond = st.cond || s.Negated
	}
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		w.redirs = s.Redirs
		defer func() { w.redirs = nil }()
		return w.call(x, st)
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.AndStmt:
			before := st.clone()
			a := st.clone()
			a.sure = true // what follows && runs only when this succeeded
			xFail := w.stmt(x.X, a)
			a.sure = before.sure
			yFail := w.stmt(x.Y, a)
			*st = *a
			if xFail {
				st.merge(before)
			}
			return xFail || yFail
		case syntax.OrStmt:
			before := st.clone()
			a := st.clone()
			if ends(x.Y) {
				a.sure = true
				w.stmt(x.X, a)
				a.sure = before.sure
				*st = *a
				return false
			}
			a.sure, a.cond = false, true
			xFail := w.stmt(x.X, a)
			a.sure, a.cond = before.sure, before.cond
			b := before.clone()
			yFail := w.stmt(x.Y, b)
			*st = *a
			st.merge(b)
			return xFail && yFail
		default: // a pipeline: each part in a subshell
			w.stmt(x.X, st.clone())
			w.stmt(x.Y, st.clone())
			return true
		}
	case *syntax.Subshell:
		w.stmts(x.Stmts, st.clone())
	case *syntax.Block:
		w.stmts(x.Stmts, st)
	case *syntax.IfClause:
		w.ifClause(x, st)
	case *syntax.WhileClause:
		c := st.clone()
		c.sure, c.cond = false, true
		w.stmts(x.Cond, c)
		c.sure, c.cond = st.sure, st.cond
		w.loop(x.Do, c)
		*st = *c
	case *syntax.ForClause:
		if it, ok := x.Loop.(*syntax.WordIter); ok {
			v := ""
			for _, word := range it.Items {
				p := w.value(word, st)
				if v == "" {
					v = p
				} else {
					v = mergePlace(v, p)
				}
			}
			if v != "" && it.InPos.IsValid() {
				st.vars[it.Name.Value] = v
			} else {
				delete(st.vars, it.Name.Value)
			}
		}
		w.loop(x.Do, st)
	case *syntax.CaseClause:
		out := st.clone()
		for _, it := range x.Items {
			b := st.clone()
			w.stmts(it.Stmts, b)
			out.merge(b)
		}
		*st = *out
	case *syntax.FuncDecl:
		if x.Name != nil {
			w.funcs[x.Name.Value] = x.Body
		}
		return false
	case *syntax.DeclClause:
		if v := x.Variant.Value; v != "nameref" {
			for _, a := range x.Args {
				if a.Name != nil && !a.Naked {
					w.assign(a, st)
				}
			}
		}
		return false
	case *syntax.TimeClause:
		return w.stmt(x.Stmt, st)
	}
	return true
}

// ends reports whether a statement ends the script or function (`exit`,
// `return`, `{ echo ...; exit 1; }`): `cd x || exit` leaves no way on in
// the old folder.
func ends(s *syntax.Stmt) bool {
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) > 0 {
			n, _ := Literal(x.Args[0])
			return n == "exit" || n == "return"
		}
	case *syntax.Block:
		return len(x.Stmts) > 0 && ends(x.Stmts[len(x.Stmts)-1])
	}
	return false
}

func (w *placeWalk) ifClause(x *syntax.IfClause, st *placeState) {
	c := st.clone()
	c.sure, c.cond = false, true
	w.stmts(x.Cond, c)
	c.sure, c.cond = st.sure, st.cond
	t := c.clone()
	w.stmts(x.Then, t)
	e := c.clone()
	if x.Else != nil {
		if len(x.Else.Cond) > 0 {
			w.ifClause(x.Else, e)
		} else {
			w.stmts(x.Else.Then, e)
		}
	}
	t.merge(e)
	*st = *t
}

// loop walks a loop's body twice: the second time from a state that is
// either the first entry or what one pass left (a later pass sees what an
// earlier one set).
func (w *placeWalk) loop(body []*syntax.Stmt, st *placeState) {
	b := st.clone()
	w.stmts(body, b)
	st.merge(b)
	b = st.clone()
	w.stmts(body, b)
	st.merge(b)
}

func (w *placeWalk) assign(a *syntax.Assign, st *placeState) {
	if a.Name == nil {
		return
	}
	switch {
	case a.Append || a.Index != nil || a.Array != nil:
		delete(st.vars, a.Name.Value)
	case a.Value == nil:
		st.vars[a.Name.Value] = maybeNowhere
	default:
		st.vars[a.Name.Value] = w.value(a.Value, st)
	}
}

// value is the place a word names as a variable's value or a cd's
// operand: a literal path from the cwd, or an expansion's place.
func (w *placeWalk) value(word *syntax.Word, st *placeState) string {
	p := w.word(word, st)
	if strings.HasPrefix(p, "^") || strings.HasPrefix(p, "$") || path.IsAbs(p) || strings.HasPrefix(p, "~") {
		return p
	}
	j := joinPlace(st.cwd, p)
	if inRepo(j) {
		return "^" + j
	}
	return j
}

// call walks one simple command: assignments, cd and its kin, set -e, a
// function of the script (its body walked here), source and eval; any
// other command is checked for a tree write.
func (w *placeWalk) call(x *syntax.CallExpr, st *placeState) (mayFail bool) {
	w.seen[x] = true
	if len(x.Args) == 0 {
		for _, a := range x.Assigns {
			w.assign(a, st)
		}
		return false
	}
	ws := StripWrappers(w.words(x, st))
	if len(ws) == 0 {
		return true
	}
	name := CommandName(ws[0])
	args, flags := splitArgs(ws[1:])
	switch name {
	case "cd", "pushd":
		to := "$~" // cd alone: the home folder
		if len(args) > 0 {
			switch args[0] {
			case "-":
				to = st.oldpwd
			case maybeNowhere:
				to = mergePlace(st.cwd, "$?")
			default:
				to = joinPlace(st.cwd, args[0])
			}
		}
		exists := to == madeDir || to == "." || st.made[to]
		if name == "pushd" {
			st.dirs = append(st.dirs, st.cwd)
		}
		st.oldpwd = st.cwd
		if st.sure || st.errexit && !st.cond || exists {
			st.cwd = to
		} else {
			st.cwd = mergePlace(st.cwd, to) // it may have failed, leaving the shell where it was
		}
		return !exists
	case "popd":
		if n := len(st.dirs); n > 0 {
			st.cwd, st.dirs = st.dirs[n-1], st.dirs[:n-1]
		} else {
			st.cwd = mergePlace(st.cwd, ".")
		}
		return false
	case "set":
		for _, f := range flags {
			if strings.HasPrefix(f, "-") && !strings.HasPrefix(f, "--") && strings.Contains(f, "e") {
				st.errexit = true
			}
		}
		for i, a := range ws {
			switch {
			case strings.HasPrefix(a, "+") && strings.Contains(a, "e"):
				st.errexit = false
			case a == "-o" && i+1 < len(ws) && ws[i+1] == "errexit":
				st.errexit = true
			case a == "+o" && i+1 < len(ws) && ws[i+1] == "errexit":
				st.errexit = false
			}
		}
		return false
	case "mkdir":
		for _, a := range args {
			st.made[joinPlace(st.cwd, a)] = true
		}
		return true
	case "source", ".", "eval":
		// What it runs is not read here: any variable may now hold
		// anything, and the shell may be anywhere.
		st.vars = map[string]string{}
		st.cwd = mergePlace(st.cwd, ".")
		return true
	case "read", "mapfile", "readarray", "getopts", "printf", "unset":
		for _, a := range args {
			delete(st.vars, a)
		}
	case "true", ":":
		return false
	case "export", "readonly", "local", "declare", "typeset":
		return false
	}
	if body, ok := w.funcs[name]; ok && w.depth < 4 {
		// A function of the script runs here, in this shell: its body is
		// walked with this state and the arguments as $1, $2, ...
		saved := map[string]string{}
		for k, v := range st.vars {
			if k == "@" || k == "*" || (len(k) == 1 && k[0] >= '1' && k[0] <= '9') {
				saved[k] = v
				delete(st.vars, k)
			}
		}
		all := ""
		for i, v := range ws[1:] {
			p := w.argPlace(v, st)
			if i < 9 {
				st.vars[string(rune('1'+i))] = p
			}
			if all == "" {
				all = p
			} else {
				all = mergePlace(all, p)
			}
		}
		if all != "" {
			st.vars["@"], st.vars["*"] = all, all
		}
		w.depth++
		w.stmt(body, st)
		w.depth--
		for k := range st.vars {
			if k == "@" || k == "*" || (len(k) == 1 && k[0] >= '1' && k[0] <= '9') {
				delete(st.vars, k)
			}
		}
		maps.Copy(st.vars, saved)
		return true
	}
	switch verb := stashVerb(ws); {
	case verb == "push":
		st.stash = 1
	case (verb == "pop" || verb == "apply") && st.stash == 2:
		// `git stash -q; pytest; git stash pop -q`: the tests ran on
		// what is committed, and the pop after them feeds them nothing
		// (a pop before them, or of another stash, still counts).
		st.stash = 0
		w.noteResolved(x, st)
		return true
	case st.stash == 1 && RunsTests(strings.Join(ws, " ")):
		st.stash = 2
	}
	if wr := callTreeWrite(ws, st.cwd); wr != "" {
		w.note(x, wr)
	}
	w.noteResolved(x, st)
	return true
}

// stashVerb is "push" for `git stash` or `git stash push` of the whole
// tree, "pop" or "apply" for a plain `git stash pop|apply` (quiet or
// --index only: no stash named), "" for anything else.
func stashVerb(ws []string) string {
	if len(ws) < 2 || CommandName(ws[0]) != "git" || ws[1] != "stash" {
		return ""
	}
	var rest []string
	for _, a := range ws[2:] {
		if a != "-q" && a != "--quiet" && a != "--index" {
			rest = append(rest, a)
		}
	}
	switch {
	case len(rest) == 0, len(rest) == 1 && (rest[0] == "push" || rest[0] == "save"):
		return "push"
	case len(rest) == 1 && (rest[0] == "pop" || rest[0] == "apply"):
		return rest[0]
	}
	return ""
}

// noteResolved keeps, for a command whose operands or redirections name a
// variable the walk knows to hold a path in the repository, the command
// with those paths written out: `F=greet.py` one line, `cp fixed.py "$F"`
// the next writes greet.py (Script.LineWeakens reads it as writesSource).
func (w *placeWalk) noteResolved(x *syntax.CallExpr, st *placeState) {
	var out []string
	some := false
	for _, a := range x.Args {
		if s, ok := Literal(a); ok {
			out = append(out, s)
			continue
		}
		p := w.word(a, st)
		if !strings.HasPrefix(p, "^") {
			return
		}
		out, some = append(out, path.Clean(p[1:])), true
	}
	line := quoteWords(out)
	for _, r := range w.redirs {
		if r.Word == nil || !strings.Contains(r.Op.String(), ">") {
			continue
		}
		if s, ok := Literal(r.Word); ok {
			line += " " + r.Op.String() + " " + quoteWords([]string{s})
			continue
		}
		p := w.word(r.Word, st)
		if !strings.HasPrefix(p, "^") {
			return
		}
		line += " " + r.Op.String() + " " + quoteWords([]string{path.Clean(p[1:])})
		some = true
	}
	if !some {
		return
	}
	for l := int(x.Pos().Line()); l <= int(x.End().Line()); l++ {
		if w.s.resolved[l] == "" {
			w.s.resolved[l] = line
		}
	}
}

// argPlace is a function argument's place as the function reads it ($1).
func (w *placeWalk) argPlace(v string, st *placeState) string {
	if strings.HasPrefix(v, "^") || strings.HasPrefix(v, "$") || path.IsAbs(v) || strings.HasPrefix(v, "~") {
		return v
	}
	j := joinPlace(st.cwd, v)
	if inRepo(j) {
		return "^" + j
	}
	return j
}

// note records a tree write on every line the command spans.
func (w *placeWalk) note(x *syntax.CallExpr, what string) {
	for l := int(x.Pos().Line()); l <= int(x.End().Line()); l++ {
		if w.s.writes[l] == "" {
			w.s.writes[l] = what
		}
	}
}

// words is a command's words with each word the shell fills at run time
// replaced by the place it names (word).
func (w *placeWalk) words(x *syntax.CallExpr, st *placeState) []string {
	out := make([]string, 0, len(x.Args))
	for _, a := range x.Args {
		out = append(out, w.word(a, st))
	}
	return out
}

// word is a word's text when literal, else the place it names: a
// variable the walk knows, the cwd ($PWD, $(pwd)), a folder mktemp -d
// made ("$"), the repository's folder (the script's folder, git's top
// level: "^."), a lone expansion that may be empty (maybeNowhere), or
// somewhere the line does not say ("$").
func (w *placeWalk) word(a *syntax.Word, st *placeState) string {
	if s, ok := Literal(a); ok {
		return s
	}
	var parts []syntax.WordPart
	for _, p := range a.Parts {
		if d, ok := p.(*syntax.DblQuoted); ok && !d.Dollar {
			parts = append(parts, d.Parts...)
		} else {
			parts = append(parts, p)
		}
	}
	tail, tailOK := "", true
	if len(parts) > 1 {
		for _, p := range parts[1:] {
			switch l := p.(type) {
			case *syntax.Lit:
				tail += l.Value
			case *syntax.SglQuoted:
				tail += l.Value
			default:
				tailOK = false
			}
		}
	}
	if tailOK && len(parts) > 0 {
		if pe, ok := parts[0].(*syntax.ParamExp); ok && plainParam(pe) {
			if v, ok := w.varPlace(pe.Param.Value, st); ok {
				return withTail(v, tail)
			}
		}
	}
	raw := ""
	if b, e := int(a.Pos().Offset()), int(a.End().Offset()); b >= 0 && b <= e && e <= len(w.src) {
		raw = w.src[b:e]
	}
	l := strings.ToLower(raw)
	for _, k := range []string{"show-toplevel", "show-cdup", "dirname", "bash_source", "$0", "${0"} {
		if strings.Contains(l, k) {
			return "^."
		}
	}
	if repoPlace(raw) {
		return "." // $(pwd), $PWD: the cwd
	}
	if r := strings.Trim(raw, `"`); strings.HasPrefix(r, "$(mktemp ") && strings.HasSuffix(r, ")") && strings.Count(r, "$(") == 1 &&
		(strings.Contains(r, " -d") || strings.Contains(r, " --directory")) {
		return madeDir // a folder mktemp -d made: it exists
	}
	if maybeEmpty(raw) {
		return maybeNowhere
	}
	return "$"
}

// plainParam reports whether a parameter expansion is its variable's
// value as is: $R, ${R}, ${R:?} (not ${#R}, ${R%/*}, ${R:-x}).
func plainParam(pe *syntax.ParamExp) bool {
	return pe.Param != nil && !pe.Excl && !pe.Length && !pe.Width && pe.Index == nil && pe.Slice == nil && pe.Repl == nil &&
		(pe.Exp == nil || pe.Exp.Op == syntax.ErrorUnset || pe.Exp.Op == syntax.ErrorUnsetOrNull)
}

// varPlace is a variable's place where the walk stands: known from an
// assignment above, the cwd ($PWD, $OLDPWD), or the repository where the
// value is not known but some assignment in the script sets it there.
func (w *placeWalk) varPlace(name string, st *placeState) (string, bool) {
	if v, ok := st.vars[name]; ok {
		return v, true
	}
	switch name {
	case "PWD":
		return "^" + st.cwd, inRepo(st.cwd)
	case "OLDPWD":
		if inRepo(st.oldpwd) {
			return "^" + st.oldpwd, true
		}
		return st.oldpwd, true
	}
	if v := w.repoVars[name]; v != "" {
		return v, true
	}
	return "", false
}

// withTail is a variable's place with the literal text after it ("$R/sub").
func withTail(v, tail string) string {
	if tail == "" {
		return v
	}
	switch {
	case v == maybeNowhere:
		return tail // "$R/x" with R empty is /x
	case strings.HasPrefix(v, "^"):
		return "^" + path.Join(v[1:], tail)
	}
	return path.Join(v, tail)
}
