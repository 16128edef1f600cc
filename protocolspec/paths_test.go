package protocolspec

import (
	"regexp"
	"slices"
	"testing"
)

// pathTokens finds what the "path" regexp finds, on every line of the
// real protocols and on edge cases.
func TestPathTokensMatchRegexp(t *testing.T) {
	lines := []string{"", "/", "//", "a/", "a//b", "/a", "a/b/", "a/b//", ".agents/HANDOFF.md is read-only", "x *.md, docs/**/ and y-z_1.",
		"é/a", "aé/b", "a/é", "`src/`", "a /b", "a/ b", "---", "a\u00a0b/c"}
	lines = append(lines, fixtureLines(t)...)
	re := regexp.MustCompile(pathPattern)
	for _, l := range lines {
		if got, want := pathTokens(l), re.FindAllString(l, -1); !slices.Equal(got, want) {
			t.Errorf("pathTokens(%q) = %q, the regexp finds %q", l, got, want)
		}
	}
}

func FuzzPathTokens(f *testing.F) {
	f.Add(".agents/HANDOFF.md is read-only; docs/ a//b /x")
	re := regexp.MustCompile(pathPattern)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := pathTokens(s), re.FindAllString(s, -1); !slices.Equal(got, want) {
			t.Fatalf("pathTokens(%q) = %q, the regexp finds %q", s, got, want)
		}
	})
}
