// Package userconfig reads the user-level configs outside the repository
// that decide what an agent can call and how npm runs a script: Claude
// Code's MCP servers (~/.claude.json) and sub-agents (~/.claude/agents/),
// and the run-deciding keys of the user's npm config. Git protects none of
// them, so a session keeps, at its start, their names and hashes (never
// their bodies); that bookkeeping is session/userconfig.go's.
package userconfig

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/testrun"
)

// Config names the MCP servers and sub-agents Claude Code's user-level
// config offers a work tree.
type Config struct {
	MCPServers []string `json:"mcp_servers"`
	Agents     []string `json:"agents"`
	// NpmRun holds, for each key of the user's npm config that decides
	// how npm runs a script (testrun.NpmrcRunKeys), a hash of its value (never
	// the value); NpmKnown tells a session that kept it from an older one.
	NpmRun   map[string]string `json:"npm_run,omitempty"`
	NpmKnown bool              `json:"npm_known,omitempty"`
	// OtherMCPServers are the servers the user-level configs of the other
	// agents (Gemini CLI, Cursor, Codex: mcpconfig.User) offer, which the
	// session fills; OtherKnown tells a session that kept them.
	OtherMCPServers []string `json:"other_mcp_servers,omitempty"`
	OtherKnown      bool     `json:"other_known,omitempty"`
	// MCPDefs holds, for each user-level MCP server definition (its server
	// and file name, "NAME@FILE"), a short hash of the definition (never its body):
	// one not the same later was written during the session
	// (session/mcpprogram.go). MCPDefsKnown tells a session that kept them.
	MCPDefs      map[string]string `json:"mcp_defs,omitempty"`
	MCPDefsKnown bool              `json:"mcp_defs_known,omitempty"`
}

// ClaudeFiles is where Claude Code keeps its user config:
// CLAUDE_CONFIG_DIR, else the home folder ("" when neither is known). The
// file is <dir>/.claude.json and the agents <agents>.
func ClaudeFiles() (claudeJSON, agents string) {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, ".claude.json"), filepath.Join(d, "agents")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".claude.json"), filepath.Join(h, ".claude", "agents")
	}
	return "", ""
}

// MCPServers are the servers the user config offers worktree: at its
// top level, or for the project at worktree.
func MCPServers(worktree string) []string {
	path, _ := ClaudeFiles()
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []string
	for name := range MCPServersOf(b) {
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

// Agents are the sub-agents the user's agents folder defines.
func Agents() []string {
	_, dir := ClaudeFiles()
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

// Npmrc is the user's npm config file: npm_config_userconfig (as npm
// reads it, any case), else ~/.npmrc ("" when no home is known).
func Npmrc() string {
	for _, k := range []string{"npm_config_userconfig", "NPM_CONFIG_USERCONFIG"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".npmrc")
	}
	return ""
}

// NpmRun hashes the run-deciding keys of the user's npm config
// (script-shell, node-options, ...): `npm config set script-shell
// /tmp/x.sh` or a script writing ~/.npmrc makes every `npm test` run
// /tmp/x.sh, which exits 0; the repository's .npmrc is compared with the
// start commit (session/testinputs.go), this one with the session's start.
func NpmRun() map[string]string {
	p := Npmrc()
	if p == "" {
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		k, v, ok := strings.Cut(l, "=")
		if !ok || strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";") {
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		if slices.Contains(testrun.NpmrcRunKeys, k) {
			sum := sha256.Sum256([]byte(strings.TrimSpace(v)))
			out[k] = hex.EncodeToString(sum[:8])
		}
	}
	return out
}

// Read is the user-level config offered to worktree now.
func Read(worktree string) Config {
	return Config{MCPServers: MCPServers(worktree), Agents: Agents(), NpmRun: NpmRun(), NpmKnown: true}
}

// HasServer reports whether the config offers MCP server name (any case).
func (c Config) HasServer(name string) bool { return containsFold(c.MCPServers, name) }

// HasAgent reports whether the config defines sub-agent name (any case).
func (c Config) HasAgent(name string) bool { return containsFold(c.Agents, name) }

func containsFold(list []string, s string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, s) })
}

// MCPServersOf reads the servers of an MCP config file (.mcp.json's
// shape: {"mcpServers": {name: ...}}); nil when it is not one.
func MCPServersOf(b []byte) map[string]json.RawMessage {
	var s struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if json.Unmarshal(b, &s) != nil {
		return nil
	}
	return s.MCPServers
}
