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
		// Round 18: "N/A" alone says the section does not apply without
		// saying why (none of the team's 576 real logs writes it alone).
		{"N/A alone is a filler", "## Blockers\n\nN/A\n", "Blockers"},
		{"N/A with its reason is an answer", "## Tests\n\nN/A: only docs/ changed.\n", ""},
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
		// Lazy pass 42 (H12): words only in a link's destination.
		{"a link of a dot", "## Done\n\n[.](scripts/greet.sh)\n\n## Next\n\n- [.](README.md \"the README\")\n", "Done"},
		{"a link's text says it", "## Done\n\n[greet takes a name](scripts/greet.sh)\n", ""},
		{"an image keeps its alt text", "## Done\n\n![greet takes a name](x.png)\n", ""},
		{"words in TeX phantoms beside a filler", "## Done\n\n$\\phantom{\\text{greet takes a name}}$\n\nTBD\n", "Done"},
		{"math that shows", "## Done\n\n$O(n)$ lookups for the greeting table\n", ""},
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
		// Round 18 (issue 25, t5): filler a lazy handoff still got through with.
		{"parenthesised TBD", "## Next\n\n(TBD)\n", "Next"},
		{"parenthesised TODO in a list", "## Done\n\n- ( TODO )\n", "Done"},
		{"fullwidth TODO", "## Done\n\nＴＯＤＯ\n", "Done"},
		{"fullwidth TBD after a label", "## Next\n\nNext steps: ＴＢＤ\n", "Next"},
		{"invisible separator", "## Next\n\nT\u2063BD\n", "Next"},
		{"left-to-right mark", "## Next\n\nT\u200eB\u200eD\n", "Next"},
		{"combining grapheme joiner", "## Next\n\nTO\u034fDO\n", "Next"},
		{"Cyrillic lookalikes", "## Next\n\n\u0422\u041eD\u041e\n", "Next"},
		{"mathematical bold", "## Next\n\n𝐓𝐁𝐃\n", "Next"},
		{"coming soon", "## Next\n\nComing soon.\n", "Next"},
		{"to be added", "## Done\n\n- To be added\n", "Done"},
		{"to be determined, bold", "## Next\n\n**To be determined**\n", "Next"},
		{"not applicable", "## Tests\n\nNot applicable.\n", "Tests"},
		{"see above only", "## Next\n\nSee above.\n", "Next"},
		{"same as above", "## Decisions\n\nSame as above\n", "Decisions"},
		{"see above for details", "## Decisions\n\nSee above for details.\n", "Decisions"},
		{"midline ellipsis", "## Next\n\n⋯\n", "Next"},
		// Second pass, playing the lazy agent against the rules above.
		{"dotted TBD", "## Next\n\nT.B.D.\n", "Next"},
		{"spaced tbd", "## Next\n\nt b d\n", "Next"},
		{"filler twice", "## Next\n\nTBD TBD\n", "Next"},
		{"to do", "## Next\n\nTo do\n", "Next"},
		{"later", "## Next\n\nLater.\n", "Next"},
		{"will update later", "## Next\n\nWill update later\n", "Next"},
		{"a dash alone", "## Next\n\n—\n", "Next"},
		{"NA", "## Tests\n\nNA\n", "Tests"},
		{"dotted n.a.", "## Tests\n\nn.a.\n", "Tests"},
		{"see above with an arrow", "## Next\n\nSee above ↑\n", "Next"},
		{"emphasised see above with its stop inside", "## Next\n\n_See above._\n", "Next"},
		{"circled letters", "## Next\n\nⓉⒷⒹ\n", "Next"},
		{"struck-through letters", "## Next\n\nT\u0336B\u0336D\u0336\n", "Next"},
		// Round 19 (issue 25, t8): filler a lazy handoff still got through with.
		{"pending", "## Lint Output\n\nPending.\n", "Lint Output"},
		{"WIP", "## Done\n\n- WIP\n", "Done"},
		{"work in progress", "## Next\n\nWork in progress.\n", "Next"},
		{"TBD will fill", "## Next\n\nTBD (will fill)\n", "Next"},
		{"will fill in later", "## Decisions\n\n_Will fill in later._\n", "Decisions"},
		{"same as before", "## Decisions\n\nSame as before.\n", "Decisions"},
		{"see previous session", "## Done\n\nSee previous session.\n", "Done"},
		{"same as last session", "## Next\n\nSame as the last session\n", "Next"},
		{"as above", "## Decisions\n\nAs above.\n", "Decisions"},
		{"nothing yet under done", "## Work Done\n\nNothing yet.\n", "Work Done"},
		{"no changes under changes made", "## Changes Made\n\n- No changes\n", "Changes Made"},
		{"nothing done under summary", "## Summary\n\nNothing done.\n", "Summary"},
		// Their honest twins.
		{"pending with what it waits for", "## Review\n\nPending: review by @alice on PR 12.\n", ""},
		{"no changes where the section asks about breakage", "## Breaking changes\n\nNo changes.\n", ""},
		{"nothing yet as a blocker", "## Blockers\n\nNothing yet.\n", ""},
		{"no changes with why", "## Changes Made\n\nNo changes: the review found nothing to fix.\n", ""},
		{"None under done", "## Work Done\n\nNone.\n", ""},
		{"N/A with a reason under done", "## Work Done\n\nN/A: research only, see the findings below.\n", ""},
		{"see previous session with what", "## Decisions\n\nSee previous session: we keep the flag off by default.\n", ""},
		// Honest twins.
		{"later as a label with content", "## Next\n\nLater: rename the flag to --name.\n", ""},
		{"later in prose", "## Next\n\nLater sessions should rename the flag.\n", ""},
		{"a name that starts like NA", "## Owner\n\nNadia\n", ""},
		{"None stays an answer", "## Blockers\n\n- None.\n", ""},
		{"see above with what it points at", "## Decisions\n\nSee above: the flag defaults to off.\n", ""},
		{"coming soon as a label with content", "## Next\n\nComing soon: a --name flag for greet.sh.\n", ""},
		{"coming soon in prose", "## Next\n\nThe README says Coming soon under Usage; fill it.\n", ""},
		{"Cyrillic prose", "## Итог\n\nГотово: добавлен флаг.\n", ""},
		{"fullwidth prose", "## Ｎｅｘｔ\n\nＤｏｃｕｍｅｎｔ ｔｈｅ ｆｌａｇ.\n", ""},
		{"Japanese prose", "## 完了\n\nフラグを追加しました。\n", ""},
		{"a table row with N/A", "## Evidence\n\n| step | evidence |\n| --- | --- |\n| tests | N/A |\n", ""},
	} {
		if h, _ := FillerSection(tt.text); h != tt.heading {
			t.Errorf("%s: FillerSection = %q, want %q", tt.name, h, tt.heading)
		}
	}
}
