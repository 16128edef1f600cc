package claimtext

import (
	"strings"
	"testing"
)

// TestR62H356Sections: a handoff's sections by what they report. A
// heading of the agent's own making that reports the session's state
// ("Status", "Verdict", "Deliverables") is Status, where a claim is read
// (helper 349's open F7: a claim under "## Status" went unread); a heading
// of the repository's state ("Git Status", "Current state") is not, and
// what is next is Ahead, what was asked or came before Given.
func TestR62H356Sections(t *testing.T) {
	for _, tc := range []struct {
		heading string
		want    Kind
	}{
		{"Status", Status},
		{"Implementation Status", Status},
		{"Status: complete", Status},
		{"Verdict", Status},
		{"Deliverables", Status},
		{"TL;DR", Status},
		{"Wrap-up", Status},
		{"Done", Done},
		{"Outcome", Done},
		{"Final Git Status", Other},
		{"Current state", Other},
		{"Context", Other},
		{"Notes", Other},
		{"Next steps", Ahead},
		{"Blockers", Ahead},
		{"Open questions", Ahead},
		{"Acceptance criteria", Given},
		{"Previous session", Given},
		{"Notes for Next Session", Ahead},
		{"Objective", Given},
	} {
		if got := HeadingKind(tc.heading); got != tc.want {
			t.Errorf("HeadingKind(%q) = %d, want %d", tc.heading, got, tc.want)
		}
	}
	secs := Sections("# Implemented it\n\nIntro.\n\n## Status\n\nA.\n\n### Name argument\n\nB.\n\n## Notes\n\n### Next\n\nC.\n\n```\n## Status\nD.\n```\n")
	var got []string
	for _, s := range secs {
		got = append(got, s.Heading+"|"+strings.Join(strings.Fields(s.Body), " "))
	}
	want := []string{"|", "|Implemented it Intro.", "Status|A. Name argument B.", "Notes|", "Next|C."}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Sections:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if secs[2].Kind != Status || secs[4].Kind != Ahead {
		t.Errorf("kinds: %+v", secs)
	}
}
