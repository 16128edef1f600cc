package session_test

import (
	"strings"
	"testing"
)

// TestR55H332SkipQAEditorial (helper 332), through skipQAOnEdit:
//   - refused: a guide's requirement made historical (is to was), a
//     spelled-out threshold cut tenfold (sixty to six), a size limit's
//     spaced unit changed (KiB to MiB), an RFC MUST lowered to prose, and
//     helper 331's moved requirement ("Before every release" to "Not
//     needed") with the moved line tweaked (full stop dropped, emphasis,
//     a typo), which the first cut paired with itself across hunks;
//   - skipped: a list marker + changed to -, formatting. Re-wrapping a
//     paragraph is refused still ("gained or lost lines"): open, QA then
//     runs (docs/security.md, "Round 55").
func TestR55H332SkipQAEditorial(t *testing.T) {
	t.Parallel()
	const meaning = "# Guide\n\nRunning the full suite is required before every release.\n\nCoverage must stay above sixty percent.\n\n" +
		"The bundle must stay under 500 KiB.\n\nEvery change MUST pass the integration tests.\n"
	const moved = "# Guide\n\n## Before every release\n\n- Run the tests.\n- Tag the commit.\n\n## Not needed\n\n- Update the wiki.\n"
	move := func(to string) string {
		return strings.Replace(strings.Replace(moved, "- Run the tests.\n", "", 1), "- Update the wiki.\n", "- Update the wiki.\n"+to+"\n", 1)
	}
	const list = "# Guide\n\n+ one\n+ two\n"
	for _, c := range []struct {
		name, doc, edit string
		editorial       bool
	}{
		{"is to was", meaning, strings.Replace(meaning, "suite is required", "suite was required", 1), false},
		{"sixty to six", meaning, strings.Replace(meaning, "sixty", "six", 1), false},
		{"KiB to MiB", meaning, strings.Replace(meaning, "500 KiB", "500 MiB", 1), false},
		{"MUST to must", meaning, strings.Replace(meaning, "MUST pass", "must pass", 1), false},
		{"moved, full stop dropped", moved, move("- Run the tests"), false},
		{"moved, emphasis added", moved, move("- *Run the tests.*"), false},
		{"moved, spelling", moved, move("- Run teh tests."), false},
		{"honest: + to -", list, strings.ReplaceAll(list, "+ ", "- "), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := skipQAOnEdit(t, c.doc, c.edit)
			switch {
			case c.editorial && err != nil:
				t.Errorf("skip_qa refused for formatting (%s): %v", c.name, err)
			case !c.editorial && (err == nil || !strings.Contains(err.Error(), "strictly editorial")):
				t.Errorf("skip_qa allowed (%s): err %v", c.name, err)
			}
		})
	}
}
