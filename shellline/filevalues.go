package shellline

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
)

// Round 21 (c4): values a line reads from a file and then writes to.
// `X=$(cat names.txt); rm "$X"`, `X=$(< f); cp evil "$X"`, `read X < f;
// sed -i ... "$X"` and `xargs -a f rm` name the written file inside
// another file, so Writes and WriteTargets saw an unknown operand (any
// file; not denied, since most honest loops look the same). The hook can
// read the file, as it reads a revision file for git (round 20): each
// command using such a value is given back as a literal line, to be
// judged as the line's own. Nothing is read for a line without one.

// maxXargsLines bounds the runs an `xargs -a FILE` line is read as.
const maxXargsLines = 64

// FileValueLines lists the commands of a POSIX line whose words take a
// value read from a file (`$(cat F)`, `$(< F)`, `read NAME < F`, `xargs
// -a F`), with the values put in; read reads a file (a slash path
// relative to the line's folder, or absolute) and reports false when it
// cannot. nil when the line has none or does not parse.
func FileValueLines(cmd string, read func(string) (string, bool)) []string {
	return FileValueLinesFrom(cmd, Sources{Read: read})
}

// FileValueLinesFrom is FileValueLines reading src; with src.Names it
// also gives the lines of names a program computes (computednames.go).
func FileValueLinesFrom(cmd string, src Sources) []string {
	if !strings.Contains(cmd, "cat") && !strings.Contains(cmd, "<") && !strings.Contains(cmd, "read") && !strings.Contains(cmd, "xargs") &&
		!strings.Contains(cmd, "head") && !strings.Contains(cmd, "tail") && !strings.Contains(cmd, "$(") && !strings.Contains(cmd, "`") &&
		!strings.Contains(cmd, "|") && !strings.Contains(cmd, "system") && !strings.Contains(cmd, "eval") &&
		!strings.Contains(cmd, "${") && !strings.Contains(cmd, "$'") && !strings.Contains(cmd, "IFS") && !(strings.Contains(cmd, "$") && strings.Contains(cmd, "=")) {
		return nil // the cheap look first: the hook runs this on every line
	}
	_, f, ok := Calls(Unwrap(cmd))
	if !ok || src.Read == nil {
		return nil
	}
	cwd := ""
	// written: files the line itself writes before it reads them (`sort f
	// > l; xargs rm < l`, round 23): their text, or the names guessed.
	written := map[string]string{}
	read := func(p string) (string, bool) {
		if t, ok := written[path.Clean(p)]; ok {
			return t, true
		}
		return src.Read(p)
	}
	// remember records a statement's `> F` of a text worked out.
	remember := func(st *syntax.Stmt, text string) {
		for _, r := range st.Redirs {
			if r.Op == syntax.RdrOut || r.Op == syntax.ClbOut || r.Op == syntax.AppOut {
				if p, lit := Literal(r.Word); lit && (r.N == nil || r.N.Value == "1") {
					written[path.Clean(joinCwd(cwd, p))] = text
				}
			}
		}
	}
	// outText is what a statement writing `> F` prints: its stages
	// worked out, or the names guessed.
	outText := func(stages []*syntax.Stmt) (string, bool) {
		last := stages[len(stages)-1]
		kept := *last
		kept.Redirs = nil
		for _, r := range last.Redirs {
			if r.Op != syntax.RdrOut && r.Op != syntax.ClbOut && r.Op != syntax.AppOut {
				kept.Redirs = append(kept.Redirs, r)
			}
		}
		ss := append(append([]*syntax.Stmt{}, stages[:len(stages)-1]...), &kept)
		if t, ok := pipeText(ss, cwd, read); ok {
			return t, true
		}
		return guessedText(ss, cwd, src, read)
	}
	vars := map[string]string{} // NAME -> value; unknownWord when not known
	arrays := map[string][]string{}
	fromFile := map[string]bool{}
	var out []string
	// value reads a word, and whether a file's text went into it.
	value := func(w *syntax.Word) (string, bool) {
		v := wordValue(w, vars, cwd, read)
		if v == unknownWord || v == mergeBaseWord {
			return unknownWord, false
		}
		used := false
		syntax.Walk(w, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.CmdSubst:
				used = true
			case *syntax.ParamExp:
				used = used || x.Param != nil && fromFile[x.Param.Value]
			}
			return true
		})
		return v, used
	}
	// feeds are the blocks a file is read into (`{ read X; read Y; } <
	// F`): the lines a read inside one takes, in order (round 22).
	type feed struct {
		from, to syntax.Pos
		lines    []string
	}
	var feeds []*feed
	fedLines := func(at syntax.Pos) *feed {
		for i := len(feeds) - 1; i >= 0; i-- {
			if f := feeds[i]; at.Offset() >= f.from.Offset() && at.Offset() < f.to.Offset() {
				return f
			}
		}
		return nil
	}
	// stdin is the text a `< F` or `< <(FILTER)` redirection gives a
	// command (round 22: a process substitution of the filters
	// textfilters.go reads).
	stdin := func(r *syntax.Redirect) (string, bool) {
		if r.Op != syntax.RdrIn || r.Word == nil {
			return "", false
		}
		if p, lit := Literal(r.Word); lit {
			return read(joinCwd(cwd, path.Clean(p)))
		}
		if len(r.Word.Parts) == 1 {
			if ps, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn && len(ps.Stmts) == 1 {
				if b, ok := ps.Stmts[0].Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
					return pipeText(PipeStages(b), cwd, read)
				}
				return pipeText(ps.Stmts, cwd, read)
			}
		}
		return "", false
	}
	set := func(name string, w *syntax.Word) {
		if w == nil {
			return
		}
		v, used := value(w)
		if !isPlainWord(w) {
			// X=$'SESSION\x2d...', X=${Y/_/-}: the shell's value (round 23)
			if s, ok := expandedLiteral(w, vars, trimmed(arrays)); ok {
				v, used = s, true
			}
		}
		if ss := substStages(w); v == unknownWord && ss != nil {
			// X=$(jq -r .f cfg.json): the first name it may print
			if t, ok := guessedText(ss, cwd, src, read); ok {
				v, used = lines(t)[0], true
			}
		}
		vars[name], fromFile[name] = v, used
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if len(out) >= maxInnerLines {
			return true
		}
		if p, ok := n.(*syntax.BinaryCmd); ok && (p.Op == syntax.Pipe || p.Op == syntax.PipeAll) {
			// cat F | while read NAME; do ...; done
			// cat F | xargs CMD
			// sort F | tr a-z A-Z | xargs CMD, awk '{print "rm " $0}' F | sh
			// (round 22: the filters' output, textfilters.go)
			if ss := PipeStages(p); len(ss) >= 2 {
				if t, ok := outText(ss); ok {
					remember(ss[len(ss)-1], t)
				}
				body, ok := pipeText(ss[:len(ss)-1], cwd, read)
				why := ""
				if !ok {
					// a program not emulated (jq, git show, ls): the names
					// it may print (round 23)
					body, ok = guessedText(ss[:len(ss)-1], cwd, src, read)
					why = "a name " + stageName(ss[:len(ss)-1]) + " may print; the hook cannot work it out, and the input names a protected file"
				}
				if ok {
					last := ss[len(ss)-1]
					if ws, lit := literalWords(last); lit {
						for _, l := range interpReadNames(ws, body, cwd, src, read) {
							out = append(out, guessLine("rm -- "+quoteWords([]string{l}), "a name "+CommandName(ws[0])+" reads from its input; the hook cannot work it out"))
						}
					}
					guessed := func(ls []string) []string {
						if why == "" {
							return ls
						}
						for i := range ls {
							ls[i] = guessLine(ls[i], why)
						}
						return ls
					}
					out = append(out, guessed(loopLines(last, body, read))...)
					if ws, ok := literalWords(last); ok {
						if CommandName(ws[0]) == "parallel" {
							ws = parallelAsXargs(ws)
						}
						if containsXargs(ws) {
							out = append(out, guessed(capLines(xargsLines(ws, body)))...)
						} else if why != "" {
							// a shell fed guessed names runs no known text
						} else if inner := unwrapCall(ws); len(inner) > 0 && (readsStdin(inner) || len(inner) > 1 && sourcers[inner[0]] && stdinFiles[inner[1]]) &&
							strings.TrimSpace(body) != "" && !plainCat(ss[:len(ss)-1]) {
							// the script a shell reads; `cat F | sh` is F's
							// run, judged with F named (agent_scripts.go)
							out = append(out, body)
						}
					}
				}
			}
			return true
		}
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		switch st.Cmd.(type) {
		case *syntax.Block, *syntax.Subshell:
			for _, r := range st.Redirs {
				if body, ok := stdin(r); ok {
					feeds = append(feeds, &feed{from: st.Pos(), to: st.End(), lines: lines(body)})
				}
			}
			return true
		}
		if _, ok := st.Cmd.(*syntax.WhileClause); ok {
			// while read NAME; do ...; done < F
			for _, r := range st.Redirs {
				if body, ok := stdin(r); ok {
					out = append(out, loopLines(st, body, read)...)
				}
			}
			return true
		}
		if fc, ok := st.Cmd.(*syntax.ForClause); ok {
			// for NAME in $(cat F); do ...; done: F's words
			// for NAME in $(sort F) / "${A[@]}" (round 22): the filter's
			// words, the array's elements
			if wi, ok := fc.Loop.(*syntax.WordIter); ok && wi.Name != nil && len(wi.Items) == 1 {
				if body, ok := splitSubst(wi.Items[0], cwd, read); ok {
					out = append(out, bodyLines(wi.Name.Value, strings.Fields(body), fc.Do)...)
				} else if name, ok := arrayAll(wi.Items[0]); ok && arrays[name] != nil {
					var vals []string
					for _, l := range arrays[name] {
						vals = append(vals, strings.TrimSpace(l))
					}
					out = append(out, bodyLines(wi.Name.Value, vals, fc.Do)...)
				}
			}
			return true
		}
		switch c := st.Cmd.(type) {
		case nil:
			// `> "$X"` alone truncates X as `: > "$X"` does.
			if rs, used := writeRedirs(st, value); used {
				out = append(out, ":"+rs)
			}
		case *syntax.DeclClause:
			for _, a := range c.Args {
				if a.Name != nil {
					set(a.Name.Value, a.Value)
				}
			}
		case *syntax.CallExpr:
			if len(c.Args) == 0 {
				for _, a := range c.Assigns {
					set(a.Name.Value, a.Value)
					if a.Array != nil {
						// A=(x y): the elements when all are literal
						var el []string
						for _, e := range a.Array.Elems {
							if s, lit := Literal(e.Value); lit && e.Index == nil {
								el = append(el, s)
							} else {
								el = nil
								break
							}
						}
						arrays[a.Name.Value] = el
					}
				}
				return true
			}
			if w0, _ := Literal(c.Args[0]); w0 == "mapfile" || w0 == "readarray" {
				// mapfile [-t] NAME < F: an array of F's lines (round 22)
				name := "MAPFILE"
				for _, a := range c.Args[1:] {
					if s, lit := Literal(a); lit && !strings.HasPrefix(s, "-") {
						name = s
					}
				}
				var body []string
				for _, r := range st.Redirs {
					if b, ok := stdin(r); ok {
						body = lines(b)
					} else if v, used := value(r.Word); r.Op == syntax.WordHdoc && used && v != unknownWord {
						body = lines(v)
					}
				}
				if len(st.Redirs) == 0 {
					if f := fedLines(st.Pos()); f != nil {
						body, f.lines = f.lines, nil
					}
				}
				for k := range vars {
					if strings.HasPrefix(k, name+"[") {
						delete(vars, k)
					}
				}
				vars[name], fromFile[name] = unknownWord, false
				if len(body) > 0 {
					for i, l := range body {
						vars[name+"["+strconv.Itoa(i)+"]"] = strings.TrimSpace(l)
					}
					vars[name], fromFile[name] = strings.TrimSpace(body[0]), true
					arrays[name] = body
				}
				return true
			}
			if len(st.Redirs) > 0 {
				if t, ok := outText([]*syntax.Stmt{st}); ok {
					remember(st, t)
				}
			}
			var words []string
			used, known := false, true
			guessWhy := ""
			for _, w := range c.Args {
				if text, ok := splitSubst(w, cwd, read); ok {
					// rm $(sort F): unquoted, each word of the output is an
					// operand, not only the first line's (round 22)
					words = append(words, strings.Fields(text)...)
					used = true
					continue
				}
				if name, ok := arrayAll(w); ok && arrays[name] != nil {
					// "${A[@]}": each element a word
					for _, l := range arrays[name] {
						words = append(words, strings.TrimSpace(l))
					}
					used = true
					continue
				}
				if _, ifs := vars["IFS"]; ifs || !isPlainWord(w) {
					// ${X/_/-}, ${!P}, ${A[@]:1}, $'\x41', $X split by a
					// known IFS: the shell's expansion of known values
					// (round 23)
					if fs, ok := expandedFields(w, vars, trimmed(arrays)); ok {
						words, used = append(words, fs...), true
						continue
					}
				}
				v, u := value(w)
				if v == unknownWord {
					if ss := substStages(w); ss != nil {
						// rm "$(jq -r .f cfg.json)": the names it may
						// print (round 23)
						if t, ok := guessedText(ss, cwd, src, read); ok {
							words = append(words, lines(t)...)
							used, guessWhy = true, "a name "+stageName(ss)+" may print; the hook cannot work it out, and the input names a protected file"
							continue
						}
					}
					known = false
					break
				}
				words, used = append(words, v), used || u
			}
			if known && len(words) > 0 {
				in := ""
				for _, r := range st.Redirs {
					if t, ok := stdin(r); ok {
						in = t
					}
				}
				for _, l := range interpReadNames(words, in, cwd, src, read) {
					out = append(out, guessLine("rm -- "+quoteWords([]string{l}), "a name "+CommandName(words[0])+" reads from a file, its input or its arguments; the hook cannot work it out"))
				}
			}
			if !known || len(words) == 0 {
				return true
			}
			if name, ok := readTarget(words); ok {
				// read [-r] NAME < F: F's first line; read NAME <<< "$(cat F)".
				vars[name], fromFile[name] = unknownWord, false
				for _, r := range st.Redirs {
					if r.Op == syntax.WordHdoc {
						if v, used := value(r.Word); v != unknownWord && used {
							first, _, _ := strings.Cut(v, "\n")
							vars[name], fromFile[name] = strings.TrimSpace(first), true
						}
					}
					if body, ok := stdin(r); ok {
						first, _, _ := strings.Cut(body, "\n")
						vars[name], fromFile[name] = strings.TrimSpace(first), true
					}
				}
				if f := fedLines(st.Pos()); f != nil && len(st.Redirs) == 0 && len(f.lines) > 0 {
					// { read X; } < F: the block's next line
					vars[name], fromFile[name] = strings.TrimSpace(f.lines[0]), true
					f.lines = f.lines[1:]
				}
				return true
			}
			if (words[0] == "cd" || words[0] == "pushd") && len(words) == 2 {
				cwd = joinCwd(cwd, words[1])
			}
			if file, rest, ok := xargsArgFile(words); ok {
				if body, ok := read(joinCwd(cwd, path.Clean(file))); ok {
					out = append(out, capLines(xargsLines(rest, body))...)
				}
				return true
			}
			if containsXargs(words) {
				// xargs CMD < F
				for _, r := range st.Redirs {
					if body, ok := stdin(r); ok {
						out = append(out, capLines(xargsLines(words, body))...)
					}
				}
			}
			if cmds, ok := awkSystem(words, func(p string) (string, bool) { return read(joinCwd(cwd, path.Clean(p))) }); ok {
				// awk's system("rm " $0): the commands it runs (round 22)
				out = append(out, cmds...)
			}
			rs, rused := writeRedirs(st, value)
			if (used || rused) && words[0] == "eval" && len(rs) == 0 {
				// eval "rm $(sed -n 1p f)": the text eval runs
				out = append(out, strings.Join(words[1:], " "))
			} else if guessWhy != "" {
				out = append(out, guessLine(quoteWords(words)+rs, guessWhy))
			} else if used || rused {
				out = append(out, quoteWords(words)+rs)
			}
		}
		return true
	})
	return out
}

