package testrun

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// BenchmarkNewlyNamed: the ignored-stub rule on the observed-run hook path
// (review c11 item 9): for each ignored file made in the session, every
// changed file the run reads is searched for its names. 40 candidates,
// 30 changed files of 200 lines each, as a mid-size session.
func BenchmarkNewlyNamed(b *testing.B) {
	var cands []string
	for i := range 40 {
		cands = append(cands, fmt.Sprintf("build/gen_%d.py", i))
	}
	var texts []string
	for i := range 30 {
		var sb strings.Builder
		for j := range 200 {
			fmt.Fprintf(&sb, "    result_%d = compute(value_%d, other) # line %d of file %d\n", j, j, j, i)
		}
		texts = append(texts, sb.String())
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range cands {
			needles := stubNeedles(f)
			for _, t := range texts {
				if newlyNames(needles, f, t, t) {
					b.Fatal("named")
				}
			}
		}
	}
}

// BenchmarkGoDeclares: the -X rule (gobuildselect.go) looks for a
// variable's declaration in each changed file of its package.
func BenchmarkGoDeclares(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("package greet\n\nvar mode = \"real\"\n\n")
	for j := range 300 {
		fmt.Fprintf(&sb, "func F%d() int {\n\tx := %d\n\treturn x\n}\n", j, j)
	}
	src := []byte(sb.String())
	b.ReportAllocs()
	for b.Loop() {
		for _, name := range []string{"mode", "Version", "commit"} {
			_ = goDeclares(src, name)
		}
	}
}

// TestWordMatchersAsRegexps: wordIn and goDeclares answer as the regexps
// they replace (review c11 item 9).
func TestWordMatchersAsRegexps(t *testing.T) {
	texts := []string{"", "greet", "import greet", "greeting", "xgreet", ".greet", "-greet", "greet-x", "greet.py", "a/greet b", "é greet", "greet\n", "x greet_ y greet",
		"build/gen_1.py", "cp build/gen_1.py x", "build/gen_1.pyc", "gen_1", "from gen_1 import a", "mygen_1"}
	for _, w := range []string{"greet", "build/gen_1.py", "gen_1.py", "gen_1"} {
		re := regexp.MustCompile(`(^|[^\w.-])` + regexp.QuoteMeta(w) + `($|[^\w-])`)
		for _, s := range texts {
			if got, want := wordIn(s, w), re.MatchString(s); got != want {
				t.Errorf("wordIn(%q, %q) = %v, the regexp %v", s, w, got, want)
			}
		}
	}
	srcs := []string{"var mode = 1", "  mode = 2", "mode := 3", "var mode string = \"x\"", "var modes = 1", "modex = 1", "mode == 1", "var  mode=1", "\tvar\tmode = 1",
		"// mode = 1", "x.mode = 1", "mode\n= 1", "var (\n\tmode = 1\n)", "variable = 1", "func mode() {}", "mode"}
	for _, name := range []string{"mode", "variable"} {
		re := regexp.MustCompile(`(?m)^\s*(?:var\s+)?` + regexp.QuoteMeta(name) + `\b[^=\n]*=`)
		for _, s := range srcs {
			if got, want := goDeclares([]byte(s), name), re.MatchString(s); got != want {
				t.Errorf("goDeclares(%q, %q) = %v, the regexp %v", s, name, got, want)
			}
		}
	}
}
