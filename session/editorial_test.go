package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

const editorialProtocol = "# P\n\n## Session Start\n\n### Phase 1: Begin (OPTIONAL)\n\nLook around.\n\n" +
	"## Session End\n\n### Phase 1: QA Validation (BLOCKING)\n\n<!-- gate: command \"false\" -->\n\n" +
	"1. The agent MUST run the tests.\n2. The agent MAY skip QA validation only when all modified files are documentation files, and changes are strictly editorial (spelling, grammar, or formatting).\n" +
	"3. The agent MUST write its notes to `.serena/memories/` before it ends.\n\n" +
	"### Phase 2: Commit (REQUIRED)\n\n<!-- gate: commit_since_start -->\n\n1. The agent MUST commit.\n"

// TestSkipQAOnlyForEditorialChanges: where the protocol limits skipping QA
// to strictly editorial documentation changes, a line-for-line fix passes,
// and new content, new files, headings and code fences do not. The
// protocol's own working folders (named in its text) are not reviewed.
func TestSkipQAOnlyForEditorialChanges(t *testing.T) {
	const plan = "# Plan\n\nWe will shipp the parser first.\n\n```sh\ngo test ./...\n```\n\n## Later\n\nThe dashboard.\n"
	for _, c := range []struct {
		name  string
		edit  map[string]string
		allow string // "" means refused
	}{
		{"spelling fix", map[string]string{"PLAN.md": strings.Replace(plan, "shipp", "ship", 1)}, "editorial"},
		{"spelling fix and the protocol's notes", map[string]string{"PLAN.md": strings.Replace(plan, "shipp", "ship", 1), ".serena/memories/notes.md": "# Notes\n\nNew things.\n"}, "editorial"},
		{"new paragraph", map[string]string{"PLAN.md": plan + "\nA whole new paragraph of plans.\n"}, ""},
		{"new section", map[string]string{"PLAN.md": strings.Replace(plan, "## Later", "## Soon", 1)}, ""},
		{"code block changed", map[string]string{"PLAN.md": strings.Replace(plan, "go test ./...", "go test -race ./...", 1)}, ""},
		{"fence changed", map[string]string{"PLAN.md": strings.Replace(plan, "```sh", "```bash", 1)}, ""},
		{"new documentation file", map[string]string{"GUIDE.md": "# Guide\n\nHow to use it.\n"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, editorialProtocol)
			e.engine.Config.DocGlobs = []string{"*.md"}
			gittest.Write(t, e.root, "PLAN.md", plan)
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "plan")
			id := e.start(c.name)
			if res, err := e.engine.Advance(context.Background(), session.AdvanceRequest{ID: id, Target: "WORKING"}); err != nil || res.State != session.StateWorking {
				t.Fatalf("to WORKING: %+v %v", res, err)
			}
			for f, body := range c.edit {
				gittest.Write(t, e.root, f, body)
			}
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "docs")
			res, err := e.engine.End(context.Background(), session.EndRequest{ID: id, Summary: "docs", SkipQA: true})
			if c.allow == "" {
				if err == nil || !strings.Contains(err.Error(), "strictly editorial") {
					t.Fatalf("skip_qa allowed (%+v, %v)", res, err)
				}
				return
			}
			if err != nil || res.State != session.StateComplete {
				t.Fatalf("skip_qa refused for an editorial change: %+v %v", res, err)
			}
		})
	}
}
