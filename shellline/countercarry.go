package shellline

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// A count put aside and brought back. Round 48's honest rows (helpers hC
// and hD) keep the count somewhere else across a second suite and add it
// back before the failure test:
//
//	echo "$fail" >.fails; fail=0; <checks>; fail=$((fail + $(cat .fails)))
//	set -- "$fail"; fail=0; <checks>; fail=$((fail + $1))
//	... | { <checks>; echo $fail > .fails; }; read -r fail < .fails
//
// The reset between is no reset: every failure marked before it reaches
// the failure test. readCarries finds such a save and its restore; the
// counter rule reads the save as it reads `saved=$fail` (a flow to a
// name no variable has: "\x00file:.fails", "\x00pos:1").
//
// What makes one (and what its lazy twins lack):
//   - the save writes the count itself, `echo "$fail" >F` or `printf
//     '%s\n' "$fail" >F` (not `echo 0 >F`), with `>` to a literal file
//     or to "$tmp" set once by `tmp=$(mktemp)` and named nowhere else
//     (tempFileVar), or `set -- "$fail" ["$@"]` (not `set -- 0`); at
//     the top level, or as a statement of its own in a pipeline's group
//     (the count out of that child shell) whose statements before it set
//     no count (`{ fail=0; ...; echo "$fail" >F; }` saves the group's
//     reset);
//   - the restore is a top-level statement after it: `read [-r] fail <F`,
//     or `fail=<value>` whose value reads only the count and the saved
//     one (`$(cat F)`, `$(< F)`, `$(head -n1 F)`, `$1`, or `prev` read
//     by `read [-r] prev <F` the statement before), and brings the
//     saved value back when the count is at its start (counterResets:
//     not `fail=$(( $(cat F) * 0 + fail ))`);
//   - nothing between them (for a group's save, from the pipeline's
//     start: its earlier parts run alongside) can change the place: no
//     other line names F, no function or trap (but an EXIT trap) does,
//     no assignment holds it, and no cd, eval or source runs between;
//     for $1 no set, shift, eval or source at the top level between;
//   - the failure test reads the count after the restore (counterResets).

// counterCarry is a count saved to a place and restored from it.
type counterCarry struct {
	v, via  string
	save    *syntax.Stmt
	line    int // the save's line
	restore int // the restore's line
	// part: the pipeline's group the save is a statement of, nil at the
	// top level.
	part *syntax.Stmt
	// gap: for a save in a pipeline's group, top-level statements between
	// the pipeline and the restore that may mark the count there.
	gap  bool
	col  int // the restore's column (0 for read)
	eval valueEval
}

// readCarries lists the carries of f.
func readCarries(f *syntax.File, src string) []counterCarry {
	var out []counterCarry
	type save struct {
		v, via, file string
		st, part     *syntax.Stmt
		// from: where the place is watched from, the save's end, or for
		// a save in a pipeline's group the pipeline's start (its other
		// parts run alongside the group).
		from syntax.Node
	}
	var saves []save
	note := func(st, part, pipe *syntax.Stmt, before []*syntax.Stmt) {
		var from syntax.Node = st
		if pipe != nil {
			from = pipe
		}
		if v, file := savedToFile(st); v != "" {
			if part != nil && assignsAny(before, v) {
				return // the group sets the count before it saves it
			}
			if tv, ok := strings.CutPrefix(file, tempPlace); ok && (part != nil || !tempFileVar(f, src, tv, st)) {
				return // a file named by a variable: only mktemp's
			}
			saves = append(saves, save{v, "\x00file:" + file, file, st, part, from})
		} else if v := savedToArgs(st); v != "" && part == nil {
			saves = append(saves, save{v, "\x00pos:1", "", st, nil, from})
		}
	}
	for _, st := range f.Stmts {
		note(st, nil, nil, nil)
		if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && !st.Background {
			for _, p := range pipeParts(b) {
				var list []*syntax.Stmt
				switch x := p.Cmd.(type) {
				case *syntax.Block:
					list = x.Stmts
				case *syntax.Subshell:
					list = x.Stmts
				}
				for i, s := range list {
					note(s, p, st, list[:i])
				}
			}
		}
	}
	for _, s := range saves {
		for i, r := range f.Stmts {
			if r.Pos().Offset() <= s.st.End().Offset() {
				continue
			}
			var next *syntax.Stmt
			if i+1 < len(f.Stmts) {
				next = f.Stmts[i+1]
			}
			ev, col, at := restoreOf(r, next, s.v, s.file, s.via)
			if ev == nil {
				continue
			}
			if !keptBetween(f, src, s.file, s.via, s.st, s.from, r) {
				break // the place may change before it is read back
			}
			c := counterCarry{v: s.v, via: s.via, save: s.st, line: int(s.st.Pos().Line()), restore: int(at.Pos().Line()), col: col, part: s.part, eval: ev}
			if s.part != nil {
				for _, st := range f.Stmts {
					if st.Pos().Offset() > s.st.End().Offset() && st.End().Offset() < r.Pos().Offset() && !onlyPrints(st, s.v) {
						c.gap = true
					}
				}
			}
			out = append(out, c)
			break
		}
	}
	return out
}

