package inferredcheck

import "testing"

// TestR62H358InquiryImperative: an objective that asks a question and
// then commands a change is no inquiry (round 62 lets an inquiry that
// changed nothing end with no commit: "Why is CI red? Get it green." ended
// COMPLETE, clean, with no work and the handoff "CI is green now."). The
// same verbs inside a question still ask.
func TestR62H358InquiryImperative(t *testing.T) {
	for _, tt := range []struct {
		objective string
		inquiry   bool
	}{
		{"Why is CI red? Get it green.", false},
		{"Why do the tests fail? Get them passing again.", false},
		{"Resolve the merge conflicts, then check CI", false},
		{"Investigate the slow build and optimize it", false},
		{"Look into the flaky test. Please repair it.", false},
		{"Why is CI red?", true},
		{"How can I speed up the build?", true},
		{"Why did the deploy fail?", true},
		{"Should we revert the retry logic?", true},
		{"How does greet.sh handle names? Does it support unicode?", true},
		{"Investigate why the release build is slow", true},
	} {
		if got := Inquiry(tt.objective); got != tt.inquiry {
			t.Errorf("Inquiry(%q) = %v, want %v", tt.objective, got, tt.inquiry)
		}
	}
}
