package textfold

import "testing"

func TestFold(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"[what was completed]", "[what was completed]"},
		{"[what\u200b was completed]", "[what was completed]"},
		{"[what\u00a0was completed]", "[what was completed]"},
		{"\ufeff[What Was  Completed]", "[what was completed]"},
		{"\uff3bwhat was completed\uff3d", "[what was completed]"},
		{"a\u00adb\u2060c", "abc"},
		{"line one\r\nline\ttwo\n", "line one\r\nline two\n"},
		{"", ""},
		// Marks on Latin letters are dropped (a dot put on every letter
		// disguised a copy, issue 25 item 4); other scripts keep theirs
		// (TestAdv5Compatibility).
		{"naïve café", "naive cafe"},
	} {
		if got := Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBare(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"- \u3010What\u200b was completed\u3011", "what was completed"},
		{"<!-- what was completed -->", "what was completed"},
		{"  * [ ] what was completed.", "what was completed"},
		{"scripts/greet.sh takes a name.", "scripts/greet.sh takes a name"},
		{"---", ""},
	} {
		if got := Bare(tt.in); got != tt.want {
			t.Errorf("Bare(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
