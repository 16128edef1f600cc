package session_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// readProtocol's Context Retrieval gets the built-in content_hash check of
// .agents/HANDOFF.md.
const readProtocol = "# P\n\n## Session Start\n\n### Phase 1: Context Retrieval (BLOCKING)\n\n1. You MUST read `.agents/HANDOFF.md`.\n\n## Session End\n\n### Phase 1: Done (OPTIONAL)\n\n<!-- gate: evidence manual -->\n"

const handoffBody = "# Handoff\n\n## Next\n\n- Add a name argument.\n"

// TestObservedReadMeetsContentHash: an observed `cat .agents/HANDOFF.md`
// whose output is the file meets the content_hash gate (an honest read was
// blocked: only a claimed hash did); a read whose output the agent never
// saw, a piped one, one of another file, or one of an older version does not.
func TestObservedReadMeetsContentHash(t *testing.T) {
	cases := []struct {
		name   string
		cmd    string
		output string
		exit   int
		after  func(root string) // after the read
		want   session.GateStatus
		msg    string
	}{
		{"cat through sessiongate run", "cat .agents/HANDOFF.md", handoffBody, 0, nil, session.StatusPass, "read .agents/HANDOFF.md as it is now"},
		{"agent shell trims the newline", "cat .agents/HANDOFF.md", strings.TrimRight(handoffBody, "\n"), 0, nil, session.StatusPass, "read .agents/HANDOFF.md"},
		{"cat ./path", "cat ./.agents/HANDOFF.md", handoffBody, 0, nil, session.StatusPass, "read .agents/HANDOFF.md"},
		// sessiongate run from src/ records `cd src && COMMAND` (round 56, helper 334).
		{"run from a subfolder", "cd src && cat ../.agents/HANDOFF.md", handoffBody, 0, nil, session.StatusPass, "read .agents/HANDOFF.md"},
		{"run from a subfolder, another file", "cd src && cat .agents/HANDOFF.md", handoffBody, 0, nil, session.StatusFail, "no content_hash evidence"},
		{"cd out of the work tree", "cd .. && cat .agents/HANDOFF.md", handoffBody, 0, nil, session.StatusFail, "no content_hash evidence"},
		{"cd then a pipe", "cd src && cat ../.agents/HANDOFF.md | head -1", "# Handoff\n", 0, nil, session.StatusFail, "no content_hash evidence"},
		{"output to /dev/null", "cat .agents/HANDOFF.md > /dev/null", "", 0, nil, session.StatusFail, "no content_hash evidence"},
		{"piped to head", "cat .agents/HANDOFF.md | head -1", "# Handoff\n", 0, nil, session.StatusFail, "no content_hash evidence"},
		{"another file", "cat README.md", handoffBody, 0, nil, session.StatusFail, "no content_hash evidence"},
		// Braces: the words the shell runs (an honest read was refused before).
		{"cat with braces", "cat .agents/{HANDOFF.md,}", handoffBody, 0, nil, session.StatusPass, "read .agents/HANDOFF.md"},
		{"cat of another file with braces", "cat {README,HANDOFF}.md", handoffBody, 0, nil, session.StatusFail, "no content_hash evidence"},
		{"failed", "cat .agents/HANDOFF.md", handoffBody, 1, nil, session.StatusFail, "no content_hash evidence"},
		{"file changed after the read", "cat .agents/HANDOFF.md", handoffBody, 0, func(root string) {
			gittest.Write(t, root, ".agents/HANDOFF.md", handoffBody+"- More.\n")
		}, session.StatusFail, "no content_hash evidence"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, readProtocol)
			gittest.Write(t, e.root, ".agents/HANDOFF.md", handoffBody)
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "handoff")
			id := e.start(c.name)
			if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: "claude", Command: c.cmd, ExitCode: c.exit, Output: []byte(c.output), Dir: filepath.Join(e.root)}); err != nil {
				t.Fatal(err)
			}
			if c.after != nil {
				c.after(e.root)
			}
			g, err := e.engine.ValidateGate(ctx, id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want || !strings.Contains(g.Checks[0].Message, c.msg) {
				t.Fatalf("gate %s %q, want %s containing %q", g.Status, g.Checks[0].Message, c.want, c.msg)
			}
		})
	}
}
