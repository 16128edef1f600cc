package protocolspec

import (
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
