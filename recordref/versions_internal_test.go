package recordref

import (
	"slices"
	"testing"
)

// TestRawBlobs: the one parser of the version listings RecordTimes and
// PinHistory read (they each had a copy): each new blob once, first listed
// first; deletions and lines that are not --raw lines are no version.
func TestRawBlobs(t *testing.T) {
	const a, b, z = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "0000000000000000000000000000000000000000"
	for _, c := range []struct {
		name, out string
		want      []string
	}{
		{"empty", "", nil},
		{"added then modified", ":000000 100644 " + z + " " + a + " A\tp.json\n\n:100644 100644 " + a + " " + b + " M\tp.json\n", []string{a, b}},
		{"a version written twice shows once", ":000000 100644 " + z + " " + a + " A\tp.json\n:100644 100644 " + b + " " + a + " M\tp.json\n", []string{a}},
		{"a deletion is no version", ":100644 000000 " + a + " " + z + " D\tp.json\n", nil},
		{"no tab: not a raw line", ":000000 100644 " + z + " " + a + " A p.json\n", nil},
		{"wrong field count", ":100644 " + a + " M\tp.json\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := rawBlobs(c.out); !slices.Equal(got, c.want) {
				t.Errorf("rawBlobs = %q, want %q", got, c.want)
			}
		})
	}
}
