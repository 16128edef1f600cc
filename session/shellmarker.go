package session

import "os"

// shellMarkers are the variables a CLI sets in the environment of its
// shell tool's commands (measured with the real CLIs,
// internal/agenttest/TestAgentShellMarkers): a gate that sees none runs
// from somewhere else, a person's terminal, and the agent's newest call
// is not the gate's own. Codex names the very call (its tool_use_id).
// Copilot CLI 1.0.102 sets COPILOT_CLI=1 (and COPILOT_AGENT_SESSION_ID,
// its sessionId; measured in round 22).
var shellMarkers = map[string]string{"claude": "CLAUDECODE", "gemini": "GEMINI_CLI", "codex": "CODEX_TOOL_CALL_ID", "copilot": "COPILOT_CLI"}

// insideAgentCall reports whether this process (a gate) may run inside
// agent's pending shell call id. An agent that unsets the variable only
// loses its own call's excusal; one that sets it in a person's terminal
// gains nothing a person did not run.
func insideAgentCall(agent, id string) bool {
	k, ok := shellMarkers[agent]
	if !ok {
		return true
	}
	v := os.Getenv(k)
	if agent == "codex" {
		return v == id
	}
	return v != ""
}
