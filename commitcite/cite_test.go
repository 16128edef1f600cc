package commitcite

import (
	"reflect"
	"testing"
)

// TestFind: ids after a commit word are cited, as claims after the words
// that say "this was committed", as context otherwise; hex words, numbers,
// paths and ids with no commit word are not.
func TestFind(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []Cite
	}{
		{"committed", "Committed abc1234 (feat: greet).", []Cite{{"abc1234", 1, true}}},
		{"committed as", "- Changes committed as `9f3e2d1c`", []Cite{{"9f3e2d1c", 1, true}}},
		{"commit sha table cell", "| Commit all changes | [x] | Commit SHA: 621926d |", []Cite{{"621926d", 1, true}}},
		{"json ending commit", "  \"endingCommit\": \"25c80d4d\",", []Cite{{"25c80d4d", 1, true}}},
		{"bare commit is context", "Builds on commit 3f9a2c1d from the last session.", []Cite{{"3f9a2c1d", 1, false}}},
		{"reverts", "Reverts 3f9a2c1d.", []Cite{{"3f9a2c1d", 1, false}}},
		{"second line", "# Handoff\n\ncommitted deadbee1", []Cite{{"deadbee1", 3, true}}},
		{"no commit word", "The hash abc1234 of the file.", nil},
		{"a hex word", "committed defaced", nil},
		{"a number", "committed 12345678", nil},
		{"a path", "committed src/abc1234/x.go", nil},
		{"a url word", "see https://x.test/commit/abc1234def", nil},
	} {
		if got := Find(tt.text); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Find = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
