package testcounts

import (
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// Round 19 (issue 25): counts written in words ("forty-two tests pass",
// "all twelve tests passed") got past the digit-only claim rules. A line's
// number words before a test noun are read as digits before the rules
// run: "forty-two tests" is 42 tests, "one hundred and five" 105.

var numberValues = map[string]int{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
	"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}

const numberWord = `(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)`

// numberRun is a run of number words joined by spaces, hyphens or "and".
var numberRun = lazyregexp.New(`(?i)\b` + numberWord + `(?:(?:\s+|-)(?:and\s+)?` + numberWord + `)*\b`)

// withDigits is line with each run of number words as its number; a run
// that is no number ("one one") is left as written.
func withDigits(line string) string {
	if !strings.ContainsFunc(line, func(r rune) bool { return r == 'e' || r == 'o' || r == 'E' || r == 'O' }) {
		return line
	}
	var b strings.Builder
	at := 0
	for _, ix := range numberRun.FindAllStringIndex(line, -1) {
		// Only a count of tests: "in one pass", "the first two passes",
		// "two passing mutations" count no test (measured on rjmurillo/
		// ai-agents' session logs, where they were most word counts).
		n, ok := wordsValue(line[ix[0]:ix[1]])
		if !ok || !testNoun.MatchString(line[ix[1]:]) {
			continue
		}
		b.WriteString(line[at:ix[0]])
		b.WriteString(strconv.Itoa(n))
		at = ix[1]
	}
	if at == 0 {
		return line
	}
	b.WriteString(line[at:])
	return b.String()
}

// testNoun: what follows a count of tests.
var testNoun = lazyregexp.New(`(?i)^\s+(?:(?:unit|integration|new)\s+)?(?:tests?|checks?|specs?|cases?)\b`)

// wordsValue reads "forty-two", "one hundred and five" (below 1,000).
func wordsValue(run string) (int, bool) {
	total, last := 0, -1 // last: the place of the word before (100, 10, 1)
	for _, w := range strings.FieldsFunc(strings.ToLower(run), func(r rune) bool { return r == ' ' || r == '-' || r == '\t' }) {
		if w == "and" {
			continue
		}
		v := numberValues[w]
		switch {
		case w == "hundred":
			if last != 1 || total >= 10 {
				return 0, false
			}
			total, last = total*100, 100
		case v >= 20:
			if last != -1 && last != 100 || total%100 != 0 {
				return 0, false
			}
			total, last = total+v, 10
		default: // 0-19
			if last == 1 || last == 10 && v >= 10 || last == 10 && v == 0 {
				return 0, false
			}
			total, last = total+v, 1
		}
	}
	return total, last != -1
}