// pipeParts lists a pipeline's commands.
func pipeParts(b *syntax.BinaryCmd) []*syntax.Stmt {
	var out []*syntax.Stmt
	for _, s := range []*syntax.Stmt{b.X, b.Y} {
		if x, ok := s.Cmd.(*syntax.BinaryCmd); ok && (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) {
			out = append(out, pipeParts(x)...)
		} else {
			out = append(out, s)
		}
	}
	return out
}

// countWord: w is just one variable's value ($fail, "$fail", ${fail}).
func countWord(w *syntax.Word) string {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return ""
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil || pe.Index != nil || pe.Length || pe.Excl || pe.Width || !syntax.ValidName(pe.Param.Value) {
		return ""
	}
	return pe.Param.Value
}

// savedToFile: st writes one variable's value, and only it, to a literal
// file with `>`: `echo "$fail" >.fails`, `printf '%s\n' "$fail" >.fails`.
func savedToFile(st *syntax.Stmt) (v, file string) {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || len(call.Assigns) > 0 || len(st.Redirs) != 1 {
		return "", ""
	}
	r := st.Redirs[0]
	if r.N != nil || r.Op != syntax.RdrOut && r.Op != syntax.ClbOut {
		return "", ""
	}
	file, ok = placeOf(r.Word)
	if !ok || file == "" || file == "/dev/null" {
		return "", ""
	}
	args := call.Args
	switch wordLit(args[0]) {
	case "echo":
		if len(args) != 2 {
			return "", ""
		}
	case "printf":
		if len(args) != 3 {
			return "", ""
		}
		if f, _ := Literal(args[1]); f != "%s\\n" && f != "%d\\n" && f != "%s" && f != "%d" {
			return "", ""
		}
	default:
		return "", ""
	}
	if v = countWord(args[len(args)-1]); v == "" {
		return "", ""
	}
	return v, file
}

// savedToArgs: st is `set -- "$fail"`, or with the script's arguments or
// literal words after it (`set -- "$fail" "$@"`): $1 is the count either
// way, and those words expand to nothing that runs.
func savedToArgs(st *syntax.Stmt) string {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || len(call.Assigns) > 0 || len(st.Redirs) > 0 || len(call.Args) < 3 {
		return ""
	}
	if wordLit(call.Args[0]) != "set" || wordLit(call.Args[1]) != "--" {
		return ""
	}
	for _, a := range call.Args[3:] {
		if _, lit := Literal(a); !lit && !allArgs(a) {
			return ""
		}
	}
	return countWord(call.Args[2])
}

// allArgs: w is "$@".
func allArgs(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	dq, ok := w.Parts[0].(*syntax.DblQuoted)
	if !ok || len(dq.Parts) != 1 {
		return false
	}
	pe, ok := dq.Parts[0].(*syntax.ParamExp)
	return ok && pe.Param != nil && pe.Param.Value == "@" && !pe.Excl && !pe.Length && !pe.Width && pe.Exp == nil && pe.Repl == nil && pe.Slice == nil && pe.Index == nil
}

