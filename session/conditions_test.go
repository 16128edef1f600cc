package session_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

const condProtocol = "# P\n\n## Session Start\n\n### Phase 1: Context (BLOCKING)\n\n" +
	"1. If `docs/legacy.md` exists, the agent MUST read `docs/legacy.md`.\n" +
	"2. When the change touches `db/migrations/`, the agent MUST run the migration check.\n" +
	"3. If a session log exists, the agent MUST link it in the handoff.\n" +
	"4. Session logs go to `.agents/sessions/YYYY-MM-DD-session-NN.md`; the agent SHOULD write one.\n" +
	"5. If the serena MCP is not available, the agent MUST read the memory file instead.\n\n" +
	"## Session End\n\n### Phase 1: Done (OPTIONAL)\n\n<!-- gate: evidence manual -->\n"

// TestNotApplicableChecksTheCondition: a not-applicable record is refused
// when its condition is machine-checkable and holds (the file exists, the
// session changed what it names, a session log exists), and accepted when
// it does not hold, or when no machine can tell (a reason is taken). An
// MCP server's presence is checked against .mcp.json and the user config.
func TestNotApplicableChecksTheCondition(t *testing.T) {
	const (
		legacy = "CONTEXT.docs-legacy-md-exists"
		migr   = "CONTEXT.change-touches-db-migrations"
		logReq = "CONTEXT.session-log-exists-link"
		serena = "CONTEXT.serena-mcp-not-available"
	)
	cases := []struct {
		name    string
		files   map[string]string // committed before the session
		work    map[string]string // written during it
		req     string
		refused string
	}{
		{"file exists", map[string]string{"docs/legacy.md": "# Legacy\n"}, nil, legacy, "docs/legacy.md exists"},
		{"file absent", nil, nil, legacy, ""},
		{"change touches it", nil, map[string]string{"db/migrations/001.sql": "create table t (id int);\n"}, migr, "this session changed db/migrations/001.sql"},
		{"change does not touch it", nil, map[string]string{"web/app.js": "x()\n"}, migr, ""},
		{"session log exists", nil, map[string]string{".agents/sessions/2026-11-21-session-01.md": "# Log\n"}, logReq, "exists"},
		{"no session log", nil, nil, logReq, ""},
		// "If the serena MCP is not available": checked against the MCP
		// configs Claude Code reads (issue 25.4).
		{"the MCP server is configured", map[string]string{".mcp.json": `{"mcpServers":{"serena":{"command":"serena"}}}`}, nil, serena, ""},
		{"the MCP server is not configured", nil, nil, serena, "the serena MCP server is not configured"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir()) // no user MCP config
			e := newEnv(t, condProtocol)
			for f, b := range c.files {
				gittest.Write(t, e.root, f, b)
			}
			if len(c.files) > 0 {
				gittest.Git(t, e.root, "add", "-A")
				gittest.Git(t, e.root, "commit", "-q", "-m", "files")
			}
			id := e.start(c.name)
			for f, b := range c.work {
				gittest.Write(t, e.root, f, b)
			}
			_, err := e.engine.RecordEvidence(context.Background(), session.EvidenceRequest{ID: id, Requirement: c.req, NotApplicable: true, Evidence: "the condition does not hold in this session"})
			switch {
			case c.refused == "" && err != nil:
				t.Fatalf("honest not-applicable refused: %v", err)
			case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused) || !errors.Is(err, session.ErrRefused)):
				t.Fatalf("got %v, want a refusal containing %q", err, c.refused)
			}
		})
	}
}
