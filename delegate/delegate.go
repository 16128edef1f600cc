package delegate

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// A requirement to hand work to a sub-agent ("The agent MUST invoke the qa
// agent", "route to the qa agent", `Task(subagent_type="qa")`) is a tool
// call: the agent's transcript records it (Claude Code's Agent tool,
// formerly Task, with its subagent_type). A file offered as its evidence
// (any QA-looking report) proves nothing about who wrote it: on the real
// 2025-12-22 protocol "MUST invoke the qa agent" was met by any file. So
// while Claude Code's transcript is known, only a call of that sub-agent
// meets it. Where no such sub-agent is defined (.claude/agents/<name>.md
// in the work tree, at the session's start commit, or in the user's
// folder, or one of Claude Code's built-in types), the call cannot be made, and claims count as before: a gate that
// asks for the impossible blocks honest work.

var delegateRE = sync.OnceValues(func() (*regexp.Regexp, *regexp.Regexp) {
	verb := `(?:invoke|invoking|route|routing|delegate|delegating|hand\s+off|hand\s+it\s+off|hand|spawn|launch|dispatch|call|use|run)`
	return regexp.MustCompile(`(?i)\b` + verb + `\s+(?:it\s+|the\s+work\s+|work\s+)?(?:to\s+)?(?:the\s+|a\s+|an\s+)?` + "`?" + `([a-z][a-z0-9_-]*)` + "`?" + `\s+(?:sub-?)?agent\b`),
		regexp.MustCompile(`subagent_type\s*[=:]\s*["']([A-Za-z][\w-]*)["']`)
})

// notAgentNames are words before "agent" that name no sub-agent ("the
// coding agent", "another agent").
var notAgentNames = map[string]bool{"the": true, "a": true, "an": true, "coding": true, "ai": true, "another": true, "this": true,
	"that": true, "same": true, "other": true, "each": true, "any": true, "new": true, "sub": true, "main": true, "parent": true,
	"calling": true, "current": true, "your": true, "its": true, "their": true, "appropriate": true, "relevant": true, "specialist": true}

// Name is the sub-agent a requirement asks to run ("" when it
// asks none).
func Name(r protocolspec.Requirement) string {
	verb, typ := delegateRE()
	if m := typ.FindStringSubmatch(r.Text); m != nil {
		return strings.ToLower(m[1])
	}
	for _, m := range verb.FindAllStringSubmatch(r.Text, -1) {
		if n := strings.ToLower(m[1]); !notAgentNames[n] {
			return n
		}
	}
	return ""
}

// claudeBuiltinAgents are the sub-agent types Claude Code 2.1 defines
// itself (its agent listing in the transcript).
var claudeBuiltinAgents = map[string]bool{"claude": true, "explore": true, "general-purpose": true, "plan": true, "statusline-setup": true}

// Defined reports whether Claude Code knows a sub-agent name in
// this work tree: a project or user agent file, or a built-in type.
func Defined(worktree, name string) bool {
	if claudeBuiltinAgents[name] {
		return true
	}
	dirs := []string{filepath.Join(worktree, ".claude", "agents")}
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		dirs = append(dirs, filepath.Join(d, "agents"))
	} else if h, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(h, ".claude", "agents"))
	}
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if strings.EqualFold(strings.TrimSuffix(e.Name(), ".md"), name) && strings.HasSuffix(e.Name(), ".md") {
				return true
			}
		}
	}
	return false
}

// Tool says how the agent runs sub-agent name.
func Tool(name string) string {
	return fmt.Sprintf("run it with the Agent tool (subagent_type %q)", name)
}