// writeRedirs gives a command's redirections that write a file, each
// whose target is known (` > 'P.md'`), and whether a file's text went
// into one: `X=$(cat f); echo hi > "$X"` writes the file f names (round
// 21 review: it was allowed). A target not known is left out, as before.
func writeRedirs(st *syntax.Stmt, value func(*syntax.Word) (string, bool)) (string, bool) {
	var b strings.Builder
	used := false
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
		default:
			continue
		}
		v, u := value(r.Word)
		if v == unknownWord {
			continue
		}
		b.WriteByte(' ')
		if r.N != nil {
			b.WriteString(r.N.Value)
		}
		b.WriteString(r.Op.String() + " " + quoteWords([]string{v}))
		used = used || u
	}
	return b.String(), used
}

// readTarget is NAME of `read [-r] NAME` (one name).
func readTarget(words []string) (string, bool) {
	if words[0] != "read" {
		return "", false
	}
	var names []string
	for _, w := range words[1:] {
		if w == "-r" || w == "-s" {
			continue
		}
		if strings.HasPrefix(w, "-") {
			return "", false
		}
		names = append(names, w)
	}
	if len(names) != 1 {
		return "", false
	}
	return names[0], true
}

// xargsArgFile reads `xargs -a F CMD...` (--arg-file F, --arg-file=F,
// -aF): F, and the words with the option taken out.
func xargsArgFile(words []string) (string, []string, bool) {
	i := 0
	for i < len(words) && CommandName(words[i]) != "xargs" {
		i++
	}
	for k := i + 1; k < len(words); k++ {
		a := words[k]
		if !strings.HasPrefix(a, "-") {
			break
		}
		rest := func(skip int) []string {
			return append(append([]string{}, words[:k]...), words[k+skip:]...)
		}
		switch {
		case (a == "-a" || a == "--arg-file") && k+1 < len(words):
			return words[k+1], rest(2), true
		case strings.HasPrefix(a, "--arg-file="):
			return strings.TrimPrefix(a, "--arg-file="), rest(1), true
		case strings.HasPrefix(a, "-a") && len(a) > 2:
			return a[2:], rest(1), true
		}
	}
	return "", nil, false
}

