package shellline

import (
	"encoding/base64"
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The agent hooks judge a line by the commands it runs. An agent that was
// denied `git commit --no-verify` can run the same words so that they are
// no command of the line: as eval's argument, a here-string or here-document
// fed to a shell, `echo ... | base64 -d | sh`, a function or alias defined
// on the line, a variable assigned on the line, or the strings of a
// `python3 -c` script. Inner lists such hidden commands as lines of their
// own for the checks to read (GitBypass, Unhooks, RunsAgentHook...), when
// they are literal in the line. What is built at run time (a variable from
// a file, a decoded download) stays unknown: the hooks are not a sandbox,
// and what slips past them is still caught afterwards (post-commit's
// BYPASS, the protected-file checks at every gate, CI's verify).

const (
	maxInnerDepth = 4
	maxInnerLines = 32
)

// Inner lists the command lines hidden in a POSIX line (see above), each
// once, without the line itself.
func Inner(line string) []string {
	x := &expander{seen: map[string]bool{line: true}}
	x.line(line, 0, nil, map[string]string{}, map[string]string{})
	return x.out
}

type expander struct {
	out  []string
	seen map[string]bool
}

func (x *expander) emit(l string, depth int, vars, aliases map[string]string) {
	l = strings.TrimSpace(l)
	if l == "" || x.seen[l] || len(x.out) >= maxInnerLines {
		return
	}
	x.seen[l] = true
	x.out = append(x.out, l)
	if depth < maxInnerDepth {
		x.line(l, depth+1, nil, vars, aliases)
	}
}

// line walks one line's commands in order: assignments, aliases and
// functions apply to what comes after them, as in the shell.
func (x *expander) line(line string, depth int, params []string, vars, aliases map[string]string) {
	// The parse the line's other checks share (Calls keeps it): read only.
	_, f, ok := Calls(line)
	if !ok {
		return
	}
	funcs := map[string]string{}
	env := map[string]string{} // exported or prefixed NAME=VALUE seen so far
	syntax.Walk(f, func(n syntax.Node) bool {
		if len(x.out) >= maxInnerLines {
			return false
		}
		switch s := n.(type) {
		case *syntax.FuncDecl:
			if s.Body != nil && s.Name != nil {
				funcs[s.Name.Value] = source(line, s.Body)
			}
			return false // its commands run where it is called
		case *syntax.DeclClause:
			for _, a := range s.Args {
				if a.Name != nil && a.Value != nil {
					if v, ok := resolve(a.Value, vars, params); ok {
						vars[a.Name.Value] = v
						if s.Variant.Value == "export" {
							env[a.Name.Value] = v
						}
					}
				}
			}
		case *syntax.BinaryCmd:
			if s.Op == syntax.Pipe || s.Op == syntax.PipeAll {
				if script, ok := pipedScript(s, vars, params); ok {
					x.emit(script, depth, vars, aliases)
				}
				for _, l := range pipedXargs(s, vars, params) {
					x.emit(l, depth, vars, aliases)
				}
				if script, ok := pipedCat(s); ok {
					x.emit(script, depth, vars, aliases)
				}
			}
		case *syntax.Stmt:
			c, ok := s.Cmd.(*syntax.CallExpr)
			if !ok {
				return true
			}
			if len(c.Args) == 0 {
				for _, a := range c.Assigns {
					if a.Name != nil {
						if v, ok := resolve(a.Value, vars, params); ok && a.Value != nil {
							vars[a.Name.Value] = v
						}
					}
				}
				return true
			}
			x.call(line, s, c, depth, params, vars, aliases, funcs, env)
		}
		return true
	})
}

// call looks at one simple command for what it hides.
func (x *expander) call(line string, st *syntax.Stmt, c *syntax.CallExpr, depth int, params []string, vars, aliases, funcs, env map[string]string) {
	var words []string
	changed, known := false, true
	for _, w := range c.Args {
		if isAllParams(w) {
			words = append(words, params...)
			changed = true
			continue
		}
		if lit, ok := Literal(w); ok {
			words = append(words, lit)
			continue
		}
		v, ok := resolve(w, vars, params)
		if !ok {
			known = false
			v = ""
		}
		changed = changed || ok
		if ok && unquoted(w) {
			// An unquoted expansion is split on $IFS: `c=cp${IFS}a${IFS}b;
			// $c` runs cp with two operands (round 26, c2).
			ifs, set := vars["IFS"]
			if !set {
				ifs = " \t\n"
			}
			words = append(words, strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(ifs, r) })...)
			continue
		}
		words = append(words, v)
	}
	// A redirection's target filled from a variable or a function's
	// argument (`w() { echo x > "$1"; }; w F`) goes with the line emitted.
	var redirs []string
	for _, r := range st.Redirs {
		if r.Word == nil || !strings.Contains(r.Op.String(), ">") {
			continue
		}
		if _, lit := Literal(r.Word); lit {
			continue
		}
		if v, ok := resolve(r.Word, vars, params); ok {
			redirs = append(redirs, r.Op.String(), v)
			changed = true
		}
	}
	if len(words) == 0 {
		return
	}
	if a, ok := aliases[words[0]]; ok {
		words = append(strings.Fields(a), words[1:]...)
		changed = true
		if len(words) == 0 {
			return
		}
	}
	// NAME=VALUE before the command, and what was exported before it, go
	// with it: GIT_CONFIG_KEY_0=core.hooksPath is part of the commit.
	var prefix []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		prefix = append(prefix, k+"="+env[k])
	}
	for _, a := range c.Assigns {
		if a.Name == nil {
			continue
		}
		if v, ok := resolve(a.Value, vars, params); ok || a.Value == nil {
			prefix = append(prefix, a.Name.Value+"="+v)
		}
	}
	if changed || len(env) > 0 {
		l := quoteWords(append(prefix, words...))
		for i := 0; i+1 < len(redirs); i += 2 {
			l += " " + redirs[i] + " " + quoteWords([]string{redirs[i+1]})
		}
		x.emit(l, depth, vars, aliases)
	}
	name := CommandName(words[0])
	switch {
	case name == "alias":
		for _, a := range words[1:] {
			if k, v, ok := strings.Cut(a, "="); ok && k != "" {
				aliases[k] = v
			}
		}
	case name == "eval" && known && len(words) > 1:
		x.emit(strings.Join(words[1:], " "), depth, vars, aliases)
	case funcs[name] != "":
		body := funcs[name]
		if depth < maxInnerDepth {
			x.line(body, depth+1, words[1:], copyMap(vars), aliases)
		}
	}
	inner := unwrapCall(words)
	if len(inner) == 0 {
		return
	}
	if script, ok := shellScript(inner); ok {
		x.emit(script, depth, vars, aliases)
	}
	if readsStdin(inner) {
		for _, r := range st.Redirs {
			if script, ok := stdinText(r); ok {
				x.emit(script, depth, vars, aliases)
			}
		}
	}
	if code, ok := interpreterCode(inner); ok {
		for _, l := range codeStrings(code) {
			x.emit(l, depth, vars, aliases)
		}
	}
	x.moreInner(st, c, words, inner, depth, vars, aliases, params) // indirect.go
}

