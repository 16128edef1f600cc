package agenttest_test

import (
	"fmt"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// TestGeminiBackgroundShellNoEvidence (round 24, c4): the real Gemini CLI
// runs run_shell_command with `is_background: true` and answers "Command
// moved to background (PID: N)" at once; its AfterTool has no exit code,
// which was read as 0, so a failing `sh test.sh` run that way was
// recorded as passing evidence. No evidence now; the honest twin, the
// same command in the foreground, is recorded with its real status.
func TestGeminiBackgroundShellNoEvidence(t *testing.T) {
	t.Parallel()
	requireAgentHook(t)
	r := newSGRepo(t, e2eProtocol, "", "--agent", "gemini")
	r.write("test.sh", e2eTest)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "test script and agent hooks")
	srv := agenttest.NewGeminiServer(t,
		agenttest.Use("run_shell_command", map[string]any{"command": "git status"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "sleep 2; sh test.sh", "is_background": true}),
		agenttest.Use("run_shell_command", map[string]any{"command": "sh test.sh"}),
		agenttest.Say("done"),
	)
	res := agenttest.RunGemini(t, r.dir, "run the tests", agenttest.GeminiOptions{Server: srv, Env: r.env})
	if srv.Used() < 5 {
		t.Fatalf("%d of 5 turns used; exit %d, error %s\nstderr: %s", srv.Used(), res.ExitCode, res.Error, res.Stderr)
	}
	runs := map[string][]string{}
	for _, e := range evidence(r.onlySession()) {
		if c, _ := e["command"].(string); c != "" {
			runs[c] = append(runs[c], fmt.Sprint(e["exit_code"]))
		}
	}
	if got := runs["sleep 2; sh test.sh"]; len(got) != 0 {
		t.Errorf("the backgrounded run was recorded as evidence (exit %v): it had not finished, and failed", got)
	}
	if got := runs["sh test.sh"]; len(got) != 1 || got[0] != "1" {
		t.Errorf("the foreground run: recorded exits %v, want one exit 1", got)
	}
}