// catOf: cs prints the literal file's text and nothing else: `$(cat F)`,
// `$(cat < F)`, `$(< F)`; or its first line, which is all a save writes:
// `$(head -n1 F)`, `$(head -1 < F)`.
func catOf(cs *syntax.CmdSubst) string {
	if len(cs.Stmts) != 1 {
		return ""
	}
	st := cs.Stmts[0]
	if st.Negated || st.Background {
		return ""
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if st.Cmd != nil && (!ok || len(call.Assigns) > 0) {
		return ""
	}
	var args []*syntax.Word
	if call != nil {
		args = call.Args
	}
	// cmd: the command, "" for none ($(< F)); args: its operands.
	cmd := ""
	if len(args) > 0 {
		cmd, args = wordLit(args[0]), args[1:]
		if cmd == "" {
			return ""
		}
	}
	if cmd == "head" && len(args) > 0 {
		// head's first line: the whole of what the save wrote.
		switch a := wordLit(args[0]); {
		case a == "-1" || a == "-n1":
			cmd, args = "cat", args[1:]
		case a == "-n" && len(args) > 1 && wordLit(args[1]) == "1":
			cmd, args = "cat", args[2:]
		}
	}
	switch {
	case cmd == "" && len(st.Redirs) == 1 && st.Redirs[0].Op == syntax.RdrIn && st.Redirs[0].N == nil:
		l, _ := placeOf(st.Redirs[0].Word) // $(< F)
		return l
	case cmd == "cat" && len(args) == 0 && len(st.Redirs) == 1 && st.Redirs[0].Op == syntax.RdrIn && st.Redirs[0].N == nil:
		l, _ := placeOf(st.Redirs[0].Word)
		return l
	case cmd == "cat" && len(args) == 1 && len(st.Redirs) == 0:
		l, _ := placeOf(args[0])
		if strings.HasPrefix(l, "-") {
			return ""
		}
		return l
	}
	return ""
}

// restoreOf: r, a top-level statement, sets v from the place the count
// was saved to (file, or $1 for via "\x00pos:1"), or reads the file into
// another variable that next (the statement after r) then sets v from;
// the value it sets, from the count (in) and the saved value (others),
// its column and its statement (r or next). nil when it is no such
// restore.
func restoreOf(r, next *syntax.Stmt, v, file, via string) (valueEval, int, *syntax.Stmt) {
	call, ok := r.Cmd.(*syntax.CallExpr)
	if !ok || r.Negated || r.Background {
		return nil, 0, nil
	}
	// `read [-r] fail < F`: the saved value whole.
	if file != "" && len(call.Assigns) == 0 && len(r.Redirs) == 1 && len(call.Args) >= 2 && wordLit(call.Args[0]) == "read" {
		rd := r.Redirs[0]
		names := call.Args[1:]
		if wordLit(names[0]) == "-r" {
			names = names[1:]
		}
		if l, _ := placeOf(rd.Word); rd.Op != syntax.RdrIn || rd.N != nil || l != file || len(names) != 1 {
			return nil, 0, nil
		}
		switch n := wordLit(names[0]); {
		case n == v:
			return func(in, others string, consts map[string]string) (string, bool) { return others, true }, 0, r
		case syntax.ValidName(n) && next != nil:
			// `read -r prev <F; fail=$((fail + prev))`: the statement
			// right after sets the count from it (nothing between sets
			// prev again).
			if ev, col := assignRestore(next, v, "", via, n); ev != nil {
				return ev, col, next
			}
		}
		return nil, 0, nil
	}
	ev, col := assignRestore(r, v, file, via, "")
	return ev, col, r
}

// assignRestore: r is `v=<value>` whose value reads only the count and
// the saved place: `$(cat F)` (file), $1 (via "\x00pos:1"), or the
// variable kept the saved value was read into.
func assignRestore(r *syntax.Stmt, v, file, via, kept string) (valueEval, int) {
	call, ok := r.Cmd.(*syntax.CallExpr)
	if !ok || r.Negated || r.Background || len(call.Args) > 0 || len(call.Assigns) != 1 || len(r.Redirs) > 0 {
		return nil, 0
	}
	as := call.Assigns[0]
	if as.Name == nil || as.Name.Value != v || as.Value == nil || as.Append || as.Index != nil || as.Array != nil || as.Naked {
		return nil, 0
	}
	// The value reads the count and the saved place, nothing else: one
	// `$(cat F)` (and no other command), $1, or kept.
	reads, cats, others := 0, 0, false
	syntax.Walk(as.Value, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			if file != "" && catOf(x) == file {
				cats++
				reads++
			} else {
				others = true
			}
			return false
		case *syntax.ProcSubst:
			others = true
		case *syntax.ParamExp:
			if x.Param != nil && x.Param.Value == "1" && via == "\x00pos:1" {
				reads++
			}
		}
		return true
	})
	for _, w := range readOutsideSubst(as.Value) {
		if kept != "" && w == kept {
			reads++
		} else if w != v && !(w == "1" && via == "\x00pos:1") {
			others = true
		}
	}
	if others || reads != 1 {
		return nil, 0
	}
	word := as.Value
	return func(in, saved string, consts map[string]string) (out string, ok bool) {
		defer unknownOnPanic(&ok)
		env := &valueEnv{vars: map[string]string{v: in}, consts: consts}
		if via == "\x00pos:1" {
			env.vars["1"] = saved
		}
		if kept != "" {
			env.vars[kept] = saved
		}
		cfg := staticConfig(env)
		inner := cfg.CmdSubst
		cfg.CmdSubst = func(w io.Writer, cs *syntax.CmdSubst) error {
			if file != "" && catOf(cs) == file {
				_, err := io.WriteString(w, saved+"\n")
				return err
			}
			return inner(w, cs)
		}
		fs, err := expand.Fields(cfg, word)
		return strings.Join(fs, " "), err == nil
	}, int(as.Pos().Col())
}

