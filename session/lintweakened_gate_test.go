package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestLintGateUnderWeakenedRules: a markdownlint-cli2 gate that passes
// fails when the session changed the linter's configuration or added a
// comment turning every rule off; a comment that was there before the
// session, or one that names its rules, leaves the pass alone. The linter
// here is a script named like it (the check is about what the session
// changed, not the linter's output); bench/compliance runs the real one.
func TestLintGateUnderWeakenedRules(t *testing.T) {
	cases := []struct {
		name string
		work func(root string)
		want session.GateStatus
		msg  string
	}{
		{"clean edit", func(root string) { gittest.Write(t, root, "doc.md", "# Doc\n\nMore.\n") }, session.StatusPass, "command passed"},
		{"config changed", func(root string) { gittest.Write(t, root, ".markdownlint-cli2.yaml", "config:\n  default: false\n") }, session.StatusFail, "configuration .markdownlint-cli2.yaml changed"},
		{"comment added", func(root string) {
			gittest.Write(t, root, "new.md", "<!-- markdownlint-disable -->\n# New\n")
		}, session.StatusFail, "new.md:1 turns every markdownlint rule off"},
		{"comment naming its rule", func(root string) {
			gittest.Write(t, root, "new.md", "<!-- markdownlint-disable MD033 -->\n# New\n")
		}, session.StatusPass, "command passed"},
		{"old comment, file edited", func(root string) {
			gittest.Write(t, root, "old.md", "<!-- markdownlint-disable -->\n# Old\n\nEdited.\n")
		}, session.StatusPass, "command passed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, gateProtocol(`<!-- gate: command "sh markdownlint-cli2.sh" -->`))
			gittest.Write(t, e.root, "markdownlint-cli2.sh", "echo 'Summary: 0 error(s)'\n")
			gittest.Write(t, e.root, "old.md", "<!-- markdownlint-disable -->\n# Old\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "linter and an old file")
			id := e.start(c.name)
			c.work(e.root)
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want || !strings.Contains(g.Checks[0].Message, c.msg) {
				t.Fatalf("gate %s %q, want %s containing %q", g.Status, g.Checks[0].Message, c.want, c.msg)
			}
		})
	}
}
