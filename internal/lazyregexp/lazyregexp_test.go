package lazyregexp

import (
	"os"
	"regexp"
	"slices"
	"sync"
	"testing"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestLazyUntilFirstUse: outside a test binary New compiles nothing; the
// first method call compiles once, and every caller sees that regexp.
func TestLazyUntilFirstUse(t *testing.T) {
	was := inTest
	inTest = false
	defer func() { inTest = was }()
	r := New(`a(b+)`)
	if r.rx != nil {
		t.Fatal("New compiled the pattern before its first use")
	}
	if got := r.String(); got != `a(b+)` {
		t.Fatalf("String() = %q before use, want the source", got)
	}
	if r.rx != nil {
		t.Fatal("String() compiled the pattern")
	}
	var wg sync.WaitGroup
	seen := make([]*regexp.Regexp, 8)
	for i := range seen {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !r.MatchString("xabbb") {
				t.Error("MatchString(xabbb) = false")
			}
			seen[i] = r.Regexp()
		}()
	}
	wg.Wait()
	for _, s := range seen {
		if s != seen[0] {
			t.Fatal("goroutines saw different compiled regexps: compiled more than once")
		}
	}
}

// TestInTestCompilesAtOnce: in a test binary a bad pattern panics in New,
// so a package's tests catch it before a user's hook meets it.
func TestInTestCompilesAtOnce(t *testing.T) {
	if !inTest {
		t.Fatalf("inTest is false in a test binary (os.Args[0] = %q)", os.Args[0])
	}
	defer func() {
		if recover() == nil {
			t.Fatal("New(`a(`) did not panic in a test binary")
		}
	}()
	New(`a(`)
}

// TestSameAsRegexp: every method answers as *regexp.Regexp's does.
func TestSameAsRegexp(t *testing.T) {
	const pat = `(?m)^(\w+)=(\d*)$`
	const s = "a=1\nbb=22\nx y\nccc=\n"
	r, std := New(pat), regexp.MustCompile(pat)
	b := []byte(s)
	upper := func(x string) string { return "<" + x + ">" }
	upperB := func(x []byte) []byte { return []byte("<" + string(x) + ">") }
	tests := []struct {
		name      string
		got, want any
	}{
		{"Match", r.Match(b), std.Match(b)},
		{"MatchString", r.MatchString(s), std.MatchString(s)},
		{"Find", r.Find(b), std.Find(b)},
		{"FindIndex", r.FindIndex(b), std.FindIndex(b)},
		{"FindString", r.FindString(s), std.FindString(s)},
		{"FindStringIndex", r.FindStringIndex(s), std.FindStringIndex(s)},
		{"FindSubmatch", r.FindSubmatch(b), std.FindSubmatch(b)},
		{"FindSubmatchIndex", r.FindSubmatchIndex(b), std.FindSubmatchIndex(b)},
		{"FindStringSubmatch", r.FindStringSubmatch(s), std.FindStringSubmatch(s)},
		{"FindStringSubmatchIndex", r.FindStringSubmatchIndex(s), std.FindStringSubmatchIndex(s)},
		{"FindAll", r.FindAll(b, -1), std.FindAll(b, -1)},
		{"FindAllIndex", r.FindAllIndex(b, -1), std.FindAllIndex(b, -1)},
		{"FindAllString", r.FindAllString(s, 2), std.FindAllString(s, 2)},
		{"FindAllStringIndex", r.FindAllStringIndex(s, -1), std.FindAllStringIndex(s, -1)},
		{"FindAllSubmatch", r.FindAllSubmatch(b, -1), std.FindAllSubmatch(b, -1)},
		{"FindAllSubmatchIndex", r.FindAllSubmatchIndex(b, -1), std.FindAllSubmatchIndex(b, -1)},
		{"FindAllStringSubmatch", r.FindAllStringSubmatch(s, -1), std.FindAllStringSubmatch(s, -1)},
		{"FindAllStringSubmatchIndex", r.FindAllStringSubmatchIndex(s, -1), std.FindAllStringSubmatchIndex(s, -1)},
		{"ReplaceAll", r.ReplaceAll(b, []byte("$2")), std.ReplaceAll(b, []byte("$2"))},
		{"ReplaceAllLiteral", r.ReplaceAllLiteral(b, []byte("$2")), std.ReplaceAllLiteral(b, []byte("$2"))},
		{"ReplaceAllFunc", r.ReplaceAllFunc(b, upperB), std.ReplaceAllFunc(b, upperB)},
		{"ReplaceAllString", r.ReplaceAllString(s, "${1}:"), std.ReplaceAllString(s, "${1}:")},
		{"ReplaceAllLiteralString", r.ReplaceAllLiteralString(s, "$1"), std.ReplaceAllLiteralString(s, "$1")},
		{"ReplaceAllStringFunc", r.ReplaceAllStringFunc(s, upper), std.ReplaceAllStringFunc(s, upper)},
		{"Expand", r.Expand(nil, []byte("$2"), b, r.FindSubmatchIndex(b)), std.Expand(nil, []byte("$2"), b, std.FindSubmatchIndex(b))},
		{"ExpandString", r.ExpandString(nil, "$1", s, r.FindStringSubmatchIndex(s)), std.ExpandString(nil, "$1", s, std.FindStringSubmatchIndex(s))},
		{"Split", r.Split(s, -1), std.Split(s, -1)},
		{"NumSubexp", r.NumSubexp(), std.NumSubexp()},
		{"SubexpNames", r.SubexpNames(), std.SubexpNames()},
		{"SubexpIndex", r.SubexpIndex("x"), std.SubexpIndex("x")},
		{"String", r.String(), std.String()},
	}
	for _, tc := range tests {
		if !equal(tc.got, tc.want) {
			t.Errorf("%s: got %v, want %v (regexp's)", tc.name, tc.got, tc.want)
		}
	}
	if p, c := r.LiteralPrefix(); p != "" || c {
		t.Errorf("LiteralPrefix = %q, %v", p, c)
	}
}

func equal(a, b any) bool {
	switch x := a.(type) {
	case []byte:
		return string(x) == string(b.([]byte))
	case [][]byte:
		y := b.([][]byte)
		return slices.EqualFunc(x, y, func(p, q []byte) bool { return string(p) == string(q) })
	case [][][]byte:
		y := b.([][][]byte)
		return slices.EqualFunc(x, y, func(p, q [][]byte) bool { return equal(p, q) })
	case []int:
		return slices.Equal(x, b.([]int))
	case [][]int:
		return slices.EqualFunc(x, b.([][]int), slices.Equal)
	case []string:
		return slices.Equal(x, b.([]string))
	case [][]string:
		return slices.EqualFunc(x, b.([][]string), slices.Equal)
	default:
		return a == b
	}
}
