package protocolspec

import (
	"regexp"
	"testing"
)

var tplVarSamples = []string{"", ".agents/sessions/YYYY-MM-DD-session-NN.md", "a/{session}/b", "[x]/<y>/{z}", "YYYYY-MM_DD", "NNN.NN.N",
	"{a/b}", "[a[b]", "<<x>>", "{}", "[]", "<>", "x{y", "XXX-XX-X", "éMM", "MMé", "MM\xff", "{é/}", "[\n]", "_MM_", "9DD"}

// templateGlob replaces what the regexp it stands for replaces.
func TestTemplateGlobMatchesRegexp(t *testing.T) {
	re := regexp.MustCompile(tplVarPattern)
	for _, s := range tplVarSamples {
		if got, want := templateGlob(s), re.ReplaceAllString(s, "*"); got != want {
			t.Errorf("templateGlob(%q) = %q, the regexp gives %q", s, got, want)
		}
	}
}

func FuzzTemplateGlob(f *testing.F) {
	for _, s := range tplVarSamples {
		f.Add(s)
	}
	re := regexp.MustCompile(tplVarPattern)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := templateGlob(s), re.ReplaceAllString(s, "*"); got != want {
			t.Fatalf("templateGlob(%q) = %q, the regexp gives %q", s, got, want)
		}
	})
}