// source is the text of a node of line.
func source(line string, n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(line) || s >= e {
		return ""
	}
	b := line[s:e]
	// A function's body is a block: its braces are not commands.
	b = strings.TrimSpace(b)
	if strings.HasPrefix(b, "{") && strings.HasSuffix(b, "}") {
		b = b[1 : len(b)-1]
	} else if strings.HasPrefix(b, "(") && strings.HasSuffix(b, ")") {
		b = b[1 : len(b)-1]
	}
	return b
}

// isAllParams reports whether w is "$@" or $@ (or $*).
func isAllParams(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		p = dq.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	return ok && pe.Param != nil && (pe.Param.Value == "@" || pe.Param.Value == "*") && pe.Exp == nil && pe.Index == nil && !pe.Length && pe.Slice == nil && pe.Repl == nil
}

// resolve is a word's value when every part of it is literal or a plain
// $NAME / ${NAME} / $1 known on the line.
func resolve(w *syntax.Word, vars map[string]string, params []string) (string, bool) {
	if w == nil {
		return "", true
	}
	if s, ok := Literal(w); ok {
		return s, true
	}
	var b strings.Builder
	var part func(p syntax.WordPart) bool
	part = func(p syntax.WordPart) bool {
		switch v := p.(type) {
		case *syntax.Lit:
			s, ok := Literal(&syntax.Word{Parts: []syntax.WordPart{v}})
			b.WriteString(s)
			return ok
		case *syntax.SglQuoted:
			if v.Dollar {
				return false
			}
			b.WriteString(v.Value)
		case *syntax.DblQuoted:
			if v.Dollar {
				return false
			}
			for _, q := range v.Parts {
				if !part(q) {
					return false
				}
			}
		case *syntax.CmdSubst:
			// $(echo WORDS): what echo prints, when literal.
			if len(v.Stmts) != 1 {
				return false
			}
			c, ok := v.Stmts[0].Cmd.(*syntax.CallExpr)
			if !ok || len(c.Args) < 2 || len(v.Stmts[0].Redirs) > 0 {
				return false
			}
			var ws []string
			for _, a := range c.Args {
				l, ok := Literal(a)
				if !ok {
					return false
				}
				ws = append(ws, l)
			}
			if ws[0] != "echo" && ws[0] != "printf" {
				return false
			}
			b.WriteString(strings.Join(ws[1:], " "))
		case *syntax.ParamExp:
			if v.Param == nil || v.Exp != nil || v.Index != nil || v.Length || v.Slice != nil || v.Repl != nil || v.Excl || v.Names != 0 {
				return false
			}
			name := v.Param.Value
			if n := paramIndex(name); n > 0 {
				if n > len(params) {
					return false
				}
				b.WriteString(params[n-1])
				return true
			}
			val, ok := vars[name]
			if !ok && name == "IFS" {
				val, ok = " ", true // unset or never set: a space first
			}
			if !ok {
				return false
			}
			b.WriteString(val)
		default:
			return false
		}
		return true
	}
	for _, p := range w.Parts {
		if !part(p) {
			return "", false
		}
	}
	return b.String(), true
}