// keptBetween: nothing between the save s and the restore r can change
// the place the count was saved to; between starts at from (s, or the
// pipeline s is a part of).
//
// Anywhere in the script: no trap but an EXIT one, no eval, alias or
// source (what they run is not read here), and no assignment whose value
// names the file. Between the two, and in every function (one may be
// called there): no word that names the file (however quoted) or may
// (a glob), no write to a file not spelled out, no rm, mv, cp, ... of a
// file not spelled out, no cd in this shell (a relative file is another
// one there); for $1, no set or shift in this shell between.
func keptBetween(f *syntax.File, src, file, via string, s *syntax.Stmt, fromNode syntax.Node, r *syntax.Stmt) bool {
	from, to := int(s.End().Offset()), int(r.Pos().Offset())
	if fromNode != s {
		from = int(fromNode.Pos().Offset())
	}
	if from > to || to > len(src) {
		return false
	}
	between := func(n syntax.Node) bool {
		return int(n.Pos().Offset()) >= from && int(n.End().Offset()) <= to
	}
	inSaveOrRestore := func(n syntax.Node) bool {
		for _, st := range []*syntax.Stmt{s, r} {
			if n.Pos().Offset() >= st.Pos().Offset() && n.End().Offset() <= st.End().Offset() {
				return true
			}
		}
		return false
	}
	// names: w may name the file.
	names := func(w *syntax.Word) bool {
		if file == "" {
			return false
		}
		if v, ok := strings.CutPrefix(file, tempPlace); ok {
			// A mktemp file: any word that names its variable, or a glob
			// (it may match the file's random name).
			return mentions(nodeText(src, w), v) || globWord(w)
		}
		if strings.Contains(nodeText(src, w), file) {
			return true
		}
		l, ok := Literal(w)
		if ok {
			return strings.Contains(l, file)
		}
		return globWord(w)
	}
	ok := true
	// fn: in a function's body; child: in a child shell (its cd and set
	// are its own).
	var walk func(n syntax.Node, fn, child bool)
	walk = func(n syntax.Node, fn, child bool) {
		syntax.Walk(n, func(n syntax.Node) bool {
			if !ok || n == nil {
				return false
			}
			watched := (fn || between(n)) && !inSaveOrRestore(n)
			switch x := n.(type) {
			case *syntax.FuncDecl:
				name := ""
				if x.Name != nil { // nil: an anonymous function (`()0`)
					name = x.Name.Value
				}
				switch name {
				case "echo", "printf", "cat", "read", "set", "shift", "command", "builtin", "test", "[", "exit", "wc", "head":
					ok = false // the save or the restore would run it in place of the builtin
				}
				walk(x.Body, true, child)
				return false
			case *syntax.Subshell:
				for _, st := range x.Stmts {
					walk(st, fn, true)
				}
				return false
			case *syntax.CmdSubst:
				for _, st := range x.Stmts {
					walk(st, fn, true)
				}
				return false
			case *syntax.ProcSubst:
				// <(...) and >(...) run alongside the script, as a job in
				// the background.
				if int(x.Pos().Offset()) < to {
					ok = false
				}
				for _, st := range x.Stmts {
					walk(st, fn, true)
				}
				return false
			case *syntax.Assign:
				if v, temp := strings.CutPrefix(file, tempPlace); temp && x.Name != nil && x.Name.Value == v && mktempValue(x) {
					return true // the file's own `tmp=$(mktemp -t x)` (tempFileVar)
				}
				if x.Value != nil && !inSaveOrRestore(x) && names(x.Value) {
					ok = false // a name for the file
				}
			case *syntax.Word:
				if watched && names(x) {
					ok = false // written, removed, or read some other way
				}
			case *syntax.Redirect:
				if _, lit := Literal(x.Word); watched && file != "" && !lit && x.Op != syntax.RdrIn && x.Op != syntax.DplIn && x.Op != syntax.DplOut && x.Op != syntax.Hdoc && x.Op != syntax.DashHdoc && x.Op != syntax.WordHdoc {
					ok = false // a write to a file not spelled out
				}
			case *syntax.Stmt:
				// A job in the background runs alongside whatever follows
				// it: before the restore it may write anything (round 49,
				// helper 308); so does a coproc.
				_, coproc := x.Cmd.(*syntax.CoprocClause)
				if (x.Background || x.Coprocess || coproc) && int(x.Pos().Offset()) < to {
					ok = false
				}
			case *syntax.CallExpr:
				if len(x.Args) == 0 {
					return true
				}
				name := wordLit(x.Args[0])
				if name == "" || strings.ContainsAny(name, `\'"`) {
					// "set", \shift (a Lit that keeps its backslash): the
					// shell runs the unquoted word.
					name = strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(nodeText(src, x.Args[0]))
				}
				if (name == "command" || name == "builtin") && len(x.Args) > 1 {
					name = strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(nodeText(src, x.Args[1]))
				}
				switch name {
				case "eval", ".", "source", "alias":
					ok = false
				case "ln":
					if int(x.Pos().Offset()) < to {
						ok = false // a second name for the file, made before the save
					}
				case "set":
					for _, a := range x.Args[1:] {
						l, _ := Literal(a)
						if l == "--" || l == "-" {
							break
						}
						if strings.HasPrefix(l, "-") && strings.Contains(l, "C") || l == "noclobber" {
							ok = false // noclobber: the save may fail and leave the file as it was
						}
					}
				case "trap":
					args := x.Args[1:]
					if len(args) > 0 && wordLit(args[0]) == "--" {
						args = args[1:]
					}
					if len(args) >= 2 && quietTrapAction(args[0]) {
						break // only logs to stderr or exits: changes no file, no count
					}
					for i, a := range args {
						if l := wordLit(a); i > 0 && l != "EXIT" && l != "0" || len(args) < 2 {
							ok = false // run when a signal comes, maybe between
						}
					}
				}
				if !watched {
					return true
				}
				switch name {
				case "cd", "pushd", "popd":
					if file != "" && !child && !strings.HasPrefix(file, "/") {
						ok = false
					}
				case "find", "xargs", "parallel":
					ok = false // what it runs or writes is not read here
				case "sh", "bash", "dash", "zsh", "ksh":
					for _, a := range x.Args[1:] {
						if l, _ := Literal(a); strings.HasPrefix(l, "-") && strings.Contains(l, "c") {
							ok = false // a command string: not read here
						}
					}
				case "rm", "mv", "cp", "install", "truncate", "tee", "dd", "sed", "unlink", "rsync", "touch", "chmod", "mkfifo":
					for _, a := range x.Args[1:] {
						if _, lit := Literal(a); !lit && file != "" {
							ok = false // a file not spelled out
						}
					}
				case "set", "shift":
					if via == "\x00pos:1" && !fn && !child && (name == "shift" || setsArgs(x.Args[1:])) {
						ok = false
					}
				}
			}
			return true
		})
	}
	walk(f, false, false)
	return ok
}

