package claimtext

import "testing"

// TestFillerSection: a section holding only filler words is a placeholder
// left; answers ("None") and prose that names a TODO are not.
func TestFillerSection(t *testing.T) {
	for _, tt := range []struct {
		name, text, heading string
	}{
		{"TODO and TBD", "# Handoff\n\n## Done\n\nTODO\n\n## Next\n\nTBD\n", "Done"},
		{"filler list items", "# Handoff\n\n## Done\n\n- x greet takes a name\n\n## Next\n\n- TODO\n- ...\n", "Next"},
		{"dots", "## Done\n\n...\n", "Done"},
		{"fill in", "## Done\n\nFill in.\n", "Done"},
		{"filled", "# Handoff\n\n## Done\n\nscripts/greet.sh takes a name.\n\n## Next\n\nDocument it.\n", ""},
		{"None is an answer", "## Done\n\nAdded the flag.\n\n## Blockers\n\nNone.\n", ""},
		{"N/A is an answer", "## Blockers\n\nN/A\n", ""},
		{"a TODO in prose", "## Next\n\nRemove the TODO in greet.sh.\n", ""},
		{"filler and prose", "## Next\n\nTODO\n\nDocument the flag.\n", ""},
		{"empty section", "## Done\n\n## Next\n\nDocument it.\n", ""},
		{"filler in a code block", "## Output\n\n```\nTODO\n```\n", ""},
		{"title only", "# TODO\n", ""},
	} {
		if h, _ := FillerSection(tt.text); h != tt.heading {
			t.Errorf("%s: FillerSection = %q, want %q", tt.name, h, tt.heading)
		}
	}
}
