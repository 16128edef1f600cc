package testrun

import (
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// jsNamedFixture is a loaded file of the agent's (a 20 KB jest setup
// file) and the modules a mid-sized project's tests import (300 names).
func jsNamedFixture() (string, map[string]string) {
	under := map[string]string{}
	for i := 0; i < 300; i++ {
		n := fmt.Sprintf("module%d", i)
		if i%7 == 0 {
			n = fmt.Sprintf("my-mod.%d", i)
		}
		under[n] = "src/" + n + ".js"
	}
	var sb strings.Builder
	for sb.Len() < 20<<10 {
		sb.WriteString("expect.extend({ toBeGreeting(received) { return { pass: received.startsWith('hello'), message: () => 'no' } } });\n")
	}
	sb.WriteString("jest.mock('../src/module17', () => ({ greet: () => 'hello' }));\n")
	return sb.String(), under
}

// BenchmarkJSNamedModules: the names a jest/vitest stand-in names, per
// loaded file (round 29 c2: one regexp compiled per pair before).
func BenchmarkJSNamedModules(b *testing.B) {
	text, under := jsNamedFixture()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if got := jsNamedModules(text, "", under); len(got) != 1 {
			b.Fatal(got)
		}
	}
}

// TestJSNamedModulesAsRegexp: the word match is `\bname\b`'s, on names
// and texts with word and non-word characters at their edges.
func TestJSNamedModulesAsRegexp(t *testing.T) {
	r := rand.New(rand.NewSource(29))
	alpha := "ab_-.@1 /'\n"
	word := func(n int) string {
		var sb strings.Builder
		for i := 0; i < n; i++ {
			sb.WriteByte(alpha[r.Intn(len(alpha))])
		}
		return sb.String()
	}
	for i := 0; i < 20000; i++ {
		text := word(r.Intn(24))
		under := map[string]string{}
		for k := 0; k < 3; k++ {
			if n := word(1 + r.Intn(4)); n != "" {
				under[n] = n + ".js"
			}
		}
		var want []string
		for n := range under {
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\b`).MatchString(text) {
				want = append(want, n)
			}
		}
		slices.Sort(want)
		if got := jsNamedModules(text, "", under); !slices.Equal(got, want) {
			t.Fatalf("text %q names %q: got %q, want %q", text, slices.Collect(func(yield func(string) bool) {
				for n := range under {
					if !yield(n) {
						return
					}
				}
			}), got, want)
		}
	}
}
