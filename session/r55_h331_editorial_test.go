package session_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestR55H331SkipQAEditorialMeaning (helper 331): changes that keep every
// word yet change what the guide says, or swap a word a spelling fix
// apart, pass as "strictly editorial" and skip QA.
func TestR55H331SkipQAEditorialMeaning(t *testing.T) {
	t.Parallel()
	const doc = "# Guide\n\n## Before every release\n\n- Run the tests.\n- Tag the commit.\n\n## Not needed\n\n- Update the wiki.\n\n" +
		"Run the linter and the tests on every push.\n\nThe minimum coverage is set in ci.yml.\n\nCoverage must stay >= 80%.\n"
	for _, c := range []struct{ name, edit string }{
		{"requirement moved to 'Not needed'", strings.Replace(strings.Replace(doc, "- Run the tests.\n", "", 1), "- Update the wiki.\n", "- Update the wiki.\n- Run the tests.\n", 1)},
		{"requirement struck through", strings.Replace(doc, "- Run the tests.\n", "- ~~Run the tests.~~\n", 1)},
		{"and to or", strings.Replace(doc, "linter and the tests", "linter or the tests", 1)},
		{"minimum to maximum", strings.Replace(doc, "minimum", "maximum", 1)},
		{">= to <=", strings.Replace(doc, ">=", "<=", 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := skipQAOnEdit(t, doc, c.edit)
			if err == nil || !strings.Contains(err.Error(), "strictly editorial") {
				t.Errorf("skip_qa allowed (%s): err %v", c.name, err)
			}
		})
	}
}

// TestR55H331SkipQAEditorialHonestRefused (helper 331): honest spelling
// fixes a README gets every day, refused as "not strictly editorial".
func TestR55H331SkipQAEditorialHonestRefused(t *testing.T) {
	t.Parallel()
	const doc = "# Guide\n\nNode 20 is recomended.\n\nRe-run the failed job from the Actions tab.\n\nSend us an e-mail.\n"
	for _, c := range []struct{ name, edit string }{
		{"recomended to recommended", strings.Replace(doc, "recomended", "recommended", 1)},
		{"Re-run to Rerun", strings.Replace(doc, "Re-run", "Rerun", 1)},
		{"e-mail to email", strings.Replace(doc, "e-mail", "email", 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if res, err := skipQAOnEdit(t, doc, c.edit); err != nil || res.State != session.StateComplete {
				t.Errorf("skip_qa refused for a spelling fix (%s): %v", c.name, err)
			}
		})
	}
}
