package protocolspec

import "strings"

// templateGlob turns a template's path into the glob of the files made
// from it: each template variable becomes "*". It replaces what
// tplVarPattern matches (ReplaceAllString), by hand: the regexp was a
// tenth of inference.
func templateGlob(path string) string {
	var b strings.Builder
	done := 0 // path[:done] is written
	for i := 0; i < len(path); {
		end := tplVarEnd(path, i)
		if end < 0 {
			i++
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(path))
		}
		b.WriteString(path[done:i])
		b.WriteByte('*')
		i, done = end, end
	}
	if done == 0 {
		return path
	}
	b.WriteString(path[done:])
	return b.String()
}

// tplVarPattern is what a template variable looks like in a path.
const tplVarPattern = `\b(?:YYYY|MM|DD|NN|NNN|XX|XXX)\b|\{[^{}/]*\}|\[[^\[\]/]*\]|<[^<>/]*>`

// tplVarEnd is the end of the template variable starting at i, or -1: a
// whole word YYYY, MM, DD, NN, NNN, XX or XXX, or a bracketed span with
// no slash and no bracket of its kind inside.
func tplVarEnd(s string, i int) int {
	var closer byte
	switch c := s[i]; c {
	case '{':
		closer = '}'
	case '[':
		closer = ']'
	case '<':
		closer = '>'
	default:
		if i > 0 && isWordByte(s[i-1]) || !isWordByte(c) {
			return -1
		}
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		switch s[i:j] {
		case "YYYY", "MM", "DD", "NN", "NNN", "XX", "XXX":
			return j
		}
		return -1
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case closer:
			return j + 1
		case s[i], '/':
			return -1
		}
	}
	return -1
}
