package protocolspec

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// cuesOf finds a cue exactly when one of its phrases is in the text, on
// every line of the real protocols and on phrases at the text's edges.
func TestCuesOfMatchesContains(t *testing.T) {
	lines := []string{"", "n", "not", "not ", "read", "read-onl", "main", "xmainx", "must updat", "shall edit it",
		"not directly x", "uncommitted", "sectio", "section", "commit al", "a commit all b", "\u017feparate branch", "defaul"}
	for _, words := range cueWords {
		for _, w := range words {
			lines = append(lines, w, "x "+w, w+" x", w[:len(w)-1], w[1:])
		}
	}
	lines = append(lines, fixtureLines(t)...)
	for _, p := range []string{"testdata/basic.md", "testdata/templates.md"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(b), "\n")...)
	}
	for _, l := range lines {
		lower := strings.ToLower(strings.Join(strings.Fields(l), " "))
		got := cuesOf([]byte(lower))
		for c, words := range cueWords {
			want := slices.ContainsFunc(words, func(w string) bool { return strings.Contains(lower, w) })
			if got&c != 0 != want {
				t.Errorf("cuesOf(%q): cue %b is %v, strings.Contains says %v", lower, c, got&c != 0, want)
			}
		}
	}
}