// loopLines are the commands of `while read [-r] NAME; do BODY; done`
// fed the text: BODY with NAME set to each line.
func loopLines(st *syntax.Stmt, text string, read func(string) (string, bool)) []string {
	wc, ok := st.Cmd.(*syntax.WhileClause)
	if !ok || wc.Until || len(wc.Cond) != 1 {
		return nil
	}
	c, ok := wc.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return nil
	}
	var words []string
	for _, w := range c.Args {
		s, lit := Literal(w)
		if !lit {
			return nil
		}
		words = append(words, s)
	}
	name, ok := readTarget(words)
	if !ok {
		return nil
	}
	var vals []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			vals = append(vals, l)
		}
	}
	return bodyLines(name, vals, wc.Do)
}

// bodyLines is a loop's body once per value, NAME=VALUE before it, so the
// hook's write checks read the variable as literal (at most
// maxXargsLines values).
func bodyLines(name string, vals []string, body []*syntax.Stmt) []string {
	var b strings.Builder
	p := syntax.NewPrinter()
	for i, st := range body {
		if i > 0 {
			b.WriteString("; ")
		}
		if err := p.Print(&b, st); err != nil {
			return nil
		}
	}
	var out []string
	for _, v := range vals {
		if len(out) >= maxXargsLines {
			break
		}
		out = append(out, name+"="+quoteWords([]string{v})+"; "+b.String())
	}
	return out
}