// assignsAny: some statement of sts may set v in its shell to other than
// a mark: an assignment or arithmetic that does not keep or add one to
// the count (`fail=0`, not `fail=$((fail+1))`), or a command that sets
// the names it is given (read fail, unset fail, printf -v fail). What a
// function called there does is the counter rule's.
func assignsAny(sts []*syntax.Stmt, v string) bool {
	// marks: e gives 2 for 1 and 4 for 3, or keeps them, reading no
	// other name.
	marks := func(e valueEval, n syntax.Node) bool {
		if e == nil || len(othersRead(n, v)) > 0 {
			return false
		}
		for _, in := range []int{1, 3} {
			out, ok := e(strconv.Itoa(in), "", nil)
			n, err := strconv.Atoi(strings.TrimSpace(out))
			if !ok || err != nil || n != in && n != in+1 {
				return false
			}
		}
		return true
	}
	setters := map[string]bool{"read": true, "unset": true, "printf": true, "mapfile": true, "readarray": true, "getopts": true,
		"declare": true, "typeset": true, "local": true, "export": true, "readonly": true, "let": true, "command": true, "builtin": true}
	found := false
	for _, st := range sts {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.Assign:
				if x.Name != nil && x.Name.Value == v {
					found = found || x.Value == nil || x.Append || x.Index != nil || x.Array != nil || !marks(assignValue(v, x.Value), x.Value)
				}
			case *syntax.BinaryArithm:
				if arithAssigns(x.Op) && arithName(x.X) == v && !marks(arithValue(v, x), x) {
					found = true
				}
			case *syntax.UnaryArithm:
				if x.Op == syntax.Dec && arithName(x.X) == v {
					found = true
				}
			case *syntax.CallExpr:
				if len(x.Args) == 0 {
					break
				}
				if name, lit := Literal(x.Args[0]); lit && !setters[name] {
					break
				}
				for _, a := range x.Args[1:] {
					l, _ := Literal(a)
					found = found || l == v || strings.HasPrefix(l, v+"=")
				}
			}
			return !found
		})
	}
	return found
}

// globWord: w has an unquoted glob character.
func globWord(w *syntax.Word) bool {
	glob := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.DblQuoted); ok {
			return false // "*" is no glob
		}
		if x, ok := n.(*syntax.Lit); ok {
			i := strings.Index(x.Value, "[")
			glob = strings.ContainsAny(x.Value, "*?") || i >= 0 && strings.Contains(x.Value[i:], "]")
		}
		return !glob
	})
	return glob
}

