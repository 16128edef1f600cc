package testcounts

import (
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// Outcome is what a run's summaries say of its tests: how many passed
// and how many the runner collected but did not run to a verdict
// (skipped, expected failures, todo, pending, deselected).
type Outcome struct {
	Passed, NotRun int
}

// Total is every test the summaries count, run or not.
func (o Outcome) Total() int { return o.Passed + o.NotRun }

var (
	// pytest's last line, with or without -q: "1 failed, 2 passed, 2
	// skipped, 1 xfailed in 0.08s" (between ='s without -q), at a line's
	// start: a warning's text pytest prints indented is not one (lazy
	// pass 36).
	pytestLine = lazyregexp.New(`(?m)^(?:=+ +)?((?:\d+ [a-z]+,? ?)+) in [\d.]+s\b`)
	pytestPart = lazyregexp.New(`(\d+) ([a-z]+)`)
	// unittest: "Ran 3 tests in 0.001s" then "OK (skipped=1, expected
	// failures=1)" or "FAILED (failures=1, skipped=2)".
	unittestRan  = lazyregexp.New(`(?m)^Ran (\d+) tests? in `)
	unittestTail = lazyregexp.New(`(?m)^(?:OK|FAILED)(?: \(([^)]*)\))?\s*$`)
	// node:test's spec ("ℹ pass 2") and TAP ("# pass 2") totals.
	nodeLine = lazyregexp.New(`(?m)^(?:ℹ|#) (pass|fail|skipped|todo|cancelled) (\d+)\s*$`)
	// jest and vitest: "Tests:  1 skipped, 1 todo, 2 passed, 4 total".
	jestLine = lazyregexp.New(`(?m)^\s*Tests:\s+(.*\d+ total)`)
	// mocha: "  2 passing (5ms)" and "  1 pending".
	mochaLine = lazyregexp.New(`(?m)^\s*(\d+) (passing|pending)\b`)
	// go test -v: a line per test.
	goLine = lazyregexp.New(`(?m)^\s*--- (PASS|SKIP): `)
)

// notRunWords are the summary words of tests collected and not run to a
// verdict.
var notRunWords = map[string]bool{
	"skipped": true, "xfailed": true, "deselected": true, "todo": true, "pending": true,
	"expected failures": true,
}

// OutcomeOf reads the summaries of the runners a command's output holds
// (pytest, unittest, node:test, jest and vitest, mocha, go test -v),
// summed; ok is false when no summary says both counts.
func OutcomeOf(out []byte) (o Outcome, ok bool) {
	s := string(out)
	add := func(word string, n int) {
		switch {
		case word == "passed" || word == "pass" || word == "passing":
			o.Passed += n
		case notRunWords[word]:
			o.NotRun += n
		}
	}
	for _, m := range pytestLine.FindAllStringSubmatch(s, -1) {
		ok = true
		for _, p := range pytestPart.FindAllStringSubmatch(m[1], -1) {
			n, _ := strconv.Atoi(p[1])
			add(p[2], n)
		}
	}
	if ran := unittestRan.FindAllStringSubmatchIndex(s, -1); len(ran) > 0 {
		for i, r := range ran {
			n, _ := strconv.Atoi(s[r[2]:r[3]])
			end := len(s)
			if i+1 < len(ran) {
				end = ran[i+1][0]
			}
			t := unittestTail.FindStringSubmatch(s[r[1]:end])
			if t == nil {
				continue
			}
			ok = true
			notRun, bad := 0, 0
			for _, kv := range strings.Split(t[1], ",") {
				k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
				c, _ := strconv.Atoi(v)
				switch k {
				case "skipped", "expected failures":
					notRun += c
				case "failures", "errors", "unexpected successes":
					bad += c
				}
			}
			o.Passed += max(n-notRun-bad, 0)
			o.NotRun += notRun
		}
	}
	for _, m := range nodeLine.FindAllStringSubmatch(s, -1) {
		ok = true
		n, _ := strconv.Atoi(m[2])
		add(m[1], n)
	}
	for _, m := range jestLine.FindAllStringSubmatch(s, -1) {
		ok = true
		for _, p := range pytestPart.FindAllStringSubmatch(m[1], -1) {
			n, _ := strconv.Atoi(p[1])
			add(p[2], n)
		}
	}
	for _, m := range mochaLine.FindAllStringSubmatch(s, -1) {
		ok = true
		n, _ := strconv.Atoi(m[1])
		add(m[2], n)
	}
	for _, m := range goLine.FindAllStringSubmatch(s, -1) {
		ok = true
		if m[1] == "PASS" {
			o.Passed++
		} else {
			o.NotRun++
		}
	}
	return o, ok
}

// TurnedOff says how many tests that ran to a verdict at the base run no
// longer at the head: the head's not-run tests beyond the base's, less
// the tests the head added (a new test marked skip is no old test
// turned off). 0 when none.
func TurnedOff(base, head Outcome) int {
	grown := max(head.Total()-base.Total(), 0)
	return max(head.NotRun-base.NotRun-grown, 0)
}