// catFile is F of a word `$(cat F)` or `$(< F)` (F literal).
func catFile(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	cs, ok := w.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return "", false
	}
	st := cs.Stmts[0]
	if c, ok := st.Cmd.(*syntax.CallExpr); ok && len(c.Args) == 2 && len(st.Redirs) == 0 {
		if w0, _ := Literal(c.Args[0]); w0 == "cat" {
			return Literal(c.Args[1])
		}
	}
	if st.Cmd == nil && len(st.Redirs) == 1 && st.Redirs[0].Op == syntax.RdrIn {
		return Literal(st.Redirs[0].Word)
	}
	return "", false
}

// capLines keeps the first maxXargsLines lines.
func capLines(ls []string) []string {
	if len(ls) > maxXargsLines {
		return ls[:maxXargsLines]
	}
	return ls
}

// literalWords are a simple command's words when all are literal.
func literalWords(st *syntax.Stmt) ([]string, bool) {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return nil, false
	}
	var ws []string
	for _, w := range c.Args {
		s, lit := Literal(w)
		if !lit {
			return nil, false
		}
		ws = append(ws, s)
	}
	return ws, true
}

// arrayAll is NAME of a word that is only "${NAME[@]}" or ${NAME[*]}.
func arrayAll(w *syntax.Word) (string, bool) {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return "", false
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Index == nil || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil || pe.Length || pe.Excl {
		return "", false
	}
	iw, ok := pe.Index.(*syntax.Word)
	if !ok {
		return "", false
	}
	if i, _ := Literal(iw); i != "@" && i != "*" {
		return "", false
	}
	return pe.Param.Value, true
}

