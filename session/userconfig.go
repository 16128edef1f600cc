package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/sessiongate/sessiongate/testrun"
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
	// NpmRun holds, for each key of the user's npm config that decides
	// how npm runs a script (testrun.NpmrcRunKeys), a hash of its value (never
	// the value); NpmKnown tells a session that kept it from an older one.
	NpmRun   map[string]string `json:"npm_run,omitempty"`
	NpmKnown bool              `json:"npm_known,omitempty"`
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
	b, _ := json.Marshal(userConfig{MCPServers: userMCPServers(s.Worktree), Agents: userAgents(), NpmRun: userNpmRun(), NpmKnown: true})
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

// userNpmrc is the user's npm config file: npm_config_userconfig (as npm
// reads it, any case), else ~/.npmrc ("" when no home is known).
func userNpmrc() string {
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

// userNpmRun hashes the run-deciding keys of the user's npm config
// (script-shell, node-options, ...): `npm config set script-shell
// /tmp/x.sh` or a script writing ~/.npmrc makes every `npm test` run
// /tmp/x.sh, which exits 0; the repository's .npmrc is compared with the
// start commit (testinputs.go), this one with the session's start.
func userNpmRun() map[string]string {
	p := userNpmrc()
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

// userNpmrcChange names how the user's npm config changed since session
// s started, for a line that runs npm (pnpm, yarn, npx); "" when it did
// not, the line runs none, or the session kept no start state.
func (e *Engine) userNpmrcChange(ctx context.Context, s *Session, line string) string {
	if !slices.ContainsFunc(testrun.LineWords(line), func(w string) bool {
		switch filepath.Base(w) {
		case "npm", "npx", "pnpm", "yarn":
			return true
		}
		return false
	}) {
		return ""
	}
	uc, ok := e.userConfigAtStart(ctx, s)
	if !ok || !uc.NpmKnown {
		return ""
	}
	now := userNpmRun()
	for _, k := range testrun.NpmrcRunKeys {
		if now[k] != uc.NpmRun[k] {
			verb := "changed"
			switch {
			case uc.NpmRun[k] == "":
				verb = "set"
			case now[k] == "":
				verb = "removed"
			}
			return fmt.Sprintf("the user's npm config (%s) %s %s since the session started, which decides how npm runs the test script", userNpmrc(), verb, k)
		}
	}
	return ""
}
