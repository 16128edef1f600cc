package agenttest_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// TestAgentShellMarkers measures which variables each real CLI sets in
// the environment of its shell tool's commands: a gate can only tell a
// command run inside an agent's call from a person's terminal by them
// (session/shellmarker.go: a gate excuses the agent's newest pending call
// only when it sees the marker). Copilot CLI's bash call writes outside
// the folder it runs in only with --allow-all-paths (else it is refused).
func TestAgentShellMarkers(t *testing.T) {
	t.Parallel()
	want := map[string]string{"claude": "CLAUDECODE=1", "gemini": "GEMINI_CLI=1", "codex": "CODEX_TOOL_CALL_ID=call_", "copilot": "COPILOT_CLI=1"}
	for _, agent := range []string{"claude", "codex", "copilot", "gemini"} {
		t.Run(agent, func(t *testing.T) {
			t.Parallel()
			r := installedRepo(t, "", "--agent", agent)
			out := filepath.Join(t.TempDir(), "env.txt")
			cmd := "env > " + out
			switch agent {
			case "claude":
				srv := agenttest.NewClaudeServer(t, agenttest.Use("Bash", map[string]any{"command": cmd}), agenttest.Say("done"), agenttest.Say("done"))
				r.claude("print env", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Bash"}, Timeout: 240e9})
			case "gemini":
				srv := agenttest.NewGeminiServer(t, agenttest.Use("run_shell_command", map[string]any{"command": cmd}), agenttest.Say("done"), agenttest.Say("done"))
				agenttest.RunGemini(t, r.dir, "print env", agenttest.GeminiOptions{Server: srv, Env: r.env})
			case "codex":
				stub := agenttest.StartOpenAIStub(t, agenttest.ToolStep("exec_command", map[string]any{"cmd": cmd}), agenttest.TextStep("done"), agenttest.TextStep("done"))
				agenttest.RunCodex(t, r.dir, "print env", stub, r.env, 0)
			case "copilot":
				stub := agenttest.StartOpenAIStub(t, agenttest.ToolStep("bash", map[string]any{"command": cmd, "description": "print env"}), agenttest.TextStep("done"), agenttest.TextStep("done"))
				agenttest.RunCopilotIn(t, r.dir, t.TempDir(), "print env", stub, r.env, 0, "--allow-all-paths")
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatalf("the shell call wrote no env: %v", err)
			}
			var names []string
			for _, l := range strings.Split(string(b), "\n") {
				k, _, ok := strings.Cut(l, "=")
				if ok && (strings.Contains(k, "CLAUDE") || strings.Contains(k, "CODEX") || strings.Contains(k, "GEMINI") || strings.Contains(k, "COPILOT") || strings.HasPrefix(k, "AGENT")) {
					names = append(names, l)
				}
			}
			sort.Strings(names)
			t.Logf("%s shell env: %s", agent, strings.Join(names, " "))
			if !strings.Contains("\n"+string(b), "\n"+want[agent]) {
				t.Errorf("%s's shell call has no %s: the gates would excuse none of its calls", agent, want[agent])
			}
		})
	}
}
