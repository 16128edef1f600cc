package ancestry

import "strings"

// envMarks are variables coding agents' CLIs set in the shells they run,
// as the CLIs in .ci/node do (read from their bundles, 2026-11): Claude
// Code sets CLAUDECODE=1 and CLAUDE_CODE_ENTRYPOINT, Gemini CLI
// GEMINI_CLI=1, Codex CODEX_THREAD_ID (and CODEX_SANDBOX* when sandboxed),
// Copilot CLI COPILOT_CLI_BINARY_VERSION and COPILOT_CLI_RESOLVED_DIST_DIR
// in its own environment, Cursor's agent CURSOR_AGENT=1. Any value counts,
// even "0": an agent would not set one to say it is absent.
var envMarks = []struct{ name, agent string }{
	{"CLAUDECODE", "claude"},
	{"CLAUDE_CODE_ENTRYPOINT", "claude"},
	{"GEMINI_CLI", "gemini"},
	{"CODEX_THREAD_ID", "codex"},
	{"CODEX_SANDBOX", "codex"},
	{"CODEX_SANDBOX_NETWORK_DISABLED", "codex"},
	{"COPILOT_CLI", "copilot"},
	{"COPILOT_CLI_BINARY_VERSION", "copilot"},
	{"COPILOT_CLI_RESOLVED_DIST_DIR", "copilot"},
	{"CURSOR_AGENT", "cursor"},
}

// FromEnv returns the coding agent whose variable is set, and the variable.
func FromEnv(getenv func(string) string) (agent, variable string, ok bool) {
	for _, m := range envMarks {
		if strings.TrimSpace(getenv(m.name)) != "" {
			return m.agent, m.name, true
		}
	}
	return "", "", false
}

// EnvNames are the variables FromEnv reads, for documentation and tests.
func EnvNames() []string {
	out := make([]string, len(envMarks))
	for i, m := range envMarks {
		out[i] = m.name
	}
	return out
}
