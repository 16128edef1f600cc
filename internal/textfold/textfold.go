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
// collapsed, and Cyrillic and Greek letters that look Latin to the Latin
// letter (confusables). Line breaks are kept, so line numbers stay those of s.
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
		r = unicode.ToLower(r)
		if l, ok := confusables[r]; ok {
			r = l
		}
		b.WriteRune(r)
	}
	return b.String()
}

// confusables are lower-case Cyrillic and Greek letters a reader takes for
// Latin ones: `sed 's/e/\u0435/g'` on an earlier session's handoff made
// every word another, and the near copy read as new words (adversarial
// pass 4).
var confusables = map[rune]rune{
	'\u0430': 'a', '\u0432': 'b', '\u0435': 'e', '\u043a': 'k', '\u043c': 'm', '\u043d': 'h', '\u043e': 'o', '\u0440': 'p',
	'\u0441': 'c', '\u0442': 't', '\u0443': 'y', '\u0445': 'x', '\u0455': 's', '\u0456': 'i', '\u0458': 'j', '\u0501': 'd',
	'\u04bb': 'h', '\u04cf': 'l', '\u0461': 'w', '\u051b': 'q', '\u051d': 'w',
	'\u03b1': 'a', '\u03b5': 'e', '\u03b9': 'i', '\u03ba': 'k', '\u03bd': 'v', '\u03bf': 'o', '\u03c1': 'p', '\u03c4': 't',
	'\u03c5': 'u', '\u03c7': 'x', '\u03b7': 'n',
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
