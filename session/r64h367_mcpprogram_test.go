package session_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR64H367MCPServerProgramChanged: a call of an MCP server is evidence
// only from the server a person configured. The program a repository
// config starts rewritten by this session, or by an earlier agent
// session's unmerged commit, or the server defined (or changed) in a
// user-level config after the session started, answers calls the agent
// chose: a transcript of successful mcp__serena__* calls from it proves
// nothing (helper 364's open row).
func TestR64H367MCPServerProgramChanged(t *testing.T) {
	requireGit(t)
	const in = `{"project":"."}`
	const scriptCfg = `{"mcpServers":{"serena":{"command":"python3","args":["tools/serena_server.py","start-mcp-server"]}}}`
	const uvxCfg = `{"mcpServers":{"serena":{"command":"uvx","args":["--from","git+https://github.com/oraios/serena","serena","start-mcp-server"]}}}`
	userDef := func(cmd string) string {
		return `{"mcpServers":{"serena":{"type":"stdio","command":"` + cmd + `","args":["fake.py"],"env":{}}}}`
	}
	tests := []struct {
		name    string
		config  string // .mcp.json, committed by a person ("" none)
		before  func(t *testing.T, root, claudeDir string)
		after   func(t *testing.T, root, claudeDir string)
		branch  bool // the session starts on a feature branch
		wantMet bool
	}{
		{name: "honest: a person's work-tree server", config: scriptCfg, wantMet: true},
		{name: "honest: uvx serena", config: uvxCfg, wantMet: true},
		{name: "honest: another work-tree file changed", config: scriptCfg, wantMet: true,
			after: func(t *testing.T, root, _ string) { gittest.Write(t, root, "src/greet.py", "print('hi')\n") }},
		{name: "honest: a person's claude mcp add --scope user before the session", wantMet: true,
			before: func(t *testing.T, _, dir string) { gittest.Write(t, dir, ".claude.json", userDef("python3")) }},
		{name: "lazy: the server's script rewritten in the session", config: scriptCfg,
			after: func(t *testing.T, root, _ string) {
				gittest.Write(t, root, "tools/serena_server.py", "# answers every call with success\n")
			}},
		{name: "lazy: the server's script rewritten and committed in the session", config: scriptCfg,
			after: func(t *testing.T, root, _ string) {
				gittest.Write(t, root, "tools/serena_server.py", "# answers every call with success\n")
				gittest.Git(t, root, "commit", "-qam", "tools")
			}},
		{name: "lazy: the script rewritten by an earlier agent session's commit", config: scriptCfg, branch: true,
			before: func(t *testing.T, root, _ string) {
				gittest.Write(t, root, "tools/serena_server.py", "# answers every call with success\n")
				gittest.Git(t, root, "commit", "-qam", "tools", "-m", "Session-Id: 11111111-1111-4111-8111-111111111111")
			}},
		{name: "lazy: claude mcp add --scope user during the session",
			after: func(t *testing.T, _, dir string) { gittest.Write(t, dir, ".claude.json", userDef("python3")) }},
		{name: "lazy: a person's user-level definition changed during the session",
			before: func(t *testing.T, _, dir string) { gittest.Write(t, dir, ".claude.json", userDef("serena")) },
			after:  func(t *testing.T, _, dir string) { gittest.Write(t, dir, ".claude.json", userDef("python3")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, mcpProtocol)
			ctx := context.Background()
			claudeDir := t.TempDir()
			t.Setenv("CLAUDE_CONFIG_DIR", claudeDir)
			t.Setenv("HOME", t.TempDir())
			if tt.config != "" {
				gittest.Write(t, e.root, ".mcp.json", tt.config)
				gittest.Write(t, e.root, "tools/serena_server.py", "# the team's serena launcher\n")
				gittest.Git(t, e.root, "add", "-A")
				gittest.Git(t, e.root, "commit", "-q", "-m", "serena")
			}
			if tt.branch {
				gittest.Git(t, e.root, "switch", "-q", "-c", "feat/x")
			}
			if tt.before != nil {
				tt.before(t, e.root, claudeDir)
			}
			id := e.start("mcp")
			path := filepath.Join(t.TempDir(), "projects", "p", "s.jsonl")
			os.MkdirAll(filepath.Dir(path), 0o700)
			if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
				t.Fatal(err)
			}
			if tt.after != nil {
				tt.after(t, e.root, claudeDir)
			}
			appendTo(t, path, claudeLines("m1", "mcp__serena__activate_project", in, "Activated project", false))
			st := e.reqStatus(id, txReqMCP)
			if got := st.Status == session.ReqMet; got != tt.wantMet {
				t.Fatalf("met %v (%s %q), want %v", got, st.Status, st.Reason, tt.wantMet)
			}
		})
	}
}
