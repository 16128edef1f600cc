package inferredcheck

import "testing"

// TestR62H358SummaryClaim: the end summary of a session that changed no
// file, read for a claim of the work; honest answers, blocks and findings
// pass.
func TestR62H358SummaryClaim(t *testing.T) {
	for _, tt := range []struct {
		summary, objective string
		claim              bool
	}{
		{"Yes: I implemented the name argument in greet.sh.", "Can greet.sh take a name?", true},
		{"I implemented the name argument in greet.sh.", "Can greet.sh take a name?", true},
		{"Implemented the name argument in greet.sh.", "Add a name argument to greet.sh", true},
		{"Added the install section to the README.", "Add an install section to the README", true},
		{"Fixed the readme check.", "Why does the readme check pass on an empty README?", true},
		{"No: greet.sh ignores its arguments; it always prints hello. No change made.", "Can greet.sh take a name?", false},
		{"Yes: greet.sh reads its first argument as the name.", "Can greet.sh take a name?", false},
		{"The check tests only that SESSION-PROTOCOL.md exists; it never reads the README. No change made.", "Why does the readme check pass on an empty README?", false},
		{"Did not add the section: blocked on the install steps, which nobody has written down.", "Add an install section to the README", false},
		{"Looked at the README; the section needs the release process first.", "Add an install section to the README", false},
	} {
		if got := SummaryClaim(tt.summary, tt.objective, nil); (got != "") != tt.claim {
			t.Errorf("SummaryClaim(%q) = %q, want a claim: %v", tt.summary, got, tt.claim)
		}
	}
}
