package session

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/sessiongate/sessiongate/testrun"
	"path/filepath"
	"slices"

	"github.com/sessiongate/sessiongate/mcpconfig"
	"github.com/sessiongate/sessiongate/userconfig"
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

// userConfig is what the start event keeps (userconfig.Config).
type userConfig = userconfig.Config

// startUserConfigEvent is the start event of session s's user-level config.
func startUserConfigEvent(s *Session) *Event {
	uc := userconfig.Read(s.Worktree)
	uc.OtherMCPServers, uc.OtherKnown = mcpconfig.UserServers(mcpconfig.Getenv), true
	// Short keys and hashes: the event holds 4,000 bytes, and past
	// maxKeptDefs the definitions are not kept (not judged) rather than
	// the event cut.
	if defs := mcpconfig.UserDefs(s.Worktree, mcpconfig.Getenv); len(defs) <= maxKeptDefs {
		uc.MCPDefs, uc.MCPDefsKnown = map[string]string{}, true
		for _, d := range defs {
			uc.MCPDefs[mcpDefKey(d)] = d.Hash[:16]
		}
	}
	b, _ := json.Marshal(uc)
	return &Event{SessionID: s.ID, Token: TokStartUserConfig, Detail: truncate(string(b), 4000), CreatedAt: s.CreatedAt}
}

// maxKeptDefs bounds the user-level MCP definitions the start event keeps.
const maxKeptDefs = 40

// mcpDefKey names a user-level definition in the start event: its server
// and its file's name.
func mcpDefKey(d mcpconfig.Def) string { return d.Name + "@" + filepath.Base(d.Source) }

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
	now := userconfig.NpmRun()
	for _, k := range testrun.NpmrcRunKeys {
		if now[k] != uc.NpmRun[k] {
			verb := "changed"
			switch {
			case uc.NpmRun[k] == "":
				verb = "set"
			case now[k] == "":
				verb = "removed"
			}
			return fmt.Sprintf("the user's npm config (%s) %s %s since the session started, which decides how npm runs the test script", userconfig.Npmrc(), verb, k)
		}
	}
	return ""
}
