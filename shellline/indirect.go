package shellline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Round 18 (t4): more commands a line runs without naming them as its
// own, for Inner (and so for the agent hook's write checks, which judge
// each inner line as the line): a script a shell or `source` reads from
// a process substitution or /dev/stdin (`bash <(echo ...)`, `source
// /dev/stdin <<< ...`), `sh -c SCRIPT NAME ARGS` with its positional
// parameters put in, and the command xargs runs with the words it reads
// from a here-string or an echo piped into it.

// sourcers read a script file and run it in the current shell.
var sourcers = map[string]bool{"source": true, ".": true}

// stdinFiles name a process's standard input as a file.
var stdinFiles = map[string]bool{"/dev/stdin": true, "/proc/self/fd/0": true, "/dev/fd/0": true}

// moreInner looks at one simple command (words unwrapped: inner) for the
// scripts and commands above.
func (x *expander) moreInner(st *syntax.Stmt, c *syntax.CallExpr, words, inner []string, depth int, vars, aliases map[string]string, params []string) {
	name := inner[0]
	off := len(words) - len(inner)
	if shells[name] || name == "ash" || sourcers[name] {
		// A script file that is a process substitution printing literal text.
		for _, w := range c.Args[off+1:] {
			if len(w.Parts) == 1 {
				if ps, ok := w.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn {
					if text, ok := printedText(ps.Stmts, vars, params); ok {
						x.emit(text, depth, vars, aliases)
					}
				}
			}
		}
		if sourcers[name] && len(inner) > 1 && stdinFiles[inner[1]] {
			for _, r := range st.Redirs {
				if script, ok := stdinText(r); ok {
					x.emit(script, depth, vars, aliases)
				}
			}
		}
	}
	// `sh < <(echo ...)`: a process substitution as standard input.
	if (shells[name] || name == "ash") && readsStdin(inner) {
		for _, r := range st.Redirs {
			if r.Op != syntax.RdrIn || r.Word == nil || len(r.Word.Parts) != 1 {
				continue
			}
			if ps, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn {
				if text, ok := printedText(ps.Stmts, vars, params); ok {
					x.emit(text, depth, vars, aliases)
				}
			}
		}
	}
	if script, args, ok := shellScriptArgs(inner); ok && len(args) > 0 {
		if s, ok := withParams(script, args); ok {
			x.emit(s, depth, vars, aliases)
		}
	}
	if name == "xargs" || off > 0 && containsXargs(words[:off]) {
		for _, r := range st.Redirs {
			if text, ok := stdinText(r); ok {
				for _, l := range xargsLines(words, text) {
					x.emit(l, depth, vars, aliases)
				}
			}
		}
	}
}

// pipedXargs is what `echo WORDS | xargs CMD` (printf alike) runs: CMD
// with the words.
func pipedXargs(p *syntax.BinaryCmd, vars map[string]string, params []string) []string {
	stmts := PipeStages(p)
	if len(stmts) != 2 {
		return nil
	}
	last, ok := stmts[1].Cmd.(*syntax.CallExpr)
	if !ok || len(last.Args) == 0 {
		return nil
	}
	var words []string
	for _, w := range last.Args {
		v, ok := resolve(w, vars, params)
		if !ok {
			return nil
		}
		words = append(words, v)
	}
	if CommandName(words[0]) != "xargs" {
		return nil
	}
	text, ok := printedText([]*syntax.Stmt{stmts[0]}, vars, params)
	if !ok {
		return nil
	}
	return xargsLines(words, text)
}

// pipedCat is the script `cat <<EOF ... EOF | sh` (or `cat <<< ...`)
// feeds a shell: what cat prints of its here-document.
func pipedCat(p *syntax.BinaryCmd) (string, bool) {
	stmts := PipeStages(p)
	if len(stmts) != 2 {
		return "", false
	}
	first, ok := stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(first.Args) != 1 {
		return "", false
	}
	if n, ok := Literal(first.Args[0]); !ok || CommandName(n) != "cat" {
		return "", false
	}
	last, ok := stmts[1].Cmd.(*syntax.CallExpr)
	if !ok || len(last.Args) == 0 {
		return "", false
	}
	words := callWords(last)
	if w := unwrapCall(words); len(w) == 0 || !readsStdin(w) {
		return "", false
	}
	for _, r := range stmts[0].Redirs {
		if t, ok := stdinText(r); ok {
			return t, true
		}
	}
	return "", false
}

// printedText is what one `echo WORDS` or `printf FORMAT WORDS` of
// literal (or resolved) words prints: printf's %s take the words.
func printedText(stmts []*syntax.Stmt, vars map[string]string, params []string) (string, bool) {
	if len(stmts) != 1 {
		return "", false
	}
	c, ok := stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 2 {
		return "", false
	}
	var ws []string
	for _, a := range c.Args {
		v, ok := resolve(a, vars, params)
		if !ok {
			return "", false
		}
		ws = append(ws, v)
	}
	switch ws[0] {
	case "echo":
		args := ws[1:]
		for len(args) > 0 && (args[0] == "-n" || args[0] == "-e" || args[0] == "-E" || args[0] == "-ne" || args[0] == "-en") {
			args = args[1:]
		}
		return strings.Join(args, " "), true
	case "printf":
		return printfText(ws[1], ws[2:]), true
	}
	return "", false
}

