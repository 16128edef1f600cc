package protocolspec

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// keywordRE is the reference definition firstKeyword's scanner must agree with.
var keywordRE = regexp.MustCompile(`\b(?:MUST NOT|SHALL NOT|SHOULD NOT|NOT RECOMMENDED|MUST|SHALL|SHOULD|RECOMMENDED|REQUIRED|MAY|OPTIONAL)\b`)

func refKeyword(b []byte) string {
	m := keywordRE.Find(b)
	if m == nil {
		return ""
	}
	return keywordLevel[string(m)]
}

func TestFirstKeywordMatchesRegexp(t *testing.T) {
	words := []string{"MUST", "NOT", "SHALL", "SHOULD", "RECOMMENDED", "REQUIRED", "MAY", "OPTIONAL",
		"MUSTARD", "must", "A", "x", "_", "\x00", "MAYBE", "NOTE", "9", "-", ".", "`"}
	seps := []string{" ", "", "_", "-", "\x00"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := rng.IntN(6); n >= 0; n-- {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		s := b.String()
		if got, want := firstKeyword([]byte(s)), refKeyword([]byte(s)); got != want {
			t.Fatalf("firstKeyword(%q) = %q, regexp says %q", s, got, want)
		}
	}
}

func TestSentences(t *testing.T) {
	tests := map[string][]string{
		"One. Two! Three? Four":           {"One.", "Two!", "Three?", "Four"},
		"He said (MUST stop.) Next.":      {"He said (MUST stop.)", "Next."},
		`Quote "ends." Next`:              {`Quote "ends."`, "Next"},
		"Use e.g. this, i.e. that. Done.": {"Use e.g. this, i.e. that.", "Done."},
		"Version 1.5 is here.":            {"Version 1.5 is here."},
		"Trailing dots... More":           {"Trailing dots...", "More"},
		"":                                nil,
	}
	for in, want := range tests {
		var f flat
		f.write([]byte(in), 0, false)
		var got []string
		for _, sp := range f.sentences() {
			got = append(got, string(f.b[sp[0]:sp[1]]))
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("sentences(%q) = %q, want %q", in, got, want)
		}
	}
}

// lastWord is the lower-cased word, as sentences once looked it up: (letters and inner dots) ending at the end of b.
func lastWord(b []byte) string {
	i := len(b)
	for i > 0 {
		c := b[i-1]
		if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' {
			i--
			continue
		}
		break
	}
	return string(bytes.ToLower(b[i:]))
}

// isAbbreviation answers abbreviations[lastWord(b)] on every prefix of
// the real protocols' lines and on edge cases.
func TestIsAbbreviation(t *testing.T) {
	lines := []string{"e.g", "E.G", "see e.g", "I.e", "vs", "VS", "xvs", "cf", "c.f", "etc", "", ".", "a.e.g", "é.g"}
	lines = append(lines, fixtureLines(t)...)
	for _, l := range lines {
		for i := 0; i <= len(l); i++ {
			b := []byte(l[:i])
			if got, want := isAbbreviation(b), abbreviations[lastWord(b)]; got != want {
				t.Fatalf("isAbbreviation(%q) = %v, want %v", b, got, want)
			}
		}
	}
}
