// Package textfold folds text for comparison with a template: what a
// reader cannot see or tell apart (zero-width and other format characters,
// a byte-order mark, no-break and other odd spaces, fullwidth forms, case)
// is taken out or made one, so a placeholder hidden by such a character
// still reads as the placeholder.
package textfold

import (
	"strings"
	"unicode"
)

// Fold lowercases s, drops format characters (Unicode Cf: U+200B zero-width
// space, U+200C/D joiners, U+2060 word joiner, U+FEFF byte-order mark,
// U+00AD soft hyphen, ...), maps fullwidth ASCII (U+FF01-U+FF5E) to ASCII
// and every space but a line break to one ASCII space, runs of them
// collapsed. Line breaks are kept, so line numbers stay those of s.
func Fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r':
			b.WriteRune(r)
			space = false
			continue
		case unicode.Is(unicode.Cf, r):
			continue
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r):
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		case r >= 0xFF01 && r <= 0xFF5E:
			r -= 0xFEE0
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Bare is a folded line without what surrounds its words: list markers,
// brackets of any script, comment marks, quotes and other punctuation or
// symbols at either end. "- 【What​ was completed】" and "<!-- what was
// completed -->" are both "what was completed".
func Bare(line string) string {
	return strings.TrimFunc(Fold(line), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
