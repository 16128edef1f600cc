package hookroute

import (
	"strings"

	"github.com/sessiongate/sessiongate/transcript"
)

// Which calls each agent's pre-tool hook witnesses, and by what: Claude
// Code's and Codex's hooks keep a call's id (WitnessedTool,
// CodexShellTool); Gemini CLI's and Copilot's name no call id, so their
// hooks keep the digest of a command line or path, used up by one
// transcript line (CountedShell). The engine (session/witness.go) decides
// from these whether a transcript line counts.

// WitnessedTool reports whether Claude Code's PreToolUse hook records a
// call of tool as the witness of its transcript line: a shell call (Bash),
// a sub-agent run (Agent, Task before 2.1), an MCP tool, or a read (Read,
// NotebookRead, Grep, Glob, LS).
func WitnessedTool(tool string) bool {
	switch tool {
	case "Bash", "Agent", "Task", "Read", "NotebookRead", "Grep", "Glob", "LS":
		return true
	}
	return strings.HasPrefix(tool, "mcp__")
}

// countedShells are the shell tools of the agents whose hooks name no call
// id (the hook's tool names, which their transcripts use too): a shell line
// of their transcript counts only while a witness of its command line, kept
// by the pre-tool hook, is left unused; each witness is used once, so two
// real `cat` calls witness two lines, not three. Gemini CLI's read_file
// is counted the same way, by the path it read; their other read and
// search tools (read_many_files, glob, grep, search_file_content,
// list_directory; Copilot's grep, glob) are sent to no hook (a hook
// process per read) and are not witnessed; Copilot's view is, by path.
var countedShells = map[string]map[string]bool{
	// read_file since issue 25: a forged read_file line of the chat
	// recording met "read docs/X" with the real Gemini CLI
	// (TestGeminiForgedReadFile); its witness is transcript.ReadDigest.
	transcript.Gemini: {"run_shell_command": true, "read_file": true},
	// Bash: a hook file with PascalCase events. view since issue 25, as
	// Gemini's read_file (TestCopilotViewWitness).
	transcript.Copilot: {"bash": true, "Bash": true, "view": true},
}

// CountsShells reports whether agent's hooks name no call id, so its
// shell (and read) lines are counted against witnesses by digest.
func CountsShells(agent string) bool { return countedShells[agent] != nil }

// CountedShell reports whether a transcript line of agent's tool counts
// only while an unused witness of its digest is left (countedShells).
func CountedShell(agent, tool string) bool { return countedShells[agent][tool] }

// codexShellTools are the rollout's names of a Codex shell call, which its
// PreToolUse hook sees as Bash.
var codexShellTools = map[string]bool{"exec_command": true, "shell": true, "shell_command": true, "local_shell": true, "container.exec": true}

// CodexShellTool reports whether tool is the rollout's name of a Codex
// shell call, which its PreToolUse hook sees as Bash.
func CodexShellTool(tool string) bool { return codexShellTools[tool] }

// CopilotHookFile is the hook file `install --agent copilot` writes; any
// other .github/hooks/*.json of the work tree is read as well.
const CopilotHookFile = ".github/hooks/sessiongate.json"

var agentNames = map[string]string{transcript.Claude: "Claude Code", transcript.Codex: "Codex",
	transcript.Gemini: "Gemini CLI", transcript.Copilot: "Copilot"}

// AgentName is the agent's name as messages show it ("" for an unknown one).
func AgentName(agent string) string { return agentNames[agent] }
