package docmention

import (
	"path"
	"strings"
)

// pyCode returns the trimmed lines of a Python source that sit, at least
// once, outside a triple-quoted string. A docstring that quotes another
// script's parser (`parser.add_argument("--add-to-path", ...)` in
// rjmurillo/ai-agents f92949a) defines no flag.
func pyCode(src string) map[string]bool {
	code := map[string]bool{}
	quote := ""
	for _, l := range strings.Split(src, "\n") {
		t := strings.TrimSpace(l)
		inside := quote != ""
		rest := t
		for {
			if quote == "" {
				i, q := firstTriple(rest)
				if i < 0 {
					break
				}
				quote, rest = q, rest[i+3:]
				continue
			}
			j := strings.Index(rest, quote)
			if j < 0 {
				break
			}
			quote, rest = "", rest[j+3:]
		}
		// A line that opens or closes a string holds code when it starts
		// outside one (x = """...).
		if !inside && !strings.HasPrefix(t, `"""`) && !strings.HasPrefix(t, "'''") {
			code[t] = true
		}
	}
	return code
}

func firstTriple(s string) (int, string) {
	a, b := strings.Index(s, `"""`), strings.Index(s, "'''")
	switch {
	case a < 0 && b < 0:
		return -1, ""
	case b < 0 || a >= 0 && a < b:
		return a, `"""`
	}
	return b, "'''"
}

// pyStringOnly reports whether a changed line of a Python file appears in
// the file's side only inside triple-quoted strings (side "" when not
// read: every line is code).
func pyStringOnly(p, side, t string, cache *map[string]bool) bool {
	if side == "" || path.Ext(p) != ".py" {
		return false
	}
	if *cache == nil {
		*cache = pyCode(side)
	}
	return !(*cache)[t]
}
