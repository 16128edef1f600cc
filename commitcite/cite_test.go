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
		{"committed", "Committed abc1234 (feat: greet).", []Cite{{"abc1234", 1, true, false}}},
		{"committed as", "- Changes committed as `9f3e2d1c`", []Cite{{"9f3e2d1c", 1, true, false}}},
		{"commit sha table cell", "| Commit all changes | [x] | Commit SHA: 621926d |", []Cite{{"621926d", 1, true, false}}},
		{"json ending commit", "  \"endingCommit\": \"25c80d4d\",", []Cite{{"25c80d4d", 1, true, false}}},
		{"bare commit is context", "Builds on commit 3f9a2c1d from the last session.", []Cite{{"3f9a2c1d", 1, false, false}}},
		{"reverts", "Reverts 3f9a2c1d.", []Cite{{"3f9a2c1d", 1, false, false}}},
		{"second line", "# Handoff\n\ncommitted deadbee1", []Cite{{"deadbee1", 3, true, false}}},
		{"no commit word", "The hash abc1234 of the file.", nil},
		{"a hex word", "committed defaced", nil},
		{"digits only: asked of the repository", "committed 12345678", []Cite{{"12345678", 1, true, true}}},
		{"digits only, context", "see commit 3962177", []Cite{{"3962177", 1, false, true}}},
		{"an issue number", "committed the fix for #1234567", nil},
		{"a short number", "committed 3 files, 120 lines", nil},
		{"a path", "committed src/abc1234/x.go", nil},
		{"a url word", "see https://x.test/commit/abc1234def", nil},
	} {
		if got := Find(tt.text); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Find = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