// splitSubst is the whole output of an unquoted `$(cat F)`, `$(< F)` or
// `$(FILTER ... F)` word, which the shell splits into words.
func splitSubst(w *syntax.Word, cwd string, read func(string) (string, bool)) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	cs, ok := w.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return "", false
	}
	if f, ok := catFile(w); ok {
		return read(joinCwd(cwd, path.Clean(f)))
	}
	st := cs.Stmts[0]
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(st.Redirs) == 0 {
		return pipeText(PipeStages(b), cwd, read)
	}
	if c, ok := st.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
		if w0, _ := Literal(c.Args[0]); w0 == "git" {
			return "", false // $(git rev-parse X): read by wordValue
		}
	}
	return pipeText(cs.Stmts, cwd, read)
}

// plainCat: the stages are one `cat F` (F read as a script elsewhere).
func plainCat(stages []*syntax.Stmt) bool {
	if len(stages) != 1 || len(stages[0].Redirs) > 0 {
		return false
	}
	ws, ok := literalWords(stages[0])
	return ok && len(ws) == 2 && ws[0] == "cat"
}

// parallelAsXargs reads GNU parallel fed names on standard input
// (`parallel rm`, `parallel cp x {}`) as the xargs line that runs the
// same commands; a line with ::: or options is left as it is.
func parallelAsXargs(ws []string) []string {
	cmd := ws[1:]
	if len(cmd) == 0 || slices.ContainsFunc(cmd, func(w string) bool { return strings.HasPrefix(w, ":::") || strings.HasPrefix(w, "-") }) {
		return ws
	}
	out := append([]string{"xargs", "-I{}"}, cmd...)
	if !slices.ContainsFunc(cmd, func(w string) bool { return strings.Contains(w, "{}") }) {
		out = append(out, "{}")
	}
	return out
}

