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

const (
	h360Activate = "SERENA_INITIALIZATION.call-mcp-serena-activate"
	h360Initial  = "SERENA_INITIALIZATION.call-mcp-serena-initial"
)

// TestR62H360MCPClaimWithoutServer: under the real 2025-12-18 protocol, a
// typed claim of a call of mcp__serena__* is refused when no config an
// agent reads configures serena (helper 357's MEDIUM row); each config an
// honest team may keep it in lets the claim through, and the refusal names
// the configs read and what to do.
func TestR62H360MCPClaimWithoutServer(t *testing.T) {
	requireGit(t)
	proto := realProtocol(t, protoV1)
	const serena = `"serena":{"command":"serena","args":["start-mcp-server"]}`
	tests := []struct {
		name      string
		commit    map[string]string // committed before the session
		userStart map[string]string // user-level files (under HOME) before the session starts
		userAfter map[string]string // written after the start
		elsewhere []string
		kind      string
		ok        bool
		want      []string // in the refusal
	}{
		{name: "nothing configured: tool_output refused", kind: session.EvidenceToolOutput,
			want: []string{"no MCP config an agent reads configures the serena server", ".mcp.json", ".gemini/settings.json", ".vscode/mcp.json", ".codex/config.toml", ".claude.json", "mcp_servers_elsewhere", "--not-applicable"}},
		{name: "nothing configured: manual refused", kind: session.EvidenceManual, want: []string{"cannot have been made"}},
		{name: "another server only", kind: session.EvidenceToolOutput, commit: map[string]string{".mcp.json": `{"mcpServers":{"github":{}}}`}, want: []string{"serena server"}},
		{name: ".mcp.json", kind: session.EvidenceToolOutput, ok: true, commit: map[string]string{".mcp.json": "{\"mcpServers\":{" + serena + "}}"}},
		{name: ".gemini/settings.json with a comment", kind: session.EvidenceToolOutput, ok: true,
			commit: map[string]string{".gemini/settings.json": "// team settings\n{\"mcpServers\":{" + serena + ",}}"}},
		{name: ".cursor/mcp.json", kind: session.EvidenceManual, ok: true, commit: map[string]string{".cursor/mcp.json": "{\"mcpServers\":{" + serena + "}}"}},
		{name: ".vscode/mcp.json servers", kind: session.EvidenceToolOutput, ok: true, commit: map[string]string{".vscode/mcp.json": "{\"servers\":{" + serena + "}}"}},
		{name: ".vscode/mcp.json under mcpServers is not VS Code's key", kind: session.EvidenceToolOutput, commit: map[string]string{".vscode/mcp.json": "{\"mcpServers\":{" + serena + "}}"}, want: []string{"serena server"}},
		{name: ".codex/config.toml", kind: session.EvidenceToolOutput, ok: true, commit: map[string]string{".codex/config.toml": "[mcp_servers.serena]\ncommand = \"serena\"\n"}},
		{name: "Claude Code's user config at the start", kind: session.EvidenceToolOutput, ok: true, userStart: map[string]string{"claude/.claude.json": "{\"mcpServers\":{" + serena + "}}"}},
		{name: "Gemini CLI's user config at the start", kind: session.EvidenceToolOutput, ok: true, userStart: map[string]string{".gemini/settings.json": "{\"mcpServers\":{" + serena + "}}"}},
		{name: "Codex's user config at the start", kind: session.EvidenceToolOutput, ok: true, userStart: map[string]string{".codex/config.toml": "[mcp_servers.serena]\ncommand = \"serena\"\n"}},
		{name: "user config written after the start does not count", kind: session.EvidenceToolOutput,
			userAfter: map[string]string{"claude/.claude.json": "{\"mcpServers\":{" + serena + "}}", ".gemini/settings.json": "{\"mcpServers\":{" + serena + "}}"},
			want:      []string{"as they were when the session started"}},
		{name: "an unreadable user config is named", kind: session.EvidenceToolOutput, userStart: map[string]string{".cursor/mcp.json": "{not json"},
			want: []string{filepath.Join(".cursor", "mcp.json") + " could not be read"}},
		{name: "mcp_servers_elsewhere names it", kind: session.EvidenceToolOutput, ok: true, elsewhere: []string{"serena"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "claude"))
			t.Setenv("CODEX_HOME", "")
			t.Setenv("GEMINI_CLI_HOME", "")
			writeAll := func(files map[string]string) {
				for rel, body := range files {
					p := filepath.Join(home, rel)
					os.MkdirAll(filepath.Dir(p), 0o700)
					if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
						t.Fatal(err)
					}
				}
			}
			e := newEnv(t, proto)
			e.engine.Config.MCPServersElsewhere = tt.elsewhere
			for rel, body := range tt.commit {
				gittest.Write(t, e.root, rel, body)
				gittest.Git(t, e.root, "add", rel)
			}
			if len(tt.commit) > 0 {
				gittest.Git(t, e.root, "commit", "-q", "-m", "mcp config")
			}
			writeAll(tt.userStart)
			id := e.start("greet takes a name")
			writeAll(tt.userAfter)
			err := e.claim(id, h360Activate, tt.kind, "mcp__serena__activate_project: Activated existing project with name 'greet'")
			if tt.ok {
				if err != nil {
					t.Fatalf("claim refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("a claim of a call of a server nothing configures was taken")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("refusal %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestR62H360HonestWithoutServer: a team without serena still gets past
// the phase the way the protocol's honest reading allows: marking it not
// applicable, which is checked against the configs (no person needed).
func TestR62H360HonestWithoutServer(t *testing.T) {
	requireGit(t)
	for _, name := range []string{protoV1, protoV14} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "claude"))
			e := newEnv(t, realProtocol(t, name))
			id := e.start("greet takes a name")
			if e.claim(id, h360Initial, session.EvidenceToolOutput, "mcp__serena__initial_instructions: You are a professional coding agent") == nil {
				t.Fatal("typed claim taken without serena")
			}
			if _, err := e.engine.RecordEvidence(context.Background(), session.EvidenceRequest{ID: id, Phase: "SERENA_INITIALIZATION", Step: session.StepCondition, Kind: session.EvidenceManual, Evidence: "this repository configures no serena MCP server"}); err != nil {
				t.Fatalf("not-applicable mark refused: %v", err)
			}
			if g := e.gate(id, "SERENA_INITIALIZATION"); g.Status != session.StatusSkipped {
				t.Fatalf("gate %s %q, want skipped", g.Status, g.Message)
			}
		})
	}
}

