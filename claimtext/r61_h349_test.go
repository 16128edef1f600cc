package claimtext

import (
	"strings"
	"testing"
)

// TestR61H349DoneSections: a subsection of Done is Done: a claim under
// "### Name argument" inside Done went unread, and a session that changed
// nothing ended COMPLETE, clean, verify OK (helper 349).
// Next stays out, and a sibling section after Done ends it.
func TestR61H349DoneSections(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		in, out    []string
	}{
		{"a subsection of Done", "# Handoff\n\n## Done\n\n### Name argument\n\nThe greeting takes a name.\n\n## Next\n\nDocs.\n", []string{"The greeting takes a name."}, []string{"Docs."}},
		{"Done at level three, a sibling after it", "# Handoff\n\n### Done\n\nA.\n\n### Next\n\nB.\n", []string{"A."}, []string{"B."}},
	} {
		bodies, _ := DoneSections(tc.text)
		all := strings.Join(bodies, "\n")
		for _, s := range tc.in {
			if !strings.Contains(all, s) {
				t.Errorf("%s: %q not read as done: %q", tc.name, s, bodies)
			}
		}
		for _, s := range tc.out {
			if strings.Contains(all, s) {
				t.Errorf("%s: %q read as done: %q", tc.name, s, bodies)
			}
		}
	}
}
