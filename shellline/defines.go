package shellline

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// DefinesCommand says how a line defines a command under one of names in
// the shell that runs it ("" when it does not): a function, an alias, a
// hashed path (`hash -p FILE NAME`) or a loaded builtin (`enable -f LIB
// NAME`), on the line or in the text it evals. It reads the parse, so
// quoted text and a here-document's body are not definitions (`grep 'func
// git()' -r .` is a read). Where the line runs text the parse cannot see
// (eval or source of an expansion, a process substitution, standard
// input), the whole line is read as text, as a line that does not parse
// is.
func DefinesCommand(line string, names ...string) string {
	for _, l := range append([]string{line}, Inner(line)...) {
		_, f, ok := Calls(l)
		if !ok {
			if m := textDefines(l, names); m != "" {
				return m
			}
			continue
		}
		found, opaque := "", false
		syntax.Walk(f, func(n syntax.Node) bool {
			if found != "" {
				return false
			}
			switch x := n.(type) {
			case *syntax.FuncDecl:
				if x.Name != nil && slices.Contains(names, x.Name.Value) {
					found = x.Name.Value + "()"
				}
			case *syntax.CallExpr:
				found, opaque = callDefines(x, names, opaque)
			}
			return true
		})
		if found != "" {
			return found
		}
		if opaque {
			if m := textDefines(l, names); m != "" {
				return m
			}
		}
	}
	return ""
}

// callDefines reads one call: the definition it makes, and whether it
// runs text in this shell that the parse does not hold (opaque).
func callDefines(x *syntax.CallExpr, names []string, opaque bool) (string, bool) {
	var words []string
	lit := true
	for _, w := range x.Args {
		s, ok := Literal(w)
		if !ok {
			s, lit = literalPrefix(w), false
		}
		words = append(words, s)
	}
	for len(words) > 0 && (words[0] == "builtin" || words[0] == "command") {
		words = words[1:]
	}
	if len(words) == 0 {
		return "", opaque
	}
	switch words[0] {
	case "alias":
		for _, a := range words[1:] {
			if n, _, ok := strings.Cut(a, "="); ok && slices.Contains(names, n) {
				return "alias " + a, opaque
			}
		}
	case "hash", "enable":
		flag := map[string]string{"hash": "-p", "enable": "-f"}[words[0]]
		if slices.ContainsFunc(words[1:], func(a string) bool { return strings.HasPrefix(a, "-") && strings.Contains(a, flag[1:]) }) {
			for _, a := range words[2:] {
				if slices.Contains(names, a) {
					return words[0] + " " + flag + " ... " + a, opaque
				}
			}
		}
	case "eval", "source", ".":
		// Text the parse does not hold: an expansion, or a file that is
		// standard input or a process substitution.
		if !lit || words[0] == "eval" && len(words) > 1 || slices.Contains(words, "/dev/stdin") || len(words) == 1 || hasProcSubst(x) {
			opaque = true
		}
	}
	return "", opaque
}

// literalPrefix is the literal text a word starts with, up to its first
// expansion (`"git=$x"` gives git=).
func literalPrefix(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return b.String()
				}
				b.WriteString(l.Value)
			}
		default:
			return b.String()
		}
	}
	return b.String()
}

func hasProcSubst(x *syntax.CallExpr) bool {
	found := false
	syntax.Walk(x, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.ProcSubst); ok {
			found = true
		}
		return !found
	})
	return found
}

var defineRes sync.Map // names joined by "|" -> *regexp.Regexp

// textDefines reads a line as text for a definition of one of names (an
// alias, a function, a hashed path or a loaded builtin), where the parse
// does not hold what runs.
func textDefines(line string, names []string) string {
	key := strings.Join(names, "|")
	re, ok := defineRes.Load(key)
	if !ok {
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = regexp.QuoteMeta(n)
		}
		n := "(?:" + strings.Join(q, "|") + ")"
		re, _ = defineRes.LoadOrStore(key, regexp.MustCompile(`(?:^|[\s;&|(!{'"])(?:alias\s+(?:-\S+\s+)*["']?`+n+`=|hash\s+(?:-\S+\s+)*-p\s+\S+\s+`+n+`\b|enable\s+(?:-\S+\s+)*-f\s+\S+\s+(?:\S+\s+)*`+n+`\b|function\s+`+n+`\b|`+n+`\s*\(\s*\))`))
	}
	return strings.TrimSpace(re.(*regexp.Regexp).FindString(line))
}
