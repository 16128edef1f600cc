package shorten_test

import (
	"testing"
	"unicode/utf8"

	"github.com/sessiongate/sessiongate/internal/shorten"
)

func TestSHA(t *testing.T) {
	for in, want := range map[string]string{
		"0123456789abcdef0123":    "0123456789ab",
		"sha256:abcdef0123456789": "abcdef012345",
		"abc":                     "abc",
		"":                        "",
	} {
		if got := shorten.SHA(in); got != want {
			t.Errorf("SHA(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCutsNeverSplitARune(t *testing.T) {
	tests := []struct {
		name, in string
		n        int
		bytes    string // Bytes(in, n, "...")
		runes    string // Runes(in, n)
	}{
		{"short", "héllo", 10, "héllo", "héllo"},
		{"ascii", "abcdef", 3, "abc...", "abc…"},
		{"cut inside é", "hé llo", 2, "h...", "hé…"},
		{"cut after é", "hé llo", 3, "hé...", "hé …"},
		{"emoji", "👍👍👍", 5, "👍...", "👍👍👍"},
		{"zero", "abc", 0, "...", "…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := shorten.Bytes(tc.in, tc.n, "...")
			if b != tc.bytes || !utf8.ValidString(b) {
				t.Errorf("Bytes = %q, want %q", b, tc.bytes)
			}
			r := shorten.Runes(tc.in, tc.n)
			if r != tc.runes || !utf8.ValidString(r) {
				t.Errorf("Runes = %q, want %q", r, tc.runes)
			}
		})
	}
	if got := shorten.Line("a\n  b\tc", 3, "…"); got != "a b…" {
		t.Errorf("Line = %q, want %q", got, "a b…")
	}
}

func TestList(t *testing.T) {
	tests := []struct {
		items []string
		want  string
	}{
		{nil, ""},
		{[]string{"a.go"}, "a.go"},
		{[]string{"a", "b", "c", "d", "e"}, "a, b, c, d, e"},
		{[]string{"a", "b", "c", "d", "e", "f", "g"}, "a, b, c, d, e and 2 more"},
	}
	for _, tc := range tests {
		if got := shorten.List(tc.items, 5); got != tc.want {
			t.Errorf("List(%q, 5) = %q, want %q", tc.items, got, tc.want)
		}
	}
}