// TestR62H360NotApplicableAgainstTheSameConfigs: the phase's
// not-applicable mark ("serena is not configured") is judged against what
// a claim is: serena in another agent's repository config, or named in
// mcp_servers_elsewhere, makes the mark false.
func TestR62H360NotApplicableAgainstTheSameConfigs(t *testing.T) {
	requireGit(t)
	proto := realProtocol(t, protoV1)
	for _, c := range []struct {
		name      string
		commit    map[string]string
		elsewhere []string
	}{
		{"serena in .gemini/settings.json", map[string]string{".gemini/settings.json": `{"mcpServers":{"serena":{}}}`}, nil},
		{"serena in .codex/config.toml", map[string]string{".codex/config.toml": "[mcp_servers.serena]\ncommand = \"serena\"\n"}, nil},
		{"serena in mcp_servers_elsewhere", nil, []string{"serena"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "claude"))
			e := newEnv(t, proto)
			e.engine.Config.MCPServersElsewhere = c.elsewhere
			for rel, body := range c.commit {
				e.commitFile(rel, body)
			}
			id := e.start("greet takes a name")
			_, err := e.engine.RecordEvidence(context.Background(), session.EvidenceRequest{ID: id, Phase: "SERENA_INITIALIZATION", Step: session.StepCondition, Kind: session.EvidenceManual, Evidence: "no serena MCP server here"})
			if err == nil || !strings.Contains(err.Error(), "the serena MCP server is configured") {
				t.Fatalf("mark: %v, want refused as configured", err)
			}
		})
	}
}

// TestR62H360PhaseEvidenceWithoutServer: the same claim recorded for the
// phase, bound to no requirement, passed SERENA_INITIALIZATION's
// "evidence tool_output" gate: it is refused the same way.
func TestR62H360PhaseEvidenceWithoutServer(t *testing.T) {
	requireGit(t)
	for _, name := range []string{protoV1, protoV14} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "claude"))
			e := newEnv(t, realProtocol(t, name))
			id := e.start("greet takes a name")
			_, err := e.engine.RecordEvidence(context.Background(), session.EvidenceRequest{ID: id, Phase: "SERENA_INITIALIZATION", Kind: session.EvidenceToolOutput, Evidence: "activated project greet"})
			if err == nil || !strings.Contains(err.Error(), "configures the serena server") {
				t.Fatalf("phase evidence: %v, want refused", err)
			}
			if g := e.gate(id, "SERENA_INITIALIZATION"); g.Status == session.StatusPass {
				t.Fatalf("gate passed: %q", g.Message)
			}
		})
	}
}
