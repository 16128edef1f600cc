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

// TestMayApplyWhen: the byte check readCues runs before the appliesWhen
// pattern never says no where the pattern matches, on every line of the
// real protocols (lowered, and cut into sentences) and on edge cases.
func TestMayApplyWhen(t *testing.T) {
	cases := []string{
		"this phase applies only when asked", "the step is needed if x", "the\tsection applies for docs",
		"the  phase is run whenever", "these phases apply when", "thephase applies when", "this", "the", "th",
		"the agent must run the tests", "this phase", "the section", "the stepping stone",
	}
	for _, l := range fixtureLines(t) {
		for _, s := range strings.Split(strings.ToLower(l), ". ") {
			cases = append(cases, strings.TrimSpace(s))
		}
	}
	re := bindingRE()["appliesWhen"]
	for _, c := range cases {
		if re.MatchString(c) && !mayApplyWhen([]byte(c)) {
			t.Errorf("mayApplyWhen(%q) = false, the pattern matches", c)
		}
	}
	for _, c := range []string{"the phase applies when x", "this step is required if y"} {
		if !re.MatchString(c) {
			t.Errorf("case %q does not match the pattern: the test checks nothing", c)
		}
	}
}
