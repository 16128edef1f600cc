package protocolspec

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// hasWord answers what the regexps it replaced answered, on every line of
// the real protocols and on edge cases.
func TestHasWordMatchesRegexp(t *testing.T) {
	reqRE := regexp.MustCompile(`(?i)\b(if|when|whenever|unless|in case)\b`)
	inferRE := regexp.MustCompile(`(?i)\b(if|when|whenever|unless|except|otherwise)\b`)
	creationRE := regexp.MustCompile(`(?i)\b(create|creates|created|write|writes|produce|generate|add|update|updates|save)\b`)
	lines := []string{
		"", "If", "if the file exists", "IF", "specific", "gift", "whenEVER", "when_ever", "in case", "In Case of fire",
		"in  case", "in, case", "incase", "in case_", "_if", "if_", "x-if-y", "élif if", "unless.", "(otherwise)", "except", "exception",
		strings.Repeat("a", 40) + " when", "whenwhen", "when2",
	}
	lines = append(lines, fixtureLines(t)...)
	for _, l := range lines {
		if got, want := IsConditional(l), reqRE.MatchString(l); got != want {
			t.Errorf("IsConditional(%q) = %v, the regexp says %v", l, got, want)
		}
		if got, want := hasWord(l, &creationWords, "", ""), creationRE.MatchString(l); got != want {
			t.Errorf("hasWord(%q, creationWords) = %v, the regexp says %v", l, got, want)
		}
		if got, want := isConditional(l), inferRE.MatchString(l); got != want {
			t.Errorf("isConditional(%q) = %v, the regexp says %v", l, got, want)
		}
	}
}

// bracketSpans finds exactly what the regexp it replaced finds.
func TestBracketSpansMatchesRegexp(t *testing.T) {
	re := regexp.MustCompile(`\[[^\[\]\n]{1,80}\]|\{[^{}\n]{1,60}\}`)
	inputs := []string{"", "[]", "{}", "[a]", "{a}", "[[a]]", "{[a]}", "[{a}]", "[a\nb]", "[" + strings.Repeat("é", 80) + "]",
		"[" + strings.Repeat("é", 81) + "]", "{" + strings.Repeat("x", 60) + "}", "{" + strings.Repeat("x", 61) + "}",
		"[a](b) {c} [d][e]", "\xff[\xfe]", "[a}b]", "{a]b}", "[[[x]", "{{{x}"}
	inputs = append(inputs, fixtureDocs(t)...)
	// Random strings over the characters that matter.
	alphabet := []string{"[", "]", "{", "}", "\n", "a", " ", "é", "\xff"}
	seed := uint32(1)
	for range 2000 {
		var sb strings.Builder
		for range 1 + seed%90 {
			seed = seed*1664525 + 1013904223
			sb.WriteString(alphabet[seed>>16%uint32(len(alphabet))])
		}
		inputs = append(inputs, sb.String())
	}
	for _, in := range inputs {
		got, want := bracketSpans(in), re.FindAllStringIndex(in, -1)
		if len(got) != len(want) {
			t.Fatalf("bracketSpans(%q) = %v, the regexp says %v", in, got, want)
		}
		for i := range got {
			if got[i][0] != want[i][0] || got[i][1] != want[i][1] {
				t.Fatalf("bracketSpans(%q) = %v, the regexp says %v", in, got, want)
			}
		}
	}
}

// slugReference is Slug as first written (lower-case, split, join).
func slugReference(text string) string {
	var words []string
	lower := strings.ToLower(text)
	for i := 0; i < len(lower) && len(words) < slugWords; {
		if !isSlugByte(lower[i]) {
			i++
			continue
		}
		j := i
		for j < len(lower) && isSlugByte(lower[j]) {
			j++
		}
		if w := lower[i:j]; !slugStop.has([]byte(w)) {
			words = append(words, w)
		}
		i = j
	}
	return strings.Join(words, "-")
}

// Slug gives what its first, allocating version gave, on every line of
// the real protocols and on edge cases.
func TestSlugMatchesReference(t *testing.T) {
	lines := []string{"", "The", "The agent MUST read `.agents/HANDOFF.md` before starting work", "A B C D E F", "MUST MUST must",
		"\u212a-factor Kelvin", "İstanbul IS big", "ÀÉÎ Õ ü 42", "x1 y2 z3 w4 v5", "the a an agent must shall", "Ünïcode-AND ascii",
		"a1 b2 c3 d4\u212a", "a1 b2 c3 d4 \u212a", "a1 b2 c3 d4 e5 é", "the é a1 b2 c3 d4", "\u212ax y z w"}
	paths, _ := filepath.Glob(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", "*.md"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(b), "\n")...)
	}
	for _, l := range lines {
		if got, want := Slug(l), slugReference(l); got != want {
			t.Errorf("Slug(%q) = %q, want %q", l, got, want)
		}
	}
}

// isConditional is the wordConditional class on its own.
func isConditional(text string) bool { return hasWord(text, &conditionalWords, "", "") }

// wordsOf finds each class hasWord finds, on every line of the real
// protocols and on edge cases.
func TestWordsOfMatchesHasWord(t *testing.T) {
	lines := []string{"", "If", "in case", "In  case", "in, case", "when_ever", "EXCEPT", "otherwise.", "Created", strings.Repeat("x", 20) + " case",
		"in " + strings.Repeat("y", 17) + " case", "x in case y", "IN CASE", "K\u212a if"}
	paths, _ := filepath.Glob(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", "*.md"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(b), "\n")...)
	}
	for _, l := range lines {
		w := wordsOf(l)
		if got, want := w.flags&wordWhen != 0, IsConditional(l); got != want {
			t.Errorf("wordsOf(%q) when = %v, IsConditional says %v", l, got, want)
		}
		if got, want := w.flags&wordConditional != 0, isConditional(l); got != want {
			t.Errorf("wordsOf(%q) conditional = %v, isConditional says %v", l, got, want)
		}
		if got, want := w.flags&wordCreation != 0, hasWord(l, &creationWords, "", ""); got != want {
			t.Errorf("wordsOf(%q) creation = %v, hasWord says %v", l, got, want)
		}
		if want := cuesOf([]byte(strings.ToLower(l))); w.cues != want {
			t.Errorf("wordsOf(%q).cues = %b, want %b", l, w.cues, want)
		}
	}
}

// FuzzSlug: Slug gives what its first, allocating version gave.
func FuzzSlug(f *testing.F) {
	for _, s := range []string{"The agent MUST read `.agents/HANDOFF.md`", "a1 b2 c3 d4\u212a", "İstanbul IS big", "the é a1 b2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Slug(s), slugReference(s); got != want {
			t.Fatalf("Slug(%q) = %q, want %q", s, got, want)
		}
	})
}
