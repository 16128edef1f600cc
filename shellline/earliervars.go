package shellline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Round 21 (c4): in a shell that lives on between tool calls (Copilot
// CLI's), `export P=SESSION-PROTOCOL.md` in one call and `sed -i ... "$P"`
// in the next writes the protected file, and the second line alone names
// no file: P is set by a line the hook judged before. (Claude Code, Codex
// and Gemini start a shell per call: there P is the launch environment's,
// or empty.) Round 20 measured reading every unknown operand as any file
// (8 of 473 honest lines denied); the narrower rule here is an operand
// that is nothing but variables the line itself never sets and the CLI's
// own environment does not hold, so loops (`for f in ...`, `while read
// f`), positional parameters and defaults (`${f:-x}`) are not counted.

// EarlierVarWrite returns the first writer operand of a POSIX line that
// is only variables set outside the line ("$P", $A$B), as the line spells
// it; "" when there is none. inEnv reports whether a name is in the
// environment the CLI started with (nil: none is).
func EarlierVarWrite(cmd string, inEnv func(string) bool) string {
	if !strings.Contains(cmd, "$") {
		return ""
	}
	_, f, ok := Calls(Unwrap(cmd))
	if !ok {
		return ""
	}
	set := namesSet(f)
	// earlier: the word's text is only variables set outside the line
	// (and / or .), read directly, with a default (`${P:-}`), indirectly
	// (`${!P}`) or inside a command substitution (`$(echo $P)`).
	earlier := func(w *syntax.Word) bool {
		if w == nil || len(w.Parts) == 0 {
			return false
		}
		lit, outside := false, false
		syntax.Walk(w, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.Lit:
				lit = lit || strings.Trim(x.Value, "/.") != ""
			case *syntax.SglQuoted:
				lit = lit || strings.Trim(x.Value, "/.") != ""
			case *syntax.CmdSubst:
				// $(echo $P): only the variables inside count, not the
				// command's words.
				syntax.Walk(x, func(m syntax.Node) bool {
					if pe, ok := m.(*syntax.ParamExp); ok && pe.Param != nil && outsideName(pe.Param.Value, set, inEnv) {
						outside = true
					}
					return true
				})
				return false
			case *syntax.ParamExp:
				if x.Param == nil {
					return false
				}
				if outsideName(x.Param.Value, set, inEnv) {
					outside = true
				}
				// Not below: the name is no literal, and ${P:-DEFAULT} is P
				// when set, so the default's text is not the word's.
				return false
			}
			return true
		})
		return outside && !lit
	}
	found := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if found != "" {
			return false
		}
		switch x := n.(type) {
		case *syntax.Redirect:
			switch x.Op {
			case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrInOut:
				if earlier(x.Word) {
					found = wordText(x.Word)
				}
			}
		case *syntax.CallExpr:
			var args []string
			var words []*syntax.Word
			for _, w := range x.Args {
				s, lit := Literal(w)
				switch {
				case lit:
				case earlier(w):
					s = "\x03" + wordText(w)
				default:
					s = ""
				}
				args, words = append(args, s), append(words, w)
			}
			args = unwrapCall(args)
			for _, op := range append(writtenOperands(args), moreWrittenOperands(args)...) {
				if t, ok := strings.CutPrefix(op, "\x03"); ok {
					found = t
					return false
				}
			}
		}
		return true
	})
	return found
}

// namesSet lists the variables a line sets anywhere: assignments, export
// and the other declarations, for/select loops, read, mapfile, printf -v,
// getopts. Anywhere, not only before the use: a loop's body comes first
// in the text of `while read f; do ... "$f"; done` only in order of
// reading.
func namesSet(f *syntax.File) map[string]bool {
	set := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil {
				set[x.Name.Value] = true
			}
		case *syntax.WordIter:
			if x.Name != nil {
				set[x.Name.Value] = true
			}
		case *syntax.CallExpr:
			var ws []string
			for _, w := range x.Args {
				s, _ := Literal(w)
				ws = append(ws, s)
			}
			if len(ws) == 0 {
				return true
			}
			switch ws[0] {
			case "read", "mapfile", "readarray", "getopts", "printf", "export", "declare", "local", "typeset", "readonly":
				for _, w := range ws[1:] {
					if w != "" && !strings.HasPrefix(w, "-") {
						name, _, _ := strings.Cut(w, "=")
						set[name] = true
					}
				}
			}
		}
		return true
	})
	return set
}

// wordText is a word as the line spells it.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// outsideName reports whether a variable's value comes from outside the
// line: not set on it, not special or positional, not in the CLI's
// environment.
func outsideName(n string, set map[string]bool, inEnv func(string) bool) bool {
	return !set[n] && n != "" && n != "_" && !strings.ContainsAny(n[:1], "0123456789@*#?$!-") && (inEnv == nil || !inEnv(n))
}
