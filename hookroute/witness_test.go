package hookroute

import (
	"testing"

	"github.com/sessiongate/sessiongate/transcript"
)

// TestWitnessTable: which agent tool calls a pre-tool hook witnesses, by
// id (Claude Code, Codex's shell names) or by digest (Gemini CLI, Copilot);
// a tool no hook sees is witnessed by none.
func TestWitnessTable(t *testing.T) {
	for _, tc := range []struct {
		agent, tool            string
		claude, codex, counted bool
	}{
		{transcript.Claude, "Bash", true, false, false},
		{transcript.Claude, "Read", true, false, false},
		{transcript.Claude, "mcp__x__y", true, false, false},
		{transcript.Claude, "Edit", false, false, false},
		{transcript.Codex, "exec_command", false, true, false},
		{transcript.Codex, "apply_patch", false, false, false},
		{transcript.Gemini, "run_shell_command", false, false, true},
		{transcript.Gemini, "read_file", false, false, true},
		{transcript.Gemini, "glob", false, false, false},
		{transcript.Copilot, "view", false, false, true},
		{transcript.Copilot, "grep", false, false, false},
	} {
		if got := tc.agent == transcript.Claude && WitnessedTool(tc.tool); got != tc.claude {
			t.Errorf("%s %s: WitnessedTool = %v, want %v", tc.agent, tc.tool, got, tc.claude)
		}
		if got := tc.agent == transcript.Codex && CodexShellTool(tc.tool); got != tc.codex {
			t.Errorf("%s %s: CodexShellTool = %v, want %v", tc.agent, tc.tool, got, tc.codex)
		}
		if got := CountedShell(tc.agent, tc.tool); got != tc.counted {
			t.Errorf("%s %s: CountedShell = %v, want %v", tc.agent, tc.tool, got, tc.counted)
		}
	}
	for agent, want := range map[string]bool{transcript.Claude: false, transcript.Codex: false, transcript.Gemini: true, transcript.Copilot: true} {
		if got := CountsShells(agent); got != want {
			t.Errorf("CountsShells(%s) = %v, want %v", agent, got, want)
		}
	}
	if AgentName(transcript.Gemini) != "Gemini CLI" || AgentName("nobody") != "" {
		t.Errorf("AgentName: %q, %q", AgentName(transcript.Gemini), AgentName("nobody"))
	}
}
