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
		// Round 17: forms a template hands out.
		{"angle fill in", "## Done\n\n<fill in>\n", "Done"},
		{"bracketed dots", "## Done\n\n[...]\n", "Done"},
		{"bracketed TODO", "## Done\n\n- [TODO]\n", "Done"},
		{"mustache", "## Done\n\n{{ done }}\n", "Done"},
		{"emphasised TODO", "## Done\n\n_TODO_\n", "Done"},
		{"bold TBD", "## Done\n\n**TBD**\n", "Done"},
		{"code TBD", "## Done\n\n`TBD`\n", "Done"},
		{"label TBD", "## Next\n\nNext steps: TBD\n", "Next"},
		{"bold label TBD", "## Commits\n\n- **Commit**: TBD\n- **Status**: _TODO_\n", "Commits"},
		{"an HTML tag is not a filler", "## Details\n\n<details>\n</details>\n", ""},
		{"a label with a value", "## Commits\n\n- **Commit**: TBD\n- **Status**: merged\n", ""},
		{"a label with no value is not a filler", "## Notes\n\nStatus:\n", ""},
		{"workflow expression in YAML prose", "## Env\n\nGH_TOKEN: ${{ secrets.BOT_PAT }}\n", ""},
		{"TBD in prose", "## Next\n\nThe README still says TBD under Usage.\n", ""},
		// Round 17 review (t9): filler that renders as filler.
		{"zero-width space", "## Next\n\nT\u200bBD\n", "Next"},
		{"filler then a comment", "## Next\n\nTBD <!-- done -->\n", "Next"},
		{"blockquoted filler", "## Next\n\n> TBD\n", "Next"},
		{"entity space", "## Next\n\n&nbsp;TBD\n", "Next"},
		{"numeric entity", "## Next\n\n&#84;BD\n", "Next"},
		{"paragraph tag", "## Next\n\n<p>TBD</p>\n", "Next"},
		{"a quote that says something", "## Next\n\n> Document the flag.\n", ""},
		{"a comment beside prose", "## Next\n\nDocument the flag. <!-- later -->\n", ""},
		{"a comment then prose", "## Next\n\n<!-- from the template -->\nDocument the flag.\n", ""},
	} {
		if h, _ := FillerSection(tt.text); h != tt.heading {
			t.Errorf("%s: FillerSection = %q, want %q", tt.name, h, tt.heading)
		}
	}
}
