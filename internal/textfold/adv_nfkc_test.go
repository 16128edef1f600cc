package textfold

import "testing"

// TestAdv5Compatibility: letters outside the confusables list that a reader
// takes for plain Latin (mathematical alphanumerics, enclosed and circled
// letters, superscripts, small capitals, a combining mark or an invisible
// variation selector on each letter) fold to the plain letter (issue 25
// item 4: each read as new words before the fold took Unicode's
// compatibility forms). Text with real mathematics or another script keeps
// what tells it apart.
func TestAdv5Compatibility(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"mathematical bold", "\U0001d430\U0001d421\U0001d41a\U0001d42d", "what"},
		{"mathematical italic sans", "\U0001d638\U0001d629\U0001d622\U0001d635", "what"},
		{"mathematical monospace", "\U0001d68c\U0001d698\U0001d696\U0001d699", "comp"},
		{"circled", "\u24e6\u24d7\u24d0\u24e3", "what"},
		{"squared capitals", "\U0001f146\U0001f137\U0001f130\U0001f143", "what"},
		{"superscript and subscript", "n\u1d49xt\u2090", "nexta"},
		{"small capitals", "\u1d21\u029c\u1d00\u1d1b", "what"},
		{"combining mark on each letter", "w\u0307h\u0307a\u0307t\u0307", "what"},
		{"variation selectors", "w\ufe0fh\ufe0fa\ufe0ft\ufe0f", "what"},
		{"grapheme joiner", "w\u034fh\u034fa\u034ft", "what"},
		{"accented Latin", "caf\u00e9 na\u00efve", "cafe naive"},
		{"line breaks kept", "a\n\U0001d41b\r\nc", "a\nb\r\nc"},
		// Honest text keeps its own letters.
		{"mathematics", "\u2211 x\u00b2 \u2264 \u00bd \u2192 \u221e", "\u2211 x2 \u2264 1\u20442 \u2192 \u221e"},
		{"Hindi", "\u0928\u092e\u0938\u094d\u0924\u0947", "\u0928\u092e\u0938\u094d\u0924\u0947"},
		{"Japanese", "\u30c6\u30b9\u30c8\u304c\u901a\u308b", "\u30c6\u30b9\u30c8\u304c\u901a\u308b"},
		{"Korean", "\ud14c\uc2a4\ud2b8", "\ud14c\uc2a4\ud2b8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Fold(c.in); got != c.want {
				t.Errorf("Fold(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// BenchmarkFold folds a handoff-sized text: plain ASCII (the common case)
// and one with non-ASCII letters in every line.
func BenchmarkFold(b *testing.B) {
	line := "scripts/greet.sh prints a greeting; scripts/test.sh checks it (commit 3f9a2c1d) and the CI image runs it.\n"
	ascii := ""
	for range 60 {
		ascii += line
	}
	mixed := ""
	for range 60 {
		mixed += "Caf\u00e9 \u2014 \u0414\u043c\u0438\u0442\u0440\u0438\u0439 " + line
	}
	for _, c := range []struct{ name, s string }{{"ascii", ascii}, {"mixed", mixed}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			for b.Loop() {
				Fold(c.s)
			}
		})
	}
}
