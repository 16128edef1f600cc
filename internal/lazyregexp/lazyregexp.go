// Package lazyregexp is a regexp compiled on its first use. Every process
// of the binary, each git and agent hook included, runs the package init
// of everything linked into it: a package-level regexp.MustCompile is
// compiled in every hook process whether that process matches it or not
// (round 17: 25 in scriptrun alone, 664 KB of a hook's 1.9 MB of init).
// A package-level lazyregexp.New costs one small allocation at init; the
// pattern is compiled by the first call of a method, once, safely from
// several goroutines.
//
// The methods are those of *regexp.Regexp, with the same meaning, so
// turning a package-level regexp.MustCompile into New changes only the
// declaration. Inside a test binary New compiles at once, as
// regexp.MustCompile does, so a bad pattern panics when its package's
// tests start, not on the first use in a user's hook.
package lazyregexp

import (
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
)

// Regexp is a regexp compiled on first use. Its zero value is not usable:
// make one with New.
type Regexp struct {
	str  string
	once sync.Once
	rx   *regexp.Regexp
}

// inTest: the binary is a test binary (name.test), where New compiles at
// once so that a bad pattern fails the package's tests.
var inTest = len(os.Args) > 0 && strings.HasSuffix(strings.TrimSuffix(os.Args[0], ".exe"), ".test")

// New is a regexp for str, compiled on its first use. Like
// regexp.MustCompile, a pattern that does not compile panics (then).
func New(str string) *Regexp {
	r := &Regexp{str: str}
	if inTest {
		r.Regexp()
	}
	return r
}

// Regexp is the compiled regexp, compiled now when it is the first use.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.str) })
	return r.rx
}

// String is the source text, without compiling it.
func (r *Regexp) String() string { return r.str }

func (r *Regexp) Match(b []byte) bool                  { return r.Regexp().Match(b) }
func (r *Regexp) MatchString(s string) bool            { return r.Regexp().MatchString(s) }
func (r *Regexp) MatchReader(rd io.RuneReader) bool    { return r.Regexp().MatchReader(rd) }
func (r *Regexp) Find(b []byte) []byte                 { return r.Regexp().Find(b) }
func (r *Regexp) FindIndex(b []byte) []int             { return r.Regexp().FindIndex(b) }
func (r *Regexp) FindString(s string) string           { return r.Regexp().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int       { return r.Regexp().FindStringIndex(s) }
func (r *Regexp) FindSubmatch(b []byte) [][]byte       { return r.Regexp().FindSubmatch(b) }
func (r *Regexp) FindSubmatchIndex(b []byte) []int     { return r.Regexp().FindSubmatchIndex(b) }
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Regexp().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAll(b []byte, n int) [][]byte       { return r.Regexp().FindAll(b, n) }
func (r *Regexp) FindAllIndex(b []byte, n int) [][]int   { return r.Regexp().FindAllIndex(b, n) }
func (r *Regexp) FindAllString(s string, n int) []string { return r.Regexp().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte {
	return r.Regexp().FindAllSubmatch(b, n)
}
func (r *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return r.Regexp().FindAllSubmatchIndex(b, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.Regexp().ReplaceAll(src, repl) }
func (r *Regexp) ReplaceAllLiteral(src, repl []byte) []byte {
	return r.Regexp().ReplaceAllLiteral(src, repl)
}
func (r *Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.Regexp().ReplaceAllFunc(src, repl)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.Regexp().ReplaceAllLiteralString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) Expand(dst []byte, template []byte, src []byte, match []int) []byte {
	return r.Regexp().Expand(dst, template, src, match)
}
func (r *Regexp) ExpandString(dst []byte, template string, src string, match []int) []byte {
	return r.Regexp().ExpandString(dst, template, src, match)
}
func (r *Regexp) Split(s string, n int) []string { return r.Regexp().Split(s, n) }
func (r *Regexp) NumSubexp() int                 { return r.Regexp().NumSubexp() }
func (r *Regexp) SubexpNames() []string          { return r.Regexp().SubexpNames() }
func (r *Regexp) SubexpIndex(name string) int    { return r.Regexp().SubexpIndex(name) }
func (r *Regexp) LiteralPrefix() (prefix string, complete bool) {
	return r.Regexp().LiteralPrefix()
}
