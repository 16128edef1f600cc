package protect

import (
	"slices"
	"testing"
)

// TestPathsMemo: Paths keeps its last answer, and that answer is the one
// computed afresh for each input in turn, whatever a caller did to the
// slice it was given.
func TestPathsMemo(t *testing.T) {
	cases := []struct {
		protocol, configured string
		extra                []string
	}{
		{"", "", nil},
		{"", "", nil},
		{"docs/P.md", "", nil},
		{"", "x/PROTOCOL.md", []string{"ci/**"}},
		{"", "x/PROTOCOL.md", []string{"ci/**"}},
		{"", "x/PROTOCOL.md", []string{"ci/**", "a.yaml"}},
		{"", "", nil},
	}
	for i, c := range cases {
		got := Paths(c.protocol, c.configured, c.extra)
		if want := paths(c.protocol, c.configured, c.extra); !slices.Equal(got, want) {
			t.Errorf("case %d: Paths = %q, want %q", i, got, want)
		}
		got[0] = "scribbled"
		_ = append(got[:1], "more")
	}
}