// tempPlace starts the place of a file named by a variable ("\x00$tmp"):
// readCarries keeps it only when the variable holds a file mktemp made
// (tempFileVar).
const tempPlace = "\x00$"

// placeOf: the file w names, a literal (`.fails`) or one variable's value
// (`"$tmp"`, as tempPlace+"tmp").
func placeOf(w *syntax.Word) (string, bool) {
	if l, ok := Literal(w); ok {
		return l, true
	}
	if v := countWord(w); v != "" {
		return tempPlace + v, true
	}
	return "", false
}

// mentions: text has name as a word of its own (not part of a longer
// name): `"$tmp"`, `read tmp`, `r=tmp`.
func mentions(text, name string) bool {
	ident := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(name)
		if (a == 0 || !ident(text[a-1])) && (b == len(text) || !ident(text[b])) {
			return true
		}
		i = a + 1
	}
}

// tempFileVar: v holds a file mktemp made for the save s and nothing
// else names: v is set once in f, by a top-level `v=$(mktemp)` (or with
// a template, -t, -p DIR, -q, --tmpdir) before s; no loop sets it, no
// function is called mktemp, and no word before s but in an EXIT trap
// names v (`read v`, `unset v`). keptBetween watches it from s on.
func tempFileVar(f *syntax.File, src, v string, s *syntax.Stmt) bool {
	var def *syntax.Stmt
	for _, st := range f.Stmts {
		if st.End().Offset() > s.Pos().Offset() {
			break
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) > 0 || len(call.Assigns) != 1 || len(st.Redirs) > 0 || st.Negated || st.Background {
			continue
		}
		if as := call.Assigns[0]; as.Name != nil && as.Name.Value == v && mktempValue(as) {
			def = st
		}
	}
	if def == nil {
		return false
	}
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !ok {
			return false
		}
		switch x := n.(type) {
		case *syntax.Stmt:
			if x == def || x == s {
				return false
			}
		case *syntax.Assign:
			ok = x.Name == nil || x.Name.Value != v // set again
		case *syntax.WordIter:
			ok = x.Name == nil || x.Name.Value != v // for v in ...
		case *syntax.FuncDecl:
			ok = x.Name == nil || x.Name.Value != "mktemp"
		case *syntax.CallExpr:
			if len(x.Args) > 2 && wordLit(x.Args[0]) == "trap" {
				exitOnly := true
				for _, a := range x.Args[2:] {
					exitOnly = exitOnly && (wordLit(a) == "EXIT" || wordLit(a) == "0")
				}
				if exitOnly {
					return false // run at the end: `trap 'rm -f "$tmp"' EXIT`
				}
			}
		case *syntax.Word:
			if x.Pos().Offset() < s.Pos().Offset() && mentions(nodeText(src, x), v) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// mktempValue: as is `v=$(mktemp ...)` with the options tempFileVar
// names, the file made (not -d, not -u).
func mktempValue(as *syntax.Assign) bool {
	if as.Value == nil || as.Append || as.Index != nil || as.Array != nil || as.Naked {
		return false
	}
	parts := as.Value.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	cs, ok := parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 || cs.Stmts[0].Negated || cs.Stmts[0].Background {
		return false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 || wordLit(call.Args[0]) != "mktemp" {
		return false
	}
	args := call.Args[1:]
	for i := 0; i < len(args); i++ {
		l, lit := Literal(args[i])
		switch {
		case !lit:
			return false
		case l == "-p" && i+1 < len(args):
			i++
		case l == "-t" || l == "-q" || l == "--tmpdir" || strings.HasPrefix(l, "--tmpdir="):
		case strings.HasPrefix(l, "-"):
			return false // -d makes a directory, -u no file
		}
	}
	return true
}

// setsArgs: set's words give the positional parameters (`set -- x`, `set
// x`, `set -e x`), not only options (`set -e`, `set -o errexit`).
func setsArgs(args []*syntax.Word) bool {
	for i := 0; i < len(args); i++ {
		l, lit := Literal(args[i])
		switch {
		case !lit:
			return true
		case l == "--" || l == "-":
			return true
		case l == "-o" || l == "+o":
			i++
		case strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+"):
		default:
			return true
		}
	}
	return false
}

// nodeText is n's text in src.
func nodeText(src string, n syntax.Node) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(src) || a > b {
		return ""
	}
	return src[a:b]
}

// onlyPrints: st only prints (echo, printf, :) and sets nothing of v.
func onlyPrints(st *syntax.Stmt, v string) bool {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 || slices.Contains(varsAssigned(st), v) {
		return false
	}
	switch wordLit(call.Args[0]) {
	case "echo", ":", "true":
		return true
	case "printf":
		l, _ := Literal(call.Args[min(1, len(call.Args)-1)])
		return !strings.HasPrefix(l, "-v")
	}
	return false
}

// varsAssigned: the names arithmetic in n assigns ($((fail=0))).
func varsAssigned(n syntax.Node) []string {
	var out []string
	syntax.Walk(n, func(n syntax.Node) bool {
		switch a := n.(type) {
		case *syntax.BinaryArithm:
			if arithAssigns(a.Op) {
				out = append(out, arithName(a.X))
			}
		case *syntax.UnaryArithm:
			if a.Op == syntax.Inc || a.Op == syntax.Dec {
				out = append(out, arithName(a.X))
			}
		}
		return true
	})
	return out
}

// applyCarries reads carries into fl as counterResets reads them: each
// save a flow of the count to the place, each restore an assignment that
// reads it back. By count, the carries by their restore's line.
func applyCarries(fl *counterFlow, carries []counterCarry) map[string]map[int]counterCarry {
	out := map[string]map[int]counterCarry{}
	for _, c := range carries {
		for i, a := range fl.assigns[c.v] {
			if a.fn != "" || a.trap || a.line != c.restore || a.col != c.col {
				continue
			}
			a.others, a.reset, a.eval = []string{c.via}, false, c.eval
			fl.assigns[c.v][i] = a
			fl.flows[c.v] = append(fl.flows[c.v], counterFlowTo{to: c.via, line: c.line})
			if out[c.v] == nil {
				out[c.v] = map[int]counterCarry{}
			}
			out[c.v][c.restore] = c
			break
		}
	}
	return out
}

// restores: the restore c brings back the failures marked before the
// save when none came after it (the count at its start, the saved one
// marked), and keeps those marked after it when the saved one is at the
// start (unless the save is the count of a pipeline's group the restore
// follows straight away: that count holds the one before).
func (cv *counterValues) restores(c counterCarry) bool {
	for _, m := range cv.marked {
		if out, ok := c.eval(cv.start, m, cv.consts); !ok || cv.asStart(out) {
			return false
		}
		if c.part != nil && !c.gap {
			continue
		}
		if out, ok := c.eval(m, cv.start, cv.consts); !ok || cv.asStart(out) {
			return false
		}
	}
	return true
}

// testedAfter: a failure test reads v after line l, on the top level or
// in a function called there, or reads a variable v is summed into after
// l (`total=$((total+fail))` before `[ $total -eq 0 ]`).
func testedAfter(fl *counterFlow, v string, l int) bool {
	for _, r := range fl.fails[v] {
		if r > l {
			return true
		}
	}
	for _, f := range fl.flows[v] {
		if f.line <= l {
			continue
		}
		for _, r := range fl.fails[f.to] {
			if r > f.line {
				return true
			}
		}
	}
	for _, c := range fl.calls {
		if c.fn == "" && c.line > l && fl.funcs[c.name] && slices.Contains(fl.fnFails[c.name], v) {
			return true
		}
	}
	return false
}

// recountCopy: a copies into v (`fail=$n`) a variable set once, on the
// top level above it, to a recount of a file the count's marking helper
// appends to (`n=$(wc -l < failures.txt)`), with no mark of v between
// the recount and the copy (round 48, helper hD's honest row). The
// recount holds the marks as `fail=$(wc -l < failures.txt)` does
// (unknownValue); one taken before a check (`n=$(...); check ...;
// fail=$n`), of another file, or of a variable set twice does not.
func recountCopy(a counterAssign, v string, fl *counterFlow, cv *counterValues) bool {
	if a.fn != "" || a.trap || a.subst || len(a.others) != 1 {
		return false
	}
	n := a.others[0]
	if v := strings.ReplaceAll(a.value, " ", ""); !a.reset && v != "$(("+n+"))" && v != "$(($"+n+"))" && v != "$((${"+n+"}))" {
		return false // a copy, plain or as arithmetic (`fail=$((n))`)
	}
	ns := fl.assigns[n]
	if len(ns) != 1 || ns[0].fn != "" || ns[0].trap || ns[0].line > a.line || ns[0].self || len(ns[0].others) > 0 {
		return false
	}
	src := ns[0]
	if !cv.numeric || !src.subst || src.eval == nil || !cv.recount(src) {
		return false
	}
	for _, b := range fl.assigns[v] {
		if b.fn == "" && b.line > src.line && b.line < a.line {
			return false
		}
	}
	for _, c := range fl.calls {
		if c.fn == "" && c.line > src.line && c.line < a.line && slices.Contains(fl.fnMarks[c.name], v) {
			return false
		}
	}
	return true
}

// readOutsideSubst is varsRead outside command substitutions (`cat` in
// `$((fail + $(cat .fails)))` is a command, not a name).
func readOutsideSubst(w *syntax.Word) []string {
	var out []string
	syntax.Walk(w, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			return false
		case *syntax.ParamExp:
			if x.Param != nil {
				out = append(out, x.Param.Value)
			}
		case *syntax.Word:
			if l := arithName(x); l != "" {
				out = append(out, l)
			}
		}
		return true
	})
	return out
}

