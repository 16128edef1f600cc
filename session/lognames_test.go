package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestSessionLogNamedAsTheProtocolSays: the built-in session log check
// (file_exists .agents/sessions/*) wants the name the phase gives
// (YYYY-MM-DD-session-NN.md): a notes.txt, another extension or a file in
// a sub-folder does not pass; the named file does, and a phase naming no
// file keeps the glob.
func TestSessionLogNamedAsTheProtocolSays(t *testing.T) {
	named := "# P\n\n## Session Start\n\n### Phase 1: Session Log (BLOCKING)\n\n1. The agent MUST create a session log file at `.agents/sessions/YYYY-MM-DD-session-NN.md`.\n\n## Session End\n\n### Phase 1: Done (OPTIONAL)\n\n<!-- gate: evidence manual -->\n"
	unnamed := "# P\n\n## Session Start\n\n### Phase 1: Session Log (BLOCKING)\n\n1. The agent MUST create a session log.\n\n## Session End\n\n### Phase 1: Done (OPTIONAL)\n\n<!-- gate: evidence manual -->\n"
	cases := []struct {
		name, protocol, file string
		want                 session.GateStatus
		msg                  string
	}{
		{"notes.txt", named, ".agents/sessions/notes.txt", session.StatusFail, "not named as the protocol names it"},
		{"other extension", named, ".agents/sessions/2026-11-21-session-01.txt", session.StatusFail, "not named as the protocol names it"},
		{"sub-folder", named, ".agents/sessions/old/2026-11-21-session-01.md", session.StatusFail, "not named as the protocol names it"},
		{"the named log", named, ".agents/sessions/2026-11-21-session-01.md", session.StatusPass, "created or changed in this session"},
		{"no name given", unnamed, ".agents/sessions/notes.md", session.StatusPass, "created or changed in this session"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.protocol)
			id := e.start(c.name)
			gittest.Write(t, e.root, c.file, "# Session log\n\nWork on the greeting.\n")
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
