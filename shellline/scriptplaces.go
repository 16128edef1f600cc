package shellline

import (
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"maps"
	"path"
	"slices"
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
	text   string
	lines  []string
	writes map[int]string // 1-based line → the first tree write a command on it makes
	// resolved: 1-based line → its command with variables the walk knows
	// written out as the repository's paths (noteResolved)
	resolved map[int][]string
	// outside: 1-based line → a file outside the repository a `.` or
	// `source` on it runs, which no rule reads (round 28, c4)
	outside map[int]string
	// popsAtEnd: the script ends with a stash of its own popped after its
	// tests (PopsAtEnd)
	popsAtEnd bool
	// resets: 1-based line → why it sets a failure mark back
	// (counterreset.go)
	resets map[int]string
	// lost: 1-based line → why a check's mark there is lost in a child
	// shell (lostmarks.go)
	lost map[int]string
	// file: the parsed text; whole: it runs as one shell (RunsWhole,
	// statusplace.go)
	file  *syntax.File
	whole bool
}

// PopsAtEnd: the script pops (or applies) a stash after its last test
// command, which a test command after the script on the same line then
// tests (`git stash -q; true; git stash pop -q` with a clean tree applies
// an older stash; round 27 c2's open row).
func (s *Script) PopsAtEnd() bool { return s.popsAtEnd }

// ReadScript reads a script's whole text. A text that does not parse as
// shell is read line by line, each line alone from the repository's folder.
func ReadScript(text string) *Script { return ReadScriptFiles(text, nil) }