// carriedOut: the call, in a pipeline's group, marks a count the group
// then saves (a carry whose save is a later statement of that group, in
// the same shell as the call, with no exit or return between), restored
// on the top level before the failure test: `... | { while read -r n; do
// check ...; done; echo $fail > .fails; }; read -r fail < .fails`.
func carriedOut(call *syntax.CallExpr, v string, carries []counterCarry, fl *counterFlow) bool {
	for _, c := range carries {
		if c.v != v || c.part == nil || !testedAfter(fl, v, c.restore) {
			continue
		}
		var list []*syntax.Stmt
		switch x := c.part.Cmd.(type) {
		case *syntax.Block:
			list = x.Stmts
		case *syntax.Subshell:
			list = x.Stmts
		}
		found, stopped := false, false
		for _, st := range list {
			if st == c.save {
				if found && !stopped {
					return true
				}
				break
			}
			if !found && sameShell(st, call) {
				found = true
			}
			if found && endsShell(st) {
				stopped = true
			}
		}
	}
	return false
}

// sameShell: call runs in st's shell (not in a child of it: a subshell,
// a command substitution, a pipeline, the background).
func sameShell(st *syntax.Stmt, call *syntax.CallExpr) bool {
	found := false
	syntax.Walk(st, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
			return false
		case *syntax.Stmt:
			return !x.Background
		case *syntax.BinaryCmd:
			return x.Op != syntax.Pipe && x.Op != syntax.PipeAll
		case *syntax.CallExpr:
			found = found || x == call
		}
		return !found
	})
	return found
}