// unquoted reports whether a word has no quoted part: its expansions are
// split into fields.
func unquoted(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.DblQuoted, *syntax.SglQuoted:
			return false
		}
	}
	return true
}

// paramIndex is N of a positional parameter $N, 0 for another name.
func paramIndex(name string) int {
	n := 0
	for _, r := range name {
		if r < '0' || r > '9' {
			return 0
		}
		n = n*10 + int(r-'0')
	}
	return n
}

func copyMap(m map[string]string) map[string]string { return maps.Clone(m) }

// quoteWords joins words as one sh line that gives them back.
func quoteWords(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if k, v, ok := strings.Cut(w, "="); ok && i < len(words)-1 && isName(k) && !strings.HasPrefix(w, "-") {
			b.WriteString(k + "=" + "'" + strings.ReplaceAll(v, "'", `'\''`) + "'")
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
	}
	return b.String()
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// readsStdin reports whether words run a shell that reads its script
// from standard input: `sh`, `bash -s`, `sh /dev/stdin`, `bash -`.
func readsStdin(words []string) bool {
	if !shells[words[0]] && words[0] != "ash" {
		return false
	}
	for i := 1; i < len(words); i++ {
		a := words[i]
		switch {
		case a == "-s" || a == "-" || a == "/dev/stdin":
			return true
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c"):
			return false // -c SCRIPT: the script is an argument
		case shellOptionTakesValue(a):
			i++ // `-o posix`, `--rcfile X`: the value is no script file
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") && len(a) > 1:
		default:
			return false // a script file
		}
	}
	return true
}

// shellOptionTakesValue: a shell option whose value is the next word
// (`-o posix`, `+o vi`, bash's `-O extglob` and `--rcfile FILE`, a cluster
// ending in one, `-euo pipefail`). Round 25 (c2): the value was read as a
// script file, so `bash --rcfile X` was taken for a script run while it
// leaves an interactive shell reading the terminal.
func shellOptionTakesValue(a string) bool {
	switch a {
	case "--rcfile", "--init-file":
		return true
	}
	if len(a) < 2 || (a[0] != '-' && a[0] != '+') || strings.HasPrefix(a, "--") {
		return false
	}
	last := a[len(a)-1]
	return last == 'o' || last == 'O'
}

// stdinText is what a here-string or a here-document gives a command on
// its standard input, when it is literal.
func stdinText(r *syntax.Redirect) (string, bool) {
	switch r.Op {
	case syntax.WordHdoc:
		return Literal(r.Word)
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Hdoc == nil {
			return "", true
		}
		if s, ok := Literal(r.Hdoc); ok {
			return s, true
		}
		// An unquoted delimiter's body parses as text with expansions;
		// its literal parts are what a shell would run.
		var b strings.Builder
		for _, p := range r.Hdoc.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				b.WriteString(l.Value)
			} else {
				return "", false
			}
		}
		return b.String(), true
	}
	return "", false
}

// pipedScript is the script a pipeline feeds a shell from `echo` or
// `printf` with literal words, through `base64 -d` or not:
// `echo Z2l0... | base64 -d | sh`.
func pipedScript(p *syntax.BinaryCmd, vars map[string]string, params []string) (string, bool) {
	stmts := PipeStages(p)
	words := func(s *syntax.Stmt) ([]string, bool) {
		c, ok := s.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return nil, false
		}
		var out []string
		for _, w := range c.Args {
			v, ok := resolve(w, vars, params)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return unwrapCall(out), true
	}
	last, ok := words(stmts[len(stmts)-1])
	if !ok || len(last) == 0 || !readsStdin(last) {
		return "", false
	}
	first, ok := words(stmts[0])
	if !ok || len(first) == 0 {
		return "", false
	}
	var text string
	switch first[0] {
	case "echo":
		args := first[1:]
		for len(args) > 0 && (args[0] == "-n" || args[0] == "-e" || args[0] == "-E" || args[0] == "-ne" || args[0] == "-en") {
			args = args[1:]
		}
		text = strings.Join(args, " ")
	case "printf":
		if len(first) < 2 {
			return "", false
		}
		text = strings.ReplaceAll(first[1], `\n`, "\n")
	default:
		return "", false
	}
	for _, s := range stmts[1 : len(stmts)-1] {
		w, ok := words(s)
		if !ok || len(w) == 0 {
			return "", false
		}
		if w[0] != "base64" || !(containsStr(w, "-d") || containsStr(w, "--decode") || containsStr(w, "-D")) {
			return "", false
		}
		dec, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(text), ""))
		if err != nil {
			return "", false
		}
		text = string(dec)
	}
	return text, true
}

