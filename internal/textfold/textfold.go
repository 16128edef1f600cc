// Package textfold folds text for comparison with a template: what a
// reader cannot see or tell apart (zero-width and other format characters,
// a byte-order mark, no-break and other odd spaces, fullwidth forms, case)
// is taken out or made one, so a placeholder hidden by such a character
// still reads as the placeholder.
package textfold

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold lowercases s, drops format characters (Unicode Cf: U+200B zero-width
// space, U+200C/D joiners, U+2060 word joiner, U+FEFF byte-order mark,
// U+00AD soft hyphen, ...) and other invisible ones (variation selectors,
// the combining grapheme joiner), takes Unicode's compatibility forms
// (NFKD: mathematical alphanumerics 𝐞, circled ⓔ and squared letters,
// superscripts, ligatures, fullwidth ASCII), drops combining marks on a
// Latin letter (an accent or a dot put on every letter), maps every space
// but a line break to one ASCII space, runs of them collapsed, and
// Cyrillic, Greek and other letters that look Latin to the Latin letter
// (confusables). Line breaks are kept, so line numbers stay those of s.
// Marks on letters of other scripts are kept (Hindi, Japanese): there they
// are spelling.
func Fold(s string) string {
	if !isASCII(s) {
		// Decomposed, so a mark is a rune of its own; composed again below
		// for the scripts whose marks stay.
		s = norm.NFKD.String(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	space, latin, marks := false, false, false
	for _, r := range s {
		if r < 0x80 && r > ' ' {
			// Most of a text: no table to look up.
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteByte(byte(r))
			space, latin = false, true
			continue
		}
		switch {
		case r == '\n' || r == '\r':
			b.WriteRune(r)
			space, latin = false, false
			continue
		case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
			continue
		case unicode.In(r, unicode.Mn, unicode.Me):
			if !latin {
				b.WriteRune(r)
				marks = true
			}
			continue
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r):
			if !space {
				b.WriteByte(' ')
			}
			space, latin = true, false
			continue
		case r >= 0xFF01 && r <= 0xFF5E:
			r -= 0xFEE0
		}
		space = false
		r = unicode.ToLower(r)
		if l, ok := confusables[r]; ok {
			r = l
		}
		latin = r < 0x80 || unicode.Is(unicode.Latin, r)
		marks = marks || r >= 0x1100 && r <= 0x11ff // Hangul, decomposed to its jamo
		b.WriteRune(r)
	}
	if marks {
		return norm.NFC.String(b.String())
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
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
	// Small capitals and IPA letters, which have no compatibility form,
	// and Armenian letters that read as Latin (issue 25 item 4).
	'\u1d00': 'a', '\u0299': 'b', '\u1d04': 'c', '\u1d05': 'd', '\u1d07': 'e', '\ua730': 'f', '\u0262': 'g', '\u029c': 'h',
	'\u026a': 'i', '\u1d0a': 'j', '\u1d0b': 'k', '\u029f': 'l', '\u1d0d': 'm', '\u0274': 'n', '\u1d0f': 'o', '\u1d18': 'p',
	'\u0280': 'r', '\ua731': 's', '\u1d1b': 't', '\u1d1c': 'u', '\u1d20': 'v', '\u1d21': 'w', '\u028f': 'y', '\u1d22': 'z',
	'\u0131': 'i', '\u0237': 'j', '\u0251': 'a', '\u0261': 'g', '\u0269': 'i', '\u026f': 'w', // ɯ: pass 45's F2
	'\u0585': 'o', '\u057d': 'u', '\u0570': 'h', '\u0578': 'n', '\u0566': 'q',
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
