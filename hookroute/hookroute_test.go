package hookroute

import (
	"testing"

	"github.com/sessiongate/sessiongate/transcript"
)

// TestRouted: which configs send a tool's calls to sessiongate's pre-tool
// hook. A matcher that leaves the tool out, another program's hook, or a
// config that does not parse routes nothing; the honest installs route.
func TestRouted(t *testing.T) {
	const prefix = "sessiongate agent-hook "
	claude := `{"hooks":{"PreToolUse":[{"matcher":"Bash|Read","hooks":[{"type":"command","command":"sessiongate agent-hook claude pre-tool"}]}]}}`
	gemini := `{"hooks":{"BeforeTool":[{"matcher":"read_file","hooks":[{"type":"command","command":"sessiongate agent-hook gemini before-tool"}]}]}}`
	copilotCamel := `{"version":1,"hooks":{"preToolUse":[{"type":"command","matcher":"bash|view","bash":"sessiongate agent-hook copilot preToolUse"}]}}`
	copilotAll := `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"sessiongate agent-hook copilot preToolUse"}]}}`
	copilotPascal := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"sessiongate agent-hook copilot pre-tool"}]}]}}`
	other := `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"./lint-hook.sh"}]}}`
	for _, tt := range []struct {
		name, agent, config, tool string
		want                      bool
	}{
		{"claude: Bash routed", transcript.Claude, claude, "Bash", true},
		{"claude: Grep left out", transcript.Claude, claude, "Grep", false},
		{"gemini: read_file routed", transcript.Gemini, gemini, "read_file", true},
		{"gemini: a PreToolUse event is not Gemini's", transcript.Gemini, claude, "Bash", false},
		{"copilot camelCase: view routed", transcript.Copilot, copilotCamel, "view", true},
		{"copilot: no matcher routes bash", transcript.Copilot, copilotAll, "bash", true},
		{"copilot PascalCase: bash as Claude's Bash", transcript.Copilot, copilotPascal, "bash", true},
		{"copilot PascalCase: view has no witness", transcript.Copilot, copilotPascal, "view", false},
		{"copilot: another program's hook", transcript.Copilot, other, "bash", false},
		{"a config that does not parse", transcript.Copilot, "{", "bash", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Routed(tt.agent, [][]byte{[]byte(tt.config)}, tt.tool, prefix); got != tt.want {
				t.Errorf("Routed = %v, want %v", got, tt.want)
			}
		})
	}
}
