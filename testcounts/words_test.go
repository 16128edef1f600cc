package testcounts

import (
	"slices"
	"testing"
)

// TestClaimsInWords (round 19, issue 25): a handoff stating a count in
// words ("forty-two tests pass") after a run that ran 2 got past the
// digit-only rules. Words that count nothing stay no claim.
func TestClaimsInWords(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []int
	}{
		{"forty-two tests pass", "All forty-two tests pass.", []int{42}},
		{"all N words", "all twelve unit tests passed", []int{12}},
		{"a hundred and five", "One hundred and five tests passing", []int{105}},
		{"ran N words", "Ran nine tests, OK", []int{9}},
		{"capitalised, no hyphen", "Forty two tests pass", []int{42}},
		{"words that count nothing", "Everything passes; none of the tests failed, and one more run is left.", nil},
		{"a word count of failures is no pass claim", "three tests fail", nil},
		{"someone's name", "Tested by Mr One: tests pass", nil},
		// found in rjmurillo/ai-agents' session logs, no test counts
		{"in one pass", "Result: all reviewers over both ADRs in one pass.", nil},
		{"passing mutations", "Treated the two passing mutations as a finding", nil},
		{"the first two passes", "The first two passes disagreed with each other", nil},
		{"four passes of a run", "The first run reported four passes because the string never matched", nil},
		{"All four checks PASS", "All four checks PASS (22 refs)", []int{4}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			for _, c := range Claims(tt.text) {
				got = append(got, c.N)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Claims(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}
