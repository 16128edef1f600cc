package textfold

import "testing"

// TestAdv4Confusables: Cyrillic and Greek letters that look Latin fold to
// the Latin letter, so a template placeholder typed with them
// ("[whаt was completed]", a Cyrillic а) is still the placeholder; a word
// with no look-alike keeps its letters (adversarial pass 4).
func TestAdv4Confusables(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"[wh\u0430t w\u0430s c\u043empl\u0435t\u0435d]", "[what was completed]"},
		{"\u0410DD \u0422\u0415\u0405\u0422", "add test"},
		{"\u03bfn\u03b5", "one"},
		{"\u0434\u0430", "\u0434a"}, // д has no Latin look-alike
	} {
		if got := Fold(c.in); got != c.want {
			t.Errorf("Fold(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