// ReadScriptFiles is ReadScript where src reads a file of the repository
// (a path relative to its folder) that a `.` or `source` line names: its
// functions and assignments are walked where the line stands, so
// `. ./lib.sh` then `put .` is judged with lib.sh's put (round 27). A nil
// src, or a file it cannot read, is read as before: anything may now hold
// anything.
func ReadScriptFiles(text string, src func(string) (string, bool)) *Script {
	s := &Script{text: text, lines: strings.Split(text, "\n"), writes: map[int]string{}, resolved: map[int][]string{}, outside: map[int]string{}}
	f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil {
		s.writes = nil
		return s
	}
	w := &placeWalk{src: text, s: s, seen: map[*syntax.CallExpr]bool{}, funcs: map[string]*syntax.Stmt{}, funcSrc: map[string]string{},
		repoVars: map[string]string{}, litVals: map[string][]string{}, setVals: map[string]bool{}, nonLit: map[string]bool{}, read: src,
		sourced: map[int]string{}}
	s.file = f
	w.collect(f)
	st := newPlaceState()
	w.stmts(f.Stmts, st)
	// An EXIT trap's command runs when the script ends, where it ends.
	for _, t := range w.traps {
		w.subScript(t.text, t.at, st.clone())
	}
	s.popsAtEnd = len(w.pops) > 0
	s.resets = counterResets(f, text, w.sourced)
	s.lost = lostMarks(f, text)
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
	if p := s.outside[i+1]; p != "" {
		return "it runs " + p + ", a file outside the repository that the gate never reads: what it defines or does is not judged"
	}
	if m := gitDirLine(line); m != "" {
		return "it reads " + m + ", under a .git folder: git never commits it, so what the line reads or runs is in no commit"
	}
	if why := s.resets[i+1]; why != "" {
		return why
	}
	if why := s.lost[i+1]; why != "" {
		return why
	}
	if why := execBeforeMore(s.lines, i); why != "" {
		return why
	}
	if why := unsetBeforeCall(s.lines, i); why != "" {
		return why
	}
	if why := addedLineWeakens(line, base, isCode, func(string) string { return s.writes[i+1] }); why != "" {
		return why
	}
	if why := s.statusTaken(i+1, base); why != "" {
		return why
	}
	for _, r := range s.resolved[i+1] {
		if p := writesSource(r, isCode); p != "" {
			return "it writes " + p + " (through a variable set above it, a function, an eval, a sourced file or a trap), so the run tests what the line puts there, not the committed code"
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
	stashed     int  // stashes the script pushed and has not popped
	sure        bool // a failure here ends what is judged (&& chain, `|| exit`)
	cond        bool // a condition (if, while, ||, !): set -e does not stop a failure here
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
	st.stashed = min(st.stashed, o.stashed)
}

type placeWalk struct {
	src      string
	s        *Script
	seen     map[*syntax.CallExpr]bool
	funcs    map[string]*syntax.Stmt
	depth    int
	redirs   []*syntax.Redirect // the statement's whose call is being walked
	repoVars map[string]string  // a place in the repository some assignment sets; "^." for read and for
	// funcSrc: the text a function's body was parsed from (a sourced
	// file's, an eval's), for the raw text of its words.
	funcSrc map[string]string
	// litVals: every literal value an assignment in the script gives a
	// variable (`f=put`), for a command named by it (`$f .`).
	litVals map[string][]string
	// setVals: variables some assignment (or read, a for loop) in the
	// script sets; nonLit: those set to a value that is not literal.
	setVals, nonLit map[string]bool
	// at: the lines of the calls (a function's, an eval's, a source's, a
	// trap's) the walk is inside: a write found in the body is the
	// calling line's too, which may be the only line the session added.
	at    [][2]int
	read  func(string) (string, bool)
	traps []trap
	pops  []*syntax.CallExpr // stash pops of the script's own stash, not yet followed by a test command
	// sourced: the main script's `.` lines (1-based) → the text of the
	// repository file each reads, for the counter rules (counterreset.go).
	sourced map[int]string
}

// trap is an EXIT trap's command text and the lines that set it.
type trap struct {
	text string
	at   [2]int
}

// collect notes, before the walk, every variable some assignment sets to
// the repository's folder (read from that line alone), or that read,
// mapfile, getopts or printf -v fill: such a variable, where the walk does
// not know its value, is the repository.
func (w *placeWalk) collect(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil {
				w.setVals[x.Name.Value] = true
			}
			if x.Name != nil && x.Value != nil {
				if v, ok := Literal(x.Value); ok {
					w.litVals[x.Name.Value] = append(w.litVals[x.Name.Value], v)
				} else {
					w.nonLit[x.Name.Value] = true
				}
			}
			if x.Name != nil && x.Value != nil && w.repoVars[x.Name.Value] == "" {
				if v := w.value(x.Value, newPlaceState()); inRepo(v) {
					w.repoVars[x.Name.Value] = v
				}
			}
		case *syntax.ForClause:
			if it, ok := x.Loop.(*syntax.WordIter); ok {
				w.repoVars[it.Name.Value] = "^."
				w.setVals[it.Name.Value], w.nonLit[it.Name.Value] = true, true
			}
		case *syntax.CallExpr:
			if len(x.Args) > 1 {
				if n, _ := Literal(x.Args[0]); n == "read" || n == "mapfile" || n == "readarray" || n == "getopts" || n == "printf" {
					for _, a := range x.Args[1:] {
						if s, ok := Literal(a); ok && isName(s) {
							w.repoVars[s] = "^."
							w.setVals[s], w.nonLit[s] = true, true
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
			// `a && b && c` is ((a && b) && c): walked as one chain, so c
			// sees the state a and b left when they succeeded (a nested
			// walk would merge in a's failure first: `git stash && pytest
			// && git stash pop` then lost its own stash).
			parts := andChain(x)
			before := st.clone()
			a := st.clone()
			headFail, fail := false, false
			for i, p := range parts {
				last := i == len(parts)-1
				a.sure = before.sure
				if !last {
					a.sure = true // what follows && runs only when this succeeded
				}
				f := w.stmt(p, a)
				if f && !last {
					headFail = true
				}
				fail = fail || f
			}
			a.sure = before.sure
			*st = *a
			if headFail {
				st.merge(before)
			}
			return fail
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
			w.funcSrc[x.Name.Value] = w.src
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
	w.noteGitDirRun(x, name)
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
		// What an eval runs (its words joined) or a file of the
		// repository a `.` reads is walked here, in this shell.
		if w.depth < 4 {
			if name == "eval" {
				if text, ok := w.argText(x.Args[1:], st); ok && w.subScript(text, spanOf(x), st) {
					return true
				}
			} else if len(args) > 0 && w.read != nil {
				if p := joinPlace(st.cwd, args[0]); inRepo(p) {
					if text, ok := w.read(path.Clean(strings.TrimPrefix(p, "^"))); ok && w.subScript(text, spanOf(x), st) {
						if w.depth == 0 {
							w.sourced[int(x.Pos().Line())] = text
						}
						return true
					}
				}
			}
		}
		if name != "eval" && len(args) > 0 {
			if p := joinPlace(st.cwd, args[0]); !inRepo(p) && !systemFile(p) && w.surelyOutside(x, p) {
				w.noteOutside(x)
			}
		}
		// What it runs is not read here: any variable may now hold
		// anything, and the shell may be anywhere.
		st.vars = map[string]string{}
		st.cwd = mergePlace(st.cwd, ".")
		return true
	case "read", "mapfile", "readarray", "getopts", "printf", "unset":
		for _, a := range args {
			delete(st.vars, a)
		}
	case "trap":
		// The trap's command runs later (on a signal, an error, at the
		// end): read where it is set, and an EXIT one again where the
		// script ends; its writes are the trap line's.
		if len(x.Args) > 2 && w.depth < 4 {
			if text, ok := w.argText(x.Args[1:2], st); ok && strings.TrimSpace(text) != "" && !strings.HasPrefix(text, "-") {
				w.subScript(text, spanOf(x), st.clone())
				for _, sig := range ws[min(2, len(ws)):] { // ws may hold fewer words than x.Args ("= = trap")
					if s := strings.ToUpper(sig); s == "EXIT" || s == "0" || s == "SIGEXIT" {
						w.traps = append(w.traps, trap{text, spanOf(x)})
					}
				}
			}
		}
		return false
	case "true", ":":
		return false
	case "export", "readonly", "local", "declare", "typeset":
		return false
	}
	if w.depth < 4 {
		if names := w.calledFuncs(x, name); len(names) == 1 {
			w.callFunc(names[0], x, ws, st)
			return true
		} else if len(names) > 1 {
			// Any of them may run: each from this state, the places merged.
			out := st.clone()
			for _, n := range names {
				b := st.clone()
				w.callFunc(n, x, ws, b)
				out.merge(b)
			}
			*st = *out
			return true
		}
	}
	// `git stash; pytest; git stash pop` (c9's honest shape): a pop of the
	// stash the script itself pushed restores the work tree after the
	// tests; it writes what a later test command runs only when one
	// follows it (with a clean tree the push stores nothing and the pop
	// applies an older stash).
	switch stashOp(ws) {
	case "push":
		st.stashed++
	case "pop":
		if st.stashed > 0 {
			st.stashed--
			w.pops = append(w.pops, x)
			return true
		}
	}
	if len(w.pops) > 0 && RunsTests(strings.Join(ws, " ")) {
		for _, p := range w.pops {
			w.note(p, "a stash (git stash pop) popped before a test command")
		}
		w.pops = nil
	}
	if wr := callTreeWrite(ws, st.cwd); wr != "" {
		w.note(x, wr)
	}
	w.noteResolved(x, st)
	// `cp -r . "$tmp/copy"` (or `git clone . "$tmp/c"`) into a folder
	// mktemp -d made: the copy exists after it, so a cd there cannot fail
	// back into the repository (c9's honest shape, round 27).
	if dest := copyOfCwd(name, args, flags, st.cwd); dest != "" && strings.HasPrefix(joinPlace(st.cwd, dest), madeDir+"/") {
		st.made[joinPlace(st.cwd, dest)] = true
	}
	return true
}

// stashOp is "push" for `git stash` (push, save, or options alone) and
// "pop" for `git stash pop`/`apply` run in the shell's own folder; "" for
// anything else.
func stashOp(ws []string) string {
	if len(ws) < 2 || CommandName(ws[0]) != "git" || ws[1] != "stash" {
		return ""
	}
	var words []string
	for _, a := range ws[2:] {
		if !strings.HasPrefix(a, "-") {
			words = append(words, a)
		}
	}
	switch {
	case len(words) == 0, words[0] == "push" || words[0] == "save":
		return "push"
	case (words[0] == "pop" || words[0] == "apply") && len(words) == 1:
		// A named stash (`pop stash@{1}`) is not the one the script
		// pushed: it reads as a write.
		return "pop"
	}
	return ""
}

// andChain is the statements of an && chain, left to right.
func andChain(x *syntax.BinaryCmd) []*syntax.Stmt {
	var out []*syntax.Stmt
	if l, ok := x.X.Cmd.(*syntax.BinaryCmd); ok && x.X.Redirs == nil && !x.X.Negated && !x.X.Background && l.Op == syntax.AndStmt {
		out = andChain(l)
	} else {
		out = []*syntax.Stmt{x.X}
	}
	return append(out, x.Y)
}

// copyOfCwd is the destination of a recursive copy (cp -r, cp -a, rsync
// -a, git clone) of the shell's own folder, "" for another command.
func copyOfCwd(name string, args, flags []string, cwd string) string {
	src := func(a string) bool {
		return a == "." || a == "./" || a == "./." || joinPlace(cwd, a) == strings.TrimPrefix(cwd, "^") && inRepo(cwd)
	}
	switch name {
	case "cp", "rsync":
		if (hasFlag(flags, "r", "R", "a") || slices.Contains(flags, "--recursive") || slices.Contains(flags, "--archive")) && len(args) == 2 && src(args[0]) {
			return args[1]
		}
	case "git":
		if len(args) == 3 && args[0] == "clone" && src(args[1]) {
			return args[2]
		}
	}
	return ""
}

// calledFuncs is the functions of the script a call may run: the one it
// names, or, when the command word is an expansion, each function some
// assignment in the script names (`f=put; $f .`), or every function for
// a word the walk cannot read (`$(echo put) .`).
func (w *placeWalk) calledFuncs(x *syntax.CallExpr, name string) []string {
	if _, ok := w.funcs[name]; ok {
		return []string{name}
	}
	if _, ok := Literal(x.Args[0]); ok || !wordExpands(x.Args[0]) || literalSlash(x.Args[0]) {
		return nil // `[`, a quoted name, "$DIR/bin/tool": no function's name
	}
	var out []string
	if v := plainParamName(x.Args[0]); v != "" && w.setVals[v] && !w.nonLit[v] {
		for _, l := range w.litVals[v] {
			if f := strings.Fields(l); len(f) > 0 && w.funcs[f[0]] != nil && !slices.Contains(out, f[0]) {
				out = append(out, f[0])
			}
		}
		return out
	}
	// A variable the script never sets, or sets from the environment or
	// a command (`RUNNER=put sh scripts/test.sh` running `$RUNNER .`;
	// round 27 c2's open row), may name any function: every one.
	for n := range w.funcs {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// plainParamName is the variable a word is the plain value of ($f, "$f", ${f}).
func plainParamName(word *syntax.Word) string {
	parts := word.Parts
	if len(parts) == 1 {
		if d, ok := parts[0].(*syntax.DblQuoted); ok && !d.Dollar {
			parts = d.Parts
		}
	}
	if len(parts) == 1 {
		if pe, ok := parts[0].(*syntax.ParamExp); ok && plainParam(pe) {
			return pe.Param.Value
		}
	}
	return ""
}

// spanOf is the lines a node spans.
func spanOf(n syntax.Node) [2]int { return [2]int{int(n.Pos().Line()), int(n.End().Line())} }

// argText is the shell text an eval (or a trap) runs: its words joined
// with spaces, each with its quotes taken off as the shell does before
// eval reads it (a double-quoted word's expansions are left for the
// re-read walk to resolve). ok is false for words it cannot spell.
func (w *placeWalk) argText(words []*syntax.Word, st *placeState) (string, bool) {
	var out []string
	for _, word := range words {
		var b strings.Builder
		for _, p := range word.Parts {
			switch x := p.(type) {
			case *syntax.Lit:
				b.WriteString(x.Value)
			case *syntax.SglQuoted:
				if x.Dollar {
					return "", false
				}
				b.WriteString(x.Value)
			default:
				// An expansion whose value the walk does not know may
				// hold any code, which eval would run.
				known := true
				syntax.Walk(p, func(n syntax.Node) bool {
					switch y := n.(type) {
					case *syntax.ParamExp:
						if _, ok := w.varPlace(y.Param.Value, st); !ok || !plainParam(y) {
							known = false
						}
					case *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob:
						known = false
					}
					return known
				})
				if !known {
					return "", false
				}
				s, e := int(p.Pos().Offset()), int(p.End().Offset())
				if s < 0 || e > len(w.src) || s > e {
					return "", false
				}
				raw := w.src[s:e]
				if d, ok := p.(*syntax.DblQuoted); ok {
					if d.Dollar || len(raw) < 2 {
						return "", false
					}
					raw = raw[1 : len(raw)-1]
				}
				b.WriteString(raw)
			}
		}
		out = append(out, b.String())
	}
	if len(out) == 0 {
		return "", false
	}
	return strings.Join(out, " "), true
}

// subScript walks text (an eval's, a trap's, a sourced file's) as part
// of the script in st, its writes noted on the lines at; false when it
// does not parse.
func (w *placeWalk) subScript(text string, at [2]int, st *placeState) bool {
	f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil {
		return false
	}
	src := w.src
	w.src = text
	w.at = append(w.at, at)
	w.depth++
	w.collect(f)
	w.stmts(f.Stmts, st)
	syntax.Walk(f, func(n syntax.Node) bool {
		if x, ok := n.(*syntax.CallExpr); ok && !w.seen[x] {
			w.call(x, newPlaceState())
		}
		return true
	})
	w.depth--
	w.at = w.at[:len(w.at)-1]
	w.src = src
	return true
}

// callFunc walks the script's function name where x calls it with the
// words ws: its body in this shell, the arguments as $1, $2, ...; a write
// in the body is the calling line's too.
func (w *placeWalk) callFunc(name string, x *syntax.CallExpr, ws []string, st *placeState) {
	body := w.funcs[name]
	{
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
		src := w.src
		if s, ok := w.funcSrc[name]; ok {
			w.src = s
		}
		w.at = append(w.at, spanOf(x))
		w.depth++
		w.stmt(body, st)
		w.depth--
		w.at = w.at[:len(w.at)-1]
		w.src = src
		for k := range st.vars {
			if k == "@" || k == "*" || (len(k) == 1 && k[0] >= '1' && k[0] <= '9') {
				delete(st.vars, k)
			}
		}
		maps.Copy(st.vars, saved)
	}
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
	// Inside a function, an eval, a trap or a sourced file, the command
	// is the calling line's too, which may not spell it.
	if !some && len(w.at) == 0 {
		return
	}
	w.onLines(x, func(l int) {
		if !slices.Contains(w.s.resolved[l], line) && len(w.s.resolved[l]) < 16 {
			w.s.resolved[l] = append(w.s.resolved[l], line)
		}
	})
}

// onLines calls f with each line x spans and each line of the calls the
// walk is inside (w.at); x's own lines only when x is of the script's
// own text.
func (w *placeWalk) onLines(x syntax.Node, f func(int)) {
	if len(w.at) == 0 || w.src == w.s.text {
		for l := int(x.Pos().Line()); l <= int(x.End().Line()); l++ {
			f(l)
		}
	}
	for _, a := range w.at {
		for l := a[0]; l <= a[1]; l++ {
			f(l)
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

// noteOutside records that x (a `.` or `source`) runs a file outside the
// repository: `. ~/x.sh`, `. /tmp/x`, `. "$HOME/env"` (round 27 c2's open
// row). Nothing reads it (the agent may have written it, and verify's
// machine has another), so a line adding it weakens, the path named.
func (w *placeWalk) noteOutside(x *syntax.CallExpr) {
	what := w.sourceWord(x)
	w.onLines(x, func(l int) {
		if w.s.outside[l] == "" {
			w.s.outside[l] = what
		}
	})
}

// gitDirPathRE is a path with a `.git` part (`scripts/.git`, `.git/x`,
// `${0%/*}/../.git/x`) or a place git names for its own folder (`$(git
// rev-parse --git-dir)`).
var gitDirPathRE = lazyregexp.New(`(?i)(?:^|[/"'}\s=])\.git(?:$|[/"'\s])|rev-parse\s+(?:--\S+\s+)*--(?:absolute-git-dir|git-dir|git-common-dir|git-path)\b`)

// gitDirWordRE is a word of a shell line that names a place under a
// `.git` folder by any spelling the line itself shows: a `.git` part, git's
// folder through rev-parse, $GIT_DIR, or a glob that matches `.git`
// (`.gi?`, `.g*t`). noteGitDirRun reads only the file words of a run or a
// `.`; a line that reads such a place (`eval "$(cat .git/x)"`, `cat .git/x
// | sh`, `cd .git && . ./x`, `done < .git/x`) got through (round 44's
// re-check, helper-290's G1-G6).
var gitDirWordRE = lazyregexp.New(`(?i)(?:^|[/"'}\s=(<])\.git(?:$|[/"'\s;)&|])|rev-parse\s+(?:--\S+\s+)*--(?:absolute-git-dir|git-dir|git-common-dir|git-path)\b|\$\{?GIT_(?:DIR|COMMON_DIR)\b|(?:^|[/"'}\s=(<])\.g[^/\s"']*[?*\[][^/\s"']*(?:$|[/"'\s])`)

// existenceTestRE is a line that only asks whether the git folder is there.
var existenceTestRE = lazyregexp.New(`^\s*(?:\[\[?|test)\s+-[defs]\s+["']?\.git["']?\s*(?:\]\]?)?\s*(?:(?:\|\||&&)\s*(?:exit\s+\d+|true|false|return\s*\d*)\s*)?;?\s*$`)

// gitDirLine is the part of a script line gitDirWordRE finds, "" for none
// (a comment, or a test that the git folder exists: `[ -d .git ]`).
func gitDirLine(line string) string {
	t := strings.TrimSpace(line)
	if t == "" || strings.HasPrefix(t, "#") || existenceTestRE.MatchString(t) {
		return ""
	}
	if m := gitConfigRunRE.FindString(t); m != "" {
		return strings.TrimSpace(m) + " (code kept in git's config, .git/config)"
	}
	return strings.TrimSpace(gitDirWordRE.FindString(t))
}

// gitConfigRunRE is a line that runs what git's config holds: `eval
// "$(git config greet.body)"`, `git config x | sh`, `. <(git config x)`.
// The value lives in .git/config, which no commit holds (round 44's
// re-check). Reading a value (`name=$(git config user.name)`) is not this.
var gitConfigRunRE = lazyregexp.New(`(?:\beval\b|\b(?:sh|bash|dash|zsh|ksh|source)\s+(?:-\S+\s+)*["']?\$\(|(?:^|[\s;&|])\.\s+<\(|\bsource\s+<\()[^\n]*?\bgit\s+(?:-[Cc]\s+\S+\s+)*config\b|\bgit\s+(?:-[Cc]\s+\S+\s+)*config\b[^|\n]*\|\s*(?:sh|bash|dash|zsh|ksh)\b`)

// runsFiles are the commands that run a file named among their words.
var runsFiles = map[string]bool{".": true, "source": true, "sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "ash": true,
	"busybox": true, "python": true, "python3": true, "node": true, "perl": true, "ruby": true, "php": true, "bun": true, "deno": true}

// noteGitDirRun records that x runs or sources a file under a `.git`
// folder, or one named `.git`: git never lists, adds or commits such a
// path, so the run the gate recorded reads a file no commit holds and a
// clone lacks (lazy pass 47's A1-A6: the real greeting in scripts/.git,
// greet.sh committed as `. "${0%/*}/.git"`).
func (w *placeWalk) noteGitDirRun(x *syntax.CallExpr, name string) {
	_, interp := interpreters[name]
	for i, a := range x.Args {
		if i > 0 && !runsFiles[name] && !interp {
			break
		}
		off, end := int(a.Pos().Offset()), int(a.End().Offset())
		if off >= end || end > len(w.src) {
			continue
		}
		raw := w.src[off:end]
		if gitDirPathRE.MatchString(raw) {
			w.onLines(x, func(l int) {
				if w.s.outside[l] == "" {
					w.s.outside[l] = raw + " (under a .git folder: git never commits it)"
				}
			})
			return
		}
	}
}

// surelyOutside: a sourced place p that is outside the repository for
// sure: an absolute path, the home folder (~, $HOME), a temporary folder
// ($TMPDIR, mktemp -d), above the repository (..). A variable the walk
// does not follow (`readonly D="$(dirname "$0")"`, a function's $2) may
// be the repository: left alone (real scripts in TestScriptSample).
func (w *placeWalk) surelyOutside(x *syntax.CallExpr, p string) bool {
	raw := w.sourceWord(x)
	switch {
	case path.IsAbs(p), strings.HasPrefix(p, ".."), p == madeDir, strings.HasPrefix(p, madeDir+"/"),
		strings.HasPrefix(raw, "~"), strings.HasPrefix(p, "$~"):
		return true
	}
	for _, v := range []string{"HOME", "TMPDIR", "TMP", "TEMP", "XDG_"} {
		if strings.HasPrefix(strings.TrimLeft(raw, `"'`), "$"+v) || strings.HasPrefix(strings.TrimLeft(raw, `"'`), "${"+v) {
			return true
		}
	}
	return false
}

// sourceWord is the raw text of the file word of a `.` or `source` call.
func (w *placeWalk) sourceWord(x *syntax.CallExpr) string {
	a := x.Args[len(x.Args)-1]
	for _, b := range x.Args[1:] {
		if s, _ := Literal(b); !strings.HasPrefix(s, "-") {
			a = b
			break
		}
	}
	if off, end := int(a.Pos().Offset()), int(a.End().Offset()); off < end && end <= len(w.src) {
		return w.src[off:end]
	}
	return ""
}

// systemFile: a path under a folder the system's packages own (/etc,
// /usr, /lib, /opt), such as /etc/os-release: not a place for a stub.
func systemFile(p string) bool {
	for _, d := range []string{"/etc/", "/usr/", "/lib/", "/lib64/", "/opt/"} {
		if strings.HasPrefix(p, d) && !strings.Contains(p, "..") {
			return true
		}
	}
	return false
}

// note records a tree write on every line the command spans.
func (w *placeWalk) note(x *syntax.CallExpr, what string) {
	w.onLines(x, func(l int) {
		if w.s.writes[l] == "" {
			w.s.writes[l] = what
		}
	})
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
	if cs := loneCmdSubst(a); cs != nil && len(cs.Stmts) > 1 || cs != nil && len(cs.Stmts) == 1 && cs.Stmts[0].Cmd != nil && !isPwd(cs.Stmts[0]) {
		// `$(cd src && pwd)`: where the commands before the pwd leave a
		// shell of their own (round 27).
		if last := lastStmt(cs.Stmts); last != nil && isPwd(last) {
			c := st.clone()
			c.sure, c.cond = false, false
			w.stmts(cs.Stmts, c)
			if inRepo(c.cwd) {
				return "^" + strings.TrimPrefix(c.cwd, "^")
			}
			return c.cwd
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

// loneCmdSubst is the command substitution a word is alone ($(...),
// "$(...)"), nil for another word.
func loneCmdSubst(a *syntax.Word) *syntax.CmdSubst {
	parts := a.Parts
	if len(parts) == 1 {
		if d, ok := parts[0].(*syntax.DblQuoted); ok && !d.Dollar {
			parts = d.Parts
		}
	}
	if len(parts) == 1 {
		if cs, ok := parts[0].(*syntax.CmdSubst); ok {
			return cs
		}
	}
	return nil
}

// lastStmt is the statement a list ends with, through && chains.
func lastStmt(ss []*syntax.Stmt) *syntax.Stmt {
	if len(ss) == 0 {
		return nil
	}
	s := ss[len(ss)-1]
	for {
		b, ok := s.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.AndStmt {
			return s
		}
		s = b.Y
	}
}

// isPwd: the statement prints the cwd (`pwd`, `pwd -P`).
func isPwd(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || len(c.Args) > 2 {
		return false
	}
	n, _ := Literal(c.Args[0])
	return n == "pwd"
}

// wordExpands: a word with a part the shell fills at run time.
func wordExpands(word *syntax.Word) bool {
	found := false
	syntax.Walk(word, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

// literalSlash: a word with a literal / in it names a file, never a
// function.
func literalSlash(word *syntax.Word) bool {
	found := false
	syntax.Walk(word, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Lit:
			found = found || strings.Contains(x.Value, "/")
		case *syntax.SglQuoted:
			found = found || strings.Contains(x.Value, "/")
		case *syntax.CmdSubst, *syntax.ParamExp:
			return false
		}
		return !found
	})
	return found
}
