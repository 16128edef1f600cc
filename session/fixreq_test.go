package session

import "testing"

// TestFixReqRE: requirements to fix what checks report are answered by a
// passing run (their not-applicable refusal says so); other requirements
// keep the general refusal.
func TestFixReqRE(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"Fix what the checks report before you commit.", true},
		{"The agent MUST fix failing tests before committing.", false}, // not at the start: the general refusal
		{"Fix any failing tests.", true},
		{"Fix lint warnings in the changed files.", true},
		{"Run checks that cover the changed behavior.", false},
		{"Fix the bug the issue describes.", false},
		{"Do not disable or skip failing tests.", false},
	} {
		if got := fixReqRE().MatchString(tt.text); got != tt.want {
			t.Errorf("%q: %v, want %v", tt.text, got, tt.want)
		}
	}
}
