package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/transcript"
)

// A requirement that names an MCP tool ("The agent MUST call
// mcp__serena__activate_project", "read the memory using
// mcp__serena__read_memory") asks for a tool call, which the agent's
// transcript records under that very name; v3.0-style protocols say so in
// their evidence table ("Tool calls: session transcript"). While Claude
// Code's transcript is known and the tool's server is configured for the
// project (.mcp.json, protected during a session, or Claude Code's user
// config), only a call of a named tool that did not fail meets it. Where
// the server is not configured the call cannot be made: claims count as
// before, and the gate does not block honest work on a tool nobody set up.

var mcpToolRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bmcp__([A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*?)__([A-Za-z0-9_-]+)\b`)
})

// mcpTools are the MCP tools a requirement names, as Claude Code spells
// them, with their server.
func mcpTools(r protocolspec.Requirement) (tools []string, server string) {
	for _, m := range mcpToolRE().FindAllStringSubmatch(r.Text, -1) {
		tools = append(tools, m[0])
		if server == "" {
			server = m[1]
		}
	}
	return tools, server
}

// mcpEvidence is the evidence an MCP call gives r, if r names its tool
// and the call did not fail.
func mcpEvidence(r protocolspec.Requirement, c transcript.Call) (Evidence, bool) {
	tools, _ := mcpTools(r)
	if c.Failed || !containsFold(tools, c.Tool) {
		return Evidence{}, false
	}
	zero := 0
	return Evidence{Kind: EvidenceToolOutput, Origin: OriginTranscript, SHA256: c.InputSHA256,
		Ref: truncate(fmt.Sprintf("%s (call %s)", c.Tool, c.ID), 200), ExitCode: &zero}, true
}

// mcpNeeds says why a claim does not count for a requirement naming an
// MCP tool while Claude Code's transcript is known ("" when it does).
func mcpNeeds(info transcriptInfo, r protocolspec.Requirement) string {
	tools, server := mcpTools(r)
	if len(tools) == 0 || info.agent != transcript.Claude || info.broken != "" || !mcpConfigured(info.worktree, server) {
		return ""
	}
	return fmt.Sprintf("the agent's %s transcript shows no call of %s: %s; a claim does not count while the agent's transcript is known",
		info.agent, strings.Join(tools, " or "), mcpTool(tools))
}

func mcpTool(tools []string) string {
	return fmt.Sprintf("call the MCP tool %s", tools[0])
}

// mcpConfigured reports whether Claude Code would offer server's tools in
// worktree: the project's .mcp.json, or the user's ~/.claude.json (top
// level, or under the project's path).
func mcpConfigured(worktree, server string) bool {
	type servers struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	has := func(p string, pick func([]byte) map[string]json.RawMessage) bool {
		b, err := os.ReadFile(p)
		if err != nil {
			return false
		}
		_, ok := pick(b)[server]
		return ok
	}
	top := func(b []byte) map[string]json.RawMessage {
		var s servers
		json.Unmarshal(b, &s)
		return s.MCPServers
	}
	if has(filepath.Join(worktree, ".mcp.json"), top) {
		return true
	}
	user := ""
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		user = filepath.Join(d, ".claude.json")
	} else if h, err := os.UserHomeDir(); err == nil {
		user = filepath.Join(h, ".claude.json")
	}
	if user == "" {
		return false
	}
	return has(user, top) || has(user, func(b []byte) map[string]json.RawMessage {
		var u struct {
			Projects map[string]servers `json:"projects"`
		}
		json.Unmarshal(b, &u)
		return u.Projects[worktree].MCPServers
	})
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
