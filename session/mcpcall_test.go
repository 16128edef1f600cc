package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// mcpProtocol asks for MCP tool calls as the real 2025-12-22 protocol does.
const mcpProtocol = "# Session Protocol\n\n## Session Start\n\n### Phase 1: Orientation (BLOCKING)\n\n" +
	"1. The agent MUST call mcp__serena__activate_project with the project path as the first tool call\n" +
	"2. The agent MUST summarize what it found.\n\n" +
	"## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n1. The agent MUST summarize the session.\n"

const txReqMCP = "ORIENTATION.call-mcp-serena-activate"

// TestTranscriptMCPCall: while Claude Code's transcript is known and the
// tool's server is configured, a requirement that names an MCP tool is met
// only by a call of that tool that did not fail, never by a claim; with
// the server configured nowhere, a claim is refused (mcpclaim.go).
func TestTranscriptMCPCall(t *testing.T) {
	requireGit(t)
	const in = `{"project":"."}`
	yes, no := true, false
	tests := []struct {
		name       string
		configured bool
		bind       bool
		after      string
		status     string
		reason     string
		claimOK    *bool
	}{
		{"no transcript: claims as before", true, false, "", session.ReqOpen, "no evidence", &yes},
		{"the tool was called", true, true, claudeLines("m1", "mcp__serena__activate_project", in, "Activated", false), session.ReqMet, "mcp__serena__activate_project (call m1)", nil},
		{"no call: a claim is refused", true, true, "", session.ReqOpen, "shows no call of mcp__serena__activate_project", &no},
		{"another tool of the server", true, true, claudeLines("m1", "mcp__serena__list_memories", in, "[]", false), session.ReqOpen, "shows no call", &no},
		{"the call failed", true, true, claudeLines("m1", "mcp__serena__activate_project", in, "MCP error -32000: Connection closed", true), session.ReqOpen, "shows no call", &no},
		// Not configured anywhere, the call cannot have been made: the
		// claim is refused too (helper 360, mcpclaim.go).
		{"the server is not configured: the claim is refused", false, true, "", session.ReqOpen, "no evidence", &no},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, mcpProtocol)
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir()) // no user config
			if tt.configured {
				gittest.Write(t, e.root, ".mcp.json", `{"mcpServers":{"serena":{"command":"serena","args":["start-mcp-server"]}}}`)
				gittest.Git(t, e.root, "add", ".mcp.json")
				gittest.Git(t, e.root, "commit", "-q", "-m", "serena")
			}
			id := e.start("mcp")
			path := filepath.Join(t.TempDir(), "projects", "p", "s.jsonl")
			os.MkdirAll(filepath.Dir(path), 0o700)
			if tt.bind {
				if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
					t.Fatal(err)
				}
			}
			appendTo(t, path, tt.after)
			st := e.reqStatus(id, txReqMCP)
			if st.Status != tt.status || !strings.Contains(st.Reason, tt.reason) {
				t.Fatalf("%s %q, want %s with %q", st.Status, st.Reason, tt.status, tt.reason)
			}
			if tt.claimOK == nil {
				return
			}
			err := e.claim(id, txReqMCP, session.EvidenceManual, "I called activate_project and serena is active now")
			if (err == nil) != *tt.claimOK {
				t.Fatalf("manual claim: %v, want accepted %v", err, *tt.claimOK)
			}
		})
	}
}