// endsShell: st may end the shell it runs in before the save (exit,
// return, exec).
func endsShell(st *syntax.Stmt) bool {
	ends := false
	syntax.Walk(st, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.CallExpr:
			if len(x.Args) > 0 {
				switch wordLit(x.Args[0]) {
				case "exit", "return", "exec":
					ends = true
				}
			}
		}
		return !ends
	})
	return ends
}

// quietTrapAction: a trap's action (round 50, helper 313) that writes no
// file and sets no count whenever the signal comes: empty (the signal
// ignored), `-` (its default), or statements each an echo or printf
// (no -v) of words that run nothing, sent to stderr, `exit N` with a
// number, `:` or true (`trap 'echo interrupted >&2; exit 130' INT`).
func quietTrapAction(w *syntax.Word) bool {
	action, ok := Literal(w)
	if !ok {
		return false
	}
	if strings.TrimSpace(action) == "" || action == "-" {
		return true
	}
	af, err := syntax.NewParser().Parse(strings.NewReader(action), "")
	if err != nil || len(af.Stmts) == 0 {
		return false
	}
	for _, st := range af.Stmts {
		c, isCall := st.Cmd.(*syntax.CallExpr)
		if !isCall || st.Negated || st.Background || st.Coprocess || len(c.Assigns) > 0 || len(c.Args) == 0 {
			return false
		}
		name, _ := Literal(c.Args[0])
		for _, a := range c.Args[1:] {
			if !inertWord(a) {
				return false
			}
		}
		switch name {
		case "exit":
			if len(st.Redirs) > 0 || len(c.Args) > 2 {
				return false
			}
			if len(c.Args) == 2 {
				n, lit := Literal(c.Args[1])
				if !lit || n == "" || strings.Trim(n, "0123456789") != "" {
					return false
				}
			}
		case ":", "true":
			if len(st.Redirs) > 0 {
				return false
			}
		case "echo", "printf":
			if len(st.Redirs) == 0 {
				return false
			}
			for _, a := range c.Args[1:] {
				if l, _ := Literal(a); name == "printf" && strings.HasPrefix(l, "-v") {
					return false
				}
			}
			for _, r := range st.Redirs {
				if r.N != nil && r.N.Value != "1" {
					return false
				}
				t, lit := Literal(r.Word)
				switch {
				case !lit:
					return false
				case r.Op == syntax.DplOut && t == "2":
				case (r.Op == syntax.RdrOut || r.Op == syntax.AppOut) && t == "/dev/stderr":
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}
