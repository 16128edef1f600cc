package nearcopy

import (
	"strings"
	"testing"
)

// shiftLetters writes every ASCII letter of s as the letter of another
// alphabet that starts at lower (a) and upper (A); zero keeps that case.
func shiftLetters(s string, lower, upper rune) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z' && lower != 0:
			return lower + r - 'a'
		case r >= 'A' && r <= 'Z' && upper != 0:
			return upper + r - 'A'
		}
		return r
	}, s)
}

// TestAdv5CompatibilityCopies: an earlier handoff written in letters
// outside the confusables list still reads the same to a person, and was no
// near copy before the fold took Unicode's compatibility forms (issue 25
// item 4: each row was false). Honest handoffs with real mathematics or in
// another script, different from the earlier one, stay no copy.
func TestAdv5CompatibilityCopies(t *testing.T) {
	const earlier = "# Handoff 2026-08-19-01\n\n## Done\n\nscripts/greet.sh prints a greeting; scripts/test.sh checks it (commit 3f9a2c1d).\n" +
		"The script stays POSIX sh so it runs in the CI image without bash.\n\n## Next\n\nAdd a name argument to the greeting script, and check it with several names in scripts/test.sh.\n"
	renumbered := strings.NewReplacer("2026-08-19-01", "2026-08-20-01", "3f9a2c1d", "b41c07e2").Replace(earlier)
	for _, c := range []struct {
		name, text, other string
		want              bool
	}{
		{"mathematical bold", shiftLetters(renumbered, 0x1d41a, 0x1d400), earlier, true},
		{"mathematical sans-serif", shiftLetters(renumbered, 0x1d5ba, 0x1d5a0), earlier, true},
		{"circled letters", shiftLetters(renumbered, 0x24d0, 0x24b6), earlier, true},
		{"squared capitals", shiftLetters(strings.ToUpper(renumbered), 0, 0x1f130), earlier, true},
		{"small capitals e and t", strings.NewReplacer("e", "\u1d07", "t", "\u1d1b").Replace(renumbered), earlier, true},
		{"a dot on every e", strings.ReplaceAll(renumbered, "e", "e\u0307"), earlier, true},
		{"variation selector after every letter", strings.ReplaceAll(renumbered, "s", "s\ufe0e"), earlier, true},
		{"grapheme joiner in every word", strings.ReplaceAll(renumbered, "i", "i\u034f"), earlier, true},
		// Honest twins: this session's own words.
		{"honest handoff with mathematics", "# Handoff 2026-08-20-01\n\n## Done\n\nThe rate limiter keeps \u2211 w\u1d62 \u2264 W over a window of 60 s; " +
			"tests check the bound with \u03bb = \u00bd and \u221e burst (commit b41c07e2).\n\n## Next\n\nMeasure p\u2089\u2089 latency under 2\u00d7 load and write it down in docs/limits.md.\n", earlier, false},
		{"honest Hindi handoff", "# \u0939\u0948\u0902\u0921\u0911\u092b 2026-08-20-01\n\n\u0938\u094d\u0915\u094d\u0930\u093f\u092a\u094d\u091f \u0905\u092c \u0928\u093e\u092e \u0932\u0947\u0924\u0940 \u0939\u0948 \u0914\u0930 \u091f\u0947\u0938\u094d\u091f \u091b\u0939 \u0928\u093e\u092e \u091c\u093e\u0901\u091a\u0924\u093e \u0939\u0948\u0964 " +
			"\u0906\u0917\u0947: README \u092e\u0947\u0902 \u0909\u092a\u092f\u094b\u0917 \u0932\u093f\u0916\u0928\u093e \u0914\u0930 \u0909\u0926\u093e\u0939\u0930\u0923 \u091c\u094b\u0921\u093c\u0928\u093e\u0964\n",
			"# \u0939\u0948\u0902\u0921\u0911\u092b 2026-08-19-01\n\n\u0915\u0932 \u0938\u094d\u0915\u094d\u0930\u093f\u092a\u094d\u091f \u0915\u0947\u0935\u0932 \u0928\u092e\u0938\u094d\u0924\u0947 \u091b\u093e\u092a\u0924\u0940 \u0925\u0940; \u091f\u0947\u0938\u094d\u091f \u090f\u0915 \u092a\u0902\u0915\u094d\u0924\u093f \u091c\u093e\u0901\u091a\u0924\u093e \u0925\u093e\u0964 " +
				"\u0938\u094d\u0915\u094d\u0930\u093f\u092a\u094d\u091f POSIX sh \u092a\u0930 \u0930\u0939\u0924\u0940 \u0939\u0948 \u0924\u093e\u0915\u093f CI \u092e\u0947\u0902 bash \u0915\u0947 \u092c\u093f\u0928\u093e \u091a\u0932\u0947\u0964\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := New(c.text).NearCopyOf(c.other); got != c.want {
				t.Fatalf("NearCopyOf = %v, want %v (similarity %.2f)", got, c.want, Similarity(c.text, c.other))
			}
		})
	}
}
