// Package toolneed reads what a protocol requirement asks of the agent's
// tool calls, from its text alone: a read of a file it names ("MUST read
// `docs/guide.md`"), a run of a command, a search, a call of the MCP tools
// it names (mcp__serena__activate_project), or a write of a file
// (Writes); and names the call of each agent (Claude Code, Gemini CLI,
// Codex CLI, Copilot) that would meet it. It needs no session: the engine
// (session/transcript.go, mcpcall.go, writereq.go) asks it which calls of
// a transcript and which files count.
package toolneed

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/delegate"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/transcript"
)

// What a requirement asks a tool to do, as far as a transcript can show.
const (
	None   = ""
	Read   = "read"
	Run    = "run"
	Search = "search"
)

var needWords = sync.OnceValue(func() [3]*regexp.Regexp {
	return [3]*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(?:read|re-read|reread|review|consult|study|inspect|examine)\b`),
		regexp.MustCompile(`(?i)\b(?:run|execute)\b`),
		regexp.MustCompile(`(?i)\b(?:search|grep)\b`),
	}
})

// Of says whether a requirement asks for a read of a file it names
// ("MUST read `docs/guide.md`"), a run of a command ("MUST run `git
// status`") or a search; None for anything else (write a file, decide).
func Of(r protocolspec.Requirement) string {
	w := needWords()
	switch {
	case w[0].MatchString(r.Text) && len(r.NamedPaths()) > 0:
		return Read
	case w[1].MatchString(r.Text):
		return Run
	case w[2].MatchString(r.Text):
		return Search
	}
	return None
}

// Call names the tool call of an agent that would meet a
// requirement, for the gate's reason.
func Call(agent string, r protocolspec.Requirement, id string) string {
	shell := map[string]string{transcript.Claude: "the Bash tool", transcript.Gemini: "run_shell_command", transcript.Codex: "its shell (exec_command)", transcript.Copilot: "the bash tool"}[agent]
	if shell == "" {
		shell = "the shell tool"
	}
	if n := delegate.Name(r); n != "" && agent == transcript.Claude {
		return delegate.Tool(n)
	}
	if tools, _ := MCPTools(r); len(tools) > 0 && agent == transcript.Claude {
		return MCPCall(tools)
	}
	switch Of(r) {
	case Read:
		file := strings.TrimSuffix(r.NamedPaths()[0], "/**")
		tool := map[string]string{transcript.Claude: "the Read tool", transcript.Gemini: "read_file", transcript.Copilot: "the view tool"}[agent]
		if tool == "" {
			return fmt.Sprintf("read %s with `cat %s` in %s", file, file, shell)
		}
		return fmt.Sprintf("read %s with %s (or `cat %s` in %s)", file, tool, file, shell)
	case Run:
		return fmt.Sprintf("run the command it names in %s, on its own line (or `sessiongate run --requirement %s -- COMMAND`)", shell, id)
	case Search:
		return "search with the agent's search tool (Grep, grep, glob)"
	}
	return ""
}

var mcpToolRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bmcp__([A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*?)__([A-Za-z0-9_-]+)\b`)
})

// MCPTools are the MCP tools a requirement names, as Claude Code spells
// them, with their server.
func MCPTools(r protocolspec.Requirement) (tools []string, server string) {
	for _, m := range mcpToolRE().FindAllStringSubmatch(r.Text, -1) {
		tools = append(tools, m[0])
		if server == "" {
			server = m[1]
		}
	}
	return tools, server
}

// MCPCall says which call meets a requirement naming tools.
func MCPCall(tools []string) string {
	return fmt.Sprintf("call the MCP tool %s", tools[0])
}
