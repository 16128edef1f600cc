package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestAdv4BinaryDiffEditorial: skip_qa is allowed only for an editorial
// documentation change, read from git's diff of each file. A NUL byte in
// the file, or a `-diff` attribute, made git print "Binary files differ"
// and no line: zero lines added and removed read as editorial, so a new
// section skipped QA ("nul", "attribute" failed on the old code). Honest
// twins: a spelling fix in a file git already took for binary before the
// session stays editorial.
func TestAdv4BinaryDiffEditorial(t *testing.T) {
	t.Parallel()
	const plan = "# Plan\n\nWe will shipp the parser first.\n\n## Later\n\nThe dashboard.\n"
	const section = "\n## New section\n\nA whole new paragraph of plans.\n"
	for _, c := range []struct {
		name      string
		before    map[string]string // committed before the session
		edit      map[string]string
		editorial bool
	}{
		{"nul", nil, map[string]string{"PLAN.md": plan + section + "\n<!-- \x00 -->\n"}, false},
		{"attribute", map[string]string{".gitattributes": "*.md -diff\n"}, map[string]string{"PLAN.md": plan + section}, false},
		{"binary attribute", map[string]string{".gitattributes": "PLAN.md binary\n"}, map[string]string{"PLAN.md": plan + section}, false},
		{"honest: spelling fix, nul there before", map[string]string{"PLAN.md": plan + "\n<!-- \x00 -->\n"},
			map[string]string{"PLAN.md": strings.Replace(plan, "shipp", "ship", 1) + "\n<!-- \x00 -->\n"}, true},
		{"honest: spelling fix, attribute there before", map[string]string{".gitattributes": "*.md -diff\n"},
			map[string]string{"PLAN.md": strings.Replace(plan, "shipp", "ship", 1)}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, editorialProtocol)
			e.engine.Config.DocGlobs = []string{"*.md"}
			gittest.Write(t, e.root, "PLAN.md", plan)
			for f, body := range c.before {
				gittest.Write(t, e.root, f, body)
			}
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
			if !c.editorial {
				if err == nil || !strings.Contains(err.Error(), "strictly editorial") {
					t.Fatalf("route gets through: skip_qa allowed for a new section git took for binary (%+v, %v)", res, err)
				}
				return
			}
			if err != nil || res.State != session.StateComplete {
				t.Fatalf("skip_qa refused for an editorial change in a file git takes for binary (a false block): %+v %v", res, err)
			}
		})
	}
}

// TestAdv4BinaryDiffLint: a markdownlint gate that passed fails when the
// session added a comment turning every rule off; with a NUL byte in the
// file or a `-diff` attribute git showed no added line, so the comment
// read as one that was there before ("nul", "attribute" failed on the old
// code). The honest twin: an old comment in a file git takes for binary,
// the file edited, still passes.
func TestAdv4BinaryDiffLint(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		before map[string]string
		work   map[string]string
		want   session.GateStatus
	}{
		{"nul", nil, map[string]string{"doc.md": "<!-- markdownlint-disable -->\n# Doc\n\n<!-- \x00 -->\n"}, session.StatusFail},
		{"attribute", map[string]string{".gitattributes": "*.md -diff\n"}, map[string]string{"doc.md": "<!-- markdownlint-disable -->\n# Doc\n"}, session.StatusFail},
		{"honest: old comment, attribute there before", map[string]string{".gitattributes": "*.md -diff\n", "old.md": "<!-- markdownlint-disable -->\n# Old\n"},
			map[string]string{"old.md": "<!-- markdownlint-disable -->\n# Old\n\nEdited.\n"}, session.StatusPass},
		{"honest: old comment, nul there before", map[string]string{"old.md": "<!-- markdownlint-disable -->\n# Old\n<!-- \x00 -->\n"},
			map[string]string{"old.md": "<!-- markdownlint-disable -->\n# Old\n<!-- \x00 -->\n\nEdited.\n"}, session.StatusPass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, gateProtocol(`<!-- gate: command "sh markdownlint-cli2.sh" -->`))
			gittest.Write(t, e.root, "markdownlint-cli2.sh", "echo 'Summary: 0 error(s)'\n")
			gittest.Write(t, e.root, "doc.md", "# Doc\n")
			for f, body := range c.before {
				gittest.Write(t, e.root, f, body)
			}
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "linter and docs")
			id := e.start(c.name)
			for f, body := range c.work {
				gittest.Write(t, e.root, f, body)
			}
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want {
				t.Fatalf("gate %s (%q), want %s", g.Status, g.Checks[0].Message, c.want)
			}
		})
	}
}
