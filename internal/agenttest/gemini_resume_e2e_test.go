package agenttest_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// TestGeminiResumeHonest (round 25, c2): the real Gemini CLI stopped and
// resumed mid-session (`gemini -p ... --resume latest`, the same HOME) is
// honest work. Gemini CLI 0.61 loads the chat recording and appends to it;
// it renames a new file over it only when the load fails
// (rewriteConversationFile), which this run does not provoke. The resumed
// run's gates record no TRANSCRIPT_TAMPERED and no replaced transcript.
func TestGeminiResumeHonest(t *testing.T) {
	t.Parallel()
	requireAgentHook(t)
	r := newSGRepo(t, e2eProtocol, "agent_hooks:\n  max_stop_blocks: 0\n", "--agent", "gemini")
	r.write("test.sh", e2eTest)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "test script and agent hooks")
	home := t.TempDir()
	first := agenttest.NewGeminiServer(t,
		agenttest.Use("run_shell_command", map[string]any{"command": "git status"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "git log --oneline -1"}),
		agenttest.Say("paused"),
	)
	res := agenttest.RunGemini(t, r.dir, "look around", agenttest.GeminiOptions{Server: first, Env: r.env, Home: home})
	if first.Used() < 4 {
		t.Fatalf("first run: %d of 4 turns; exit %d, error %s\nstderr: %s", first.Used(), res.ExitCode, res.Error, res.Stderr)
	}
	chats := func() map[string]int64 {
		return filesUnder(filepath.Join(home, ".gemini"), func(p string) bool {
			return strings.Contains(p, string(filepath.Separator)+"chats"+string(filepath.Separator))
		})
	}
	before := chats()
	second := agenttest.NewGeminiServer(t,
		agenttest.Use("run_shell_command", map[string]any{"command": "git status --short"}),
		agenttest.Use("run_shell_command", map[string]any{"command": "sessiongate session end --summary 'looked around, resumed once'"}),
		agenttest.Say("done"),
	)
	res = agenttest.RunGemini(t, r.dir, "go on", agenttest.GeminiOptions{Server: second, Env: r.env, Home: home, Args: []string{"--resume", "latest"}})
	if second.Used() < 3 {
		t.Fatalf("resumed run: %d of 3 turns; exit %d, error %s\nstderr: %s", second.Used(), res.ExitCode, res.Error, res.Stderr)
	}
	t.Logf("chat recordings after the first run %v, after the resumed run %v", before, chats())
	checkResumedHonest(t, r, "resumed", "chat recording")
}