// awkSystem lists the shell lines an awk program's system() calls run:
// the literal ones (`BEGIN{system("rm x")}`), and, for a program
// `PATTERN{system(ITEMS)}` over a file, ITEMS worked out per line as a
// print of them would be (textfilters.go).
func awkSystem(words []string, read func(string) (string, bool)) ([]string, bool) {
	switch CommandName(words[0]) {
	case "awk", "gawk", "mawk", "nawk":
	default:
		return nil, false
	}
	prog := -1
	for i := 1; i < len(words); i++ {
		if words[i] == "-F" || words[i] == "-f" || words[i] == "-v" {
			i++
			continue
		}
		if !strings.HasPrefix(words[i], "-") {
			prog = i
			break
		}
	}
	if prog < 0 || !strings.Contains(words[prog], "system") {
		return nil, false
	}
	var out []string
	for _, m := range awkSystemLit.FindAllStringSubmatch(words[prog], -1) {
		out = append(out, m[1])
	}
	if m := awkSystemCall.FindStringSubmatch(words[prog]); m != nil {
		as := append([]string{}, words...)
		as[prog] = m[1] + "{print " + m[2] + "}"
		if text, ok := filterText(as, "", false, read); ok {
			out = append(out, lines(text)...)
		}
	}
	return out, len(out) > 0
}

var (
	// awkSystemLit is system("LITERAL").
	awkSystemLit = lazyregexp.New(`\bsystem\(\s*"((?:[^"\\]|\\.)*)"\s*\)`)
	// awkSystemCall is PATTERN{system(ITEMS)} whole.
	awkSystemCall = lazyregexp.New(`^\s*((?:NR\s*==\s*\d+|/(?:[^/\\]|\\.)*/)?)\s*\{\s*system\(([^(){};]*)\)\s*;?\s*\}\s*$`)
)