// printfText is printf's output for a format of %s (and %b, %q read as
// %s) conversions and \n escapes; the format is reused while words are
// left, as printf does.
func printfText(format string, args []string) string {
	format = strings.ReplaceAll(format, `\n`, "\n")
	format = strings.ReplaceAll(format, `\t`, "\t")
	var b strings.Builder
	for first := true; first || len(args) > 0; first = false {
		used := false
		for i := 0; i < len(format); i++ {
			if format[i] != '%' || i+1 >= len(format) {
				b.WriteByte(format[i])
				continue
			}
			i++
			switch format[i] {
			case '%':
				b.WriteByte('%')
			case 's', 'b', 'q', 'd':
				used = true
				if len(args) > 0 {
					b.WriteString(args[0])
					args = args[1:]
				}
			default:
				b.WriteByte('%')
				b.WriteByte(format[i])
			}
		}
		if !used {
			break
		}
	}
	return b.String()
}

// shellScriptArgs is the script of `sh -c SCRIPT [NAME [ARGS...]]` and
// ARGS, the positional parameters $1... it runs with.
func shellScriptArgs(args []string) (string, []string, bool) {
	if len(args) < 3 || !shells[args[0]] && args[0] != "ash" {
		return "", nil, false
	}
	for i := 1; i < len(args)-1; i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") {
			return "", nil, false
		}
		if strings.Contains(a, "c") {
			rest := args[i+2:]
			if len(rest) > 0 {
				rest = rest[1:] // $0
			}
			return args[i+1], rest, args[i+1] != ""
		}
	}
	return "", nil, false
}

// withParams is script with its positional parameters ($1.., $@, $*)
// put in as quoted words; false when it does not parse.
func withParams(script string, params []string) (string, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		return "", false
	}
	value := func(pe *syntax.ParamExp) (string, bool) {
		if pe.Param == nil || pe.Exp != nil || pe.Index != nil || pe.Length || pe.Slice != nil || pe.Repl != nil || pe.Excl {
			return "", false
		}
		switch n := pe.Param.Value; {
		case n == "@" || n == "*":
			return strings.Join(params, " "), true
		case paramIndex(n) > 0:
			if i := paramIndex(n); i <= len(params) {
				return params[i-1], true
			}
			return "", true
		}
		return "", false
	}
	subst := func(parts []syntax.WordPart, quoted bool) {
		for i, p := range parts {
			pe, ok := p.(*syntax.ParamExp)
			if !ok {
				continue
			}
			v, ok := value(pe)
			if !ok {
				continue
			}
			if quoted {
				parts[i] = &syntax.Lit{Value: strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(v)}
			} else {
				parts[i] = &syntax.SglQuoted{Value: v}
				if strings.Contains(v, "'") {
					parts[i] = &syntax.Lit{Value: strings.ReplaceAll(v, "'", `\'`)}
				}
			}
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch w := n.(type) {
		case *syntax.Word:
			subst(w.Parts, false)
		case *syntax.DblQuoted:
			subst(w.Parts, true)
		}
		return true
	})
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, f); err != nil {
		return "", false
	}
	return b.String(), true
}

// xargsLines are the commands `xargs [OPTIONS] CMD ARGS` runs on input
// text: CMD ARGS and the input's words (one run), or with -I R (--replace)
// one run per input line, R replaced by it. Wrappers other than xargs in
// front of it are words[0]'s concern (xargs is one of them).
func xargsLines(words []string, text string) []string {
	i := 0
	for i < len(words) && CommandName(words[i]) != "xargs" {
		i++
	}
	if i >= len(words) {
		return nil
	}
	args := words[i+1:]
	replace := ""
	k := 0
	for k < len(args) && strings.HasPrefix(args[k], "-") {
		a := args[k]
		switch {
		case a == "-I" || a == "--replace" || a == "-i":
			if a != "-i" && k+1 < len(args) {
				replace = args[k+1]
				k++
			} else {
				replace = "{}"
			}
		case strings.HasPrefix(a, "-I") && len(a) > 2:
			replace = a[2:]
		case strings.HasPrefix(a, "--replace="):
			replace = strings.TrimPrefix(a, "--replace=")
		case len(a) == 2 && strings.Contains("dEeLlnPsa", a[1:]):
			k++ // the option's value
		}
		k++
	}
	cmd := args[k:]
	if len(cmd) == 0 {
		cmd = []string{"echo"}
	}
	text = strings.ReplaceAll(text, "\x00", "\n") // xargs -0: NUL ends a name
	if replace == "" {
		return []string{quoteWords(append(append([]string{}, cmd...), strings.Fields(text)...))}
	}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		var ws []string
		for _, w := range cmd {
			ws = append(ws, strings.ReplaceAll(w, replace, l))
		}
		out = append(out, quoteWords(ws))
		if len(out) >= maxInnerLines {
			break
		}
	}
	return out
}

// containsXargs reports whether wrapper words hold xargs.
func containsXargs(ws []string) bool {
	for _, w := range ws {
		if CommandName(w) == "xargs" {
			return true
		}
	}
	return false
}
