// Package testcounts reads how many tests a run reported passing, from its
// output, and how many a handoff says passed ("181 passed", "all 17 tests
// pass"), so a count no observed run showed can be raised to a reviewer.
// Run output is hashed, not kept; the counts are numbers, not bodies, so
// a run's reference keeps them (RefNote, FromRef).
package testcounts

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

var (
	// Runner summaries: pytest "2 passed", mocha "17 passing", jest and
	// vitest "Tests: 3 passed", cargo "ok. 4 passed", unittest "Ran 5
	// tests" (then OK), TAP "# pass 6"; a project script's own noun, "1
	// validation(s) passed", "12 checks passed" (a handoff's "All 42 tests
	// pass" after such a run was never compared: no run had reported a
	// count, round 25).
	outputRules = []*lazyregexp.Regexp{
		lazyregexp.New(`(?m)\b(\d+) (?:[a-z]+(?:\(s\))? )?(?:passed|passing)\b`),
		lazyregexp.New(`(?m)^Ran (\d+) tests? in `),
		lazyregexp.New(`(?m)^# pass\s+(\d+)\s*$`),
	}
	// go test -v prints a line per passing test and no total.
	goPass = lazyregexp.New(`(?m)^\s*--- PASS: `)

	// Claims in prose: "181 passed", "17 tests pass", "all 17 tests
	// passed", "12/12 tests pass", "Ran 9 tests". A count of things that
	// fail or turn red ("turns 4 tests red") is no claim of a pass.
	claimRules = []*lazyregexp.Regexp{
		lazyregexp.New(`(?i)\b(\d+)(?:/\d+)? (?:(?:unit |integration |new )?(?:tests?|checks?|specs?|cases?) )?(?:now )?(?:pass|passed|passing|pass(?:es)?)\b`),
		lazyregexp.New(`(?i)\ball (\d+) (?:(?:unit |integration )?(?:tests?|checks?|specs?|cases?) )(?:now )?(?:are )?(?:pass|passed|passing|green)\b`),
		lazyregexp.New(`(?i)\bran (\d+) tests?\b`),
	}
)

// FromOutput lists the pass counts a run's output reports, each once, in
// order; nil when it reports none (go test without -v).
func FromOutput(out []byte) []int {
	var got []int
	add := func(n int) {
		if n > 0 && !slices.Contains(got, n) {
			got = append(got, n)
		}
	}
	s := string(out)
	for _, re := range outputRules {
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			n, _ := strconv.Atoi(m[1])
			add(n)
		}
	}
	add(len(goPass.FindAllStringIndex(s, -1)))
	return got
}

// Claim is a count of passing tests a text states, with its line.
type Claim struct {
	N    int
	Line int // 1-based
	Text string
}

// Claims lists the pass counts text states, one per line and number.
func Claims(text string) []Claim {
	var out []Claim
	for i, l := range strings.Split(text, "\n") {
		l = withDigits(l) // "forty-two tests pass" (words.go)
		var seen []int
		for _, re := range claimRules {
			for _, ix := range re.FindAllStringSubmatchIndex(l, -1) {
				// "#751 PASS" is an issue's verdict, "v1.2 passes" a version's.
				if b := ix[2]; b > 0 && strings.ContainsRune("#.v", rune(l[b-1])) {
					continue
				}
				m := []string{l[ix[0]:ix[1]], l[ix[2]:ix[3]]}
				n, err := strconv.Atoi(m[1])
				if err != nil || n == 0 || slices.Contains(seen, n) {
					continue
				}
				seen = append(seen, n)
				out = append(out, Claim{N: n, Line: i + 1, Text: strings.TrimSpace(m[0])})
			}
		}
	}
	return out
}

// Unbacked lists the claims that no run's count answers: a count one run
// reported, or the sum of two (a handoff that adds up two suites).
func Unbacked(claims []Claim, seen []int) []Claim {
	var out []Claim
	for _, c := range claims {
		if !backed(c.N, seen) {
			out = append(out, c)
		}
	}
	return out
}

func backed(n int, seen []int) bool {
	for i, a := range seen {
		if a == n {
			return true
		}
		for _, b := range seen[i+1:] {
			if a+b == n {
				return true
			}
		}
	}
	return false
}

// refMark begins the counts a run's reference keeps.
const refMark = "output counts "

// RefNote is what a run's reference keeps of counts ("" for none):
// ", output counts 2,5 passed".
func RefNote(counts []int) string {
	if len(counts) == 0 {
		return ""
	}
	s := make([]string, len(counts))
	for i, n := range counts {
		s[i] = strconv.Itoa(n)
	}
	return ", " + refMark + strings.Join(s, ",") + " passed"
}

var refRe = lazyregexp.New(regexp.QuoteMeta(refMark) + `([\d,]+) passed`)

// FromRef reads back the counts RefNote put in a reference.
func FromRef(ref string) []int {
	var out []int
	for _, m := range refRe.FindAllStringSubmatch(ref, -1) {
		for _, f := range strings.Split(m[1], ",") {
			if n, err := strconv.Atoi(f); err == nil && n > 0 {
				out = append(out, n)
			}
		}
	}
	return out
}
