// Package hookroute says whether a project's agent hook config sends an
// agent's calls of a tool to sessiongate's pre-tool hook: Claude Code's
// and Codex's PreToolUse, Gemini CLI's BeforeTool, Copilot CLI's
// preToolUse (camelCase files) or PreToolUse (PascalCase ones). A call the
// config does not route was never seen by the hook, so its transcript
// entry is no witness. It needs no session: the engine
// (session/witness.go) hands it the config files it read.
package hookroute

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/sessiongate/sessiongate/internal/claudesettings"
	"github.com/sessiongate/sessiongate/transcript"
)

// CopilotRoutes reports whether a Copilot hook file (version 1, camelCase
// events) sends tool's preToolUse to a hook whose bash command starts with
// prefix. Copilot reads a matcher as a regex of the whole tool name; none
// matches every tool.
func CopilotRoutes(b []byte, tool, prefix string) bool {
	var doc struct {
		Hooks map[string][]struct {
			Type    string `json:"type"`
			Matcher string `json:"matcher"`
			Bash    string `json:"bash"`
		} `json:"hooks"`
	}
	if json.Unmarshal(b, &doc) != nil {
		return false
	}
	for _, h := range doc.Hooks["preToolUse"] {
		if h.Type != "" && h.Type != "command" || !strings.HasPrefix(strings.TrimSpace(h.Bash), prefix) {
			continue
		}
		m := strings.TrimSpace(h.Matcher)
		if m == "" || m == "*" {
			return true
		}
		if re, err := regexp.Compile("^(?:" + m + ")$"); err == nil && re.MatchString(tool) {
			return true
		}
	}
	return false
}

// Routed reports whether one of configs (the project's hook config files
// for agent: a transcript agent name, transcript.Claude ...) sends the
// agent's calls of tool to a command hook starting with prefix.
func Routed(agent string, configs [][]byte, tool, prefix string) bool {
	for _, b := range configs {
		switch agent {
		case transcript.Gemini:
			if claudesettings.Routes(b, "BeforeTool", tool, prefix) {
				return true
			}
		case transcript.Copilot:
			if tool == "view" {
				// Only a camelCase file's preToolUse sees "view" (a
				// PascalCase one names it Read, with no witness digest).
				if CopilotRoutes(b, "view", prefix) {
					return true
				}
				continue
			}
			// A camelCase file sends "bash"; a PascalCase one, Claude's "Bash".
			if CopilotRoutes(b, "bash", prefix) || claudesettings.Routes(b, "PreToolUse", "Bash", prefix) {
				return true
			}
		default:
			if claudesettings.Routes(b, "PreToolUse", tool, prefix) {
				return true
			}
		}
	}
	return false
}
