package inferredcheck

import "testing"

// TestR62H359InquiryWithChangeNouns: an objective that asks a question
// and names a change only as a noun ("whether the fix in #41 stopped the
// flake", "why make fails") is an inquiry, which owes no commit when it
// changed nothing (helper 359: such an honest research session was
// blocked at GIT_OPERATIONS, "no commit since the session started"). An
// objective that asks for the change, in any clause or as a polite
// question, is still none.
func TestR62H359InquiryWithChangeNouns(t *testing.T) {
	for _, tc := range []struct {
		objective string
		inquiry   bool
	}{
		// Honest inquiries.
		{"Investigate whether the fix in #41 stopped the flaky readme check", true},
		{"Find out why make fails on a clean checkout", true},
		{"Check if the latest update broke the build", true},
		{"Investigate whether to add a name argument", true},
		{"Why does the readme check pass on an empty README?", true},
		// Asked for a change: no inquiry.
		{"Investigate why greet fails and fix it", false},
		{"Find out why greet fails, then fix it", false},
		{"Investigate the flake; if it is real, fix it", false},
		{"Can you add a name argument to the greeting script?", false},
		{"Add a name argument and check that the tests pass", false},
		{"Please fix the flaky readme check", false},
		{"Does greet take a name? If not, add one.", false},
	} {
		if got := Inquiry(tc.objective); got != tc.inquiry {
			t.Errorf("Inquiry(%q) = %v, want %v", tc.objective, got, tc.inquiry)
		}
	}
}
