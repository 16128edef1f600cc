package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Claude Code's user-level config lives outside the repository: the MCP
// servers of ~/.claude.json (CLAUDE_CONFIG_DIR/.claude.json) and the
// sub-agents of ~/.claude/agents/. Git protects neither, so an agent with a
// shell that deletes serena from it mid-session made its calls "not
// available" again and won back claims and not-applicable marks. The
// session keeps, at its start, the names (never the bodies) of what that
// config offered, and a server or sub-agent there at the start counts as
// configured for the whole session.

// TokStartUserConfig is the start event holding the user-level config's
// names (userConfig as JSON).
const TokStartUserConfig = "start:user_config"

// userConfig names the MCP servers and sub-agents Claude Code's user-level
// config offers a work tree.
type userConfig struct {
	MCPServers []string `json:"mcp_servers"`
	Agents     []string `json:"agents"`
}

// claudeUserDir is where Claude Code keeps its user config:
// CLAUDE_CONFIG_DIR, else the home folder ("" when neither is known). The
// file is <dir>/.claude.json and the agents <agents>.
func claudeUserDir() (claudeJSON, agents string) {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, ".claude.json"), filepath.Join(d, "agents")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".claude.json"), filepath.Join(h, ".claude", "agents")
	}
	return "", ""
}

// userMCPServers are the servers the user config offers worktree: at its
// top level, or for the project at worktree.
func userMCPServers(worktree string) []string {
	path, _ := claudeUserDir()
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []string
	for name := range mcpServersOf(b) {
		out = append(out, name)
	}
	var u struct {
		Projects map[string]struct {
			MCPServers map[string]json.RawMessage `json:"mcpServers"`
		} `json:"projects"`
	}
	if json.Unmarshal(b, &u) == nil {
		for name := range u.Projects[worktree].MCPServers {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// userAgents are the sub-agents the user's agents folder defines.
func userAgents() []string {
	_, dir := claudeUserDir()
	if dir == "" {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".md"); ok && n != "" {
			out = append(out, strings.ToLower(n))
		}
	}
	slices.Sort(out)
	return out
}

// startUserConfigEvent is the start event of session s's user-level config.
func startUserConfigEvent(s *Session) *Event {
	b, _ := json.Marshal(userConfig{MCPServers: userMCPServers(s.Worktree), Agents: userAgents()})
	return &Event{SessionID: s.ID, Token: TokStartUserConfig, Detail: truncate(string(b), 4000), CreatedAt: s.CreatedAt}
}

// userConfigAtStart reads the names the session's start event kept (ok
// false for a session from before it kept them, or on a read error).
func (e *Engine) userConfigAtStart(ctx context.Context, s *Session) (userConfig, bool) {
	evs, err := startEvent(ctx, e.Store, s.ID, TokStartUserConfig)
	if err != nil || len(evs) == 0 {
		return userConfig{}, false
	}
	var uc userConfig
	if json.Unmarshal([]byte(evs[0].Detail), &uc) != nil {
		return userConfig{}, false
	}
	return uc, true
}

func (uc userConfig) hasServer(name string) bool { return containsFold(uc.MCPServers, name) }
func (uc userConfig) hasAgent(name string) bool  { return containsFold(uc.Agents, name) }