// interpreters run code given with -c or -e: the strings in it can be a
// command line (`os.system("git commit -n")`) or its words
// (`subprocess.run(['git', 'commit', '-n'])`).
var interpreters = map[string]string{
	"python": "-c", "python3": "-c", "python2": "-c", "pypy3": "-c",
	"node": "-e", "nodejs": "-e", "bun": "-e", "deno": "eval",
	"perl": "-e", "ruby": "-e", "php": "-r",
}

// interpreterCode is the code of `python3 -c CODE`, `node -e CODE`...
func interpreterCode(words []string) (string, bool) {
	name := CommandName(words[0])
	flag, ok := interpreters[name]
	if !ok && strings.HasPrefix(name, "python3.") {
		flag, ok = "-c", true
	}
	if !ok {
		return "", false
	}
	for i := 1; i+1 < len(words); i++ {
		a := words[i]
		if a == flag || a == "--eval" || a == "-E" && name == "perl" || name == "node" && a == "-p" {
			return words[i+1], words[i+1] != ""
		}
	}
	return "", false
}

// codeStrings lists the command lines in a script's string literals: each
// literal with a space in it, and all of them joined by spaces (a list of
// a command's words). Literals glued by + are one string, as the code
// builds it: 'git commit ' + '--no-verify' is one command line, and
// os.remove('build/' + 'out.txt') names one file, not a command `build/`.
func codeStrings(code string) []string {
	var lits []string
	var b strings.Builder
	glued := false // the literal being read continues the last one
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		if !glued {
			b.Reset()
		}
		j := i + 1
		for ; j < len(code) && code[j] != q; j++ {
			if code[j] == '\\' && j+1 < len(code) {
				j++
			}
			b.WriteByte(code[j])
		}
		if j >= len(code) {
			break
		}
		i = j
		// A + and another literal next, or + NAME + literal: keep building
		// this one. A plain name between two literals is left out, so
		// 'git commit ' + m + ' --no-verify' still reads as a bypass, and
		// 'build/' + name + '.txt' as one path, not a command `build/`.
		if k, ok := gluedNext(code, j+1); ok {
			glued = true
			i = k - 1
			continue
		}
		glued = false
		lits = append(lits, b.String())
	}
	var out []string
	for _, l := range lits {
		if strings.Contains(l, " ") {
			out = append(out, l)
		}
	}
	if len(lits) > 1 {
		out = append(out, quoteWords(lits))
	}
	return out
}

// gluedNext reports whether code at k continues a string literal just
// closed: `+ 'x'` or `+ name + 'x'` (name letters, digits, _ and .), and
// where the next literal's quote is.
func gluedNext(code string, k int) (int, bool) {
	space := func() {
		for k < len(code) && (code[k] == ' ' || code[k] == '\t') {
			k++
		}
	}
	plus := func() bool {
		space()
		if k < len(code) && code[k] == '+' && (k+1 >= len(code) || code[k+1] != '=') {
			k++
			space()
			return true
		}
		return false
	}
	quote := func() bool { return k < len(code) && (code[k] == '\'' || code[k] == '"' || code[k] == '`') }
	if !plus() {
		return 0, false
	}
	if quote() {
		return k, true
	}
	start := k
	for k < len(code) && (code[k] == '_' || code[k] == '.' || code[k] >= 'a' && code[k] <= 'z' || code[k] >= 'A' && code[k] <= 'Z' || code[k] >= '0' && code[k] <= '9') {
		k++
	}
	if k == start || !plus() || !quote() {
		return 0, false
	}
	return k, true
}

// PipeStages lists a pipeline's stages in order (`a | b |& c`: a, b, c).
func PipeStages(p *syntax.BinaryCmd) []*syntax.Stmt {
	var stmts []*syntax.Stmt
	var flat func(s *syntax.Stmt)
	flat = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
			flat(b.X)
			flat(b.Y)
			return
		}
		stmts = append(stmts, s)
	}
	flat(p.X)
	flat(p.Y)
	return stmts
}
