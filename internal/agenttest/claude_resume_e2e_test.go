package agenttest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// TestClaudeResumeHonest (round 25, c2): the real Claude Code stopped and
// continued mid-session (`claude -p --continue`, the same config folder)
// is honest work. Claude Code 2.1.330 keeps the session id and appends to
// the same transcript (measured: 175,254 then 201,262 bytes), so the
// continued run's gates record no TRANSCRIPT_TAMPERED and no replaced
// transcript. Passed before this round too: the honest guard of the seals.
func TestClaudeResumeHonest(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t, "agent_hooks:\n  max_stop_blocks: 0\n")
	config := filepath.Join(t.TempDir(), ".claude")
	if err := os.MkdirAll(config, 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"CLAUDE_CONFIG_DIR=" + config}
	first := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("Bash", map[string]any{"command": "git log --oneline -1"}),
		agenttest.Say("paused"),
	)
	res := r.claude("look around", agenttest.ClaudeOptions{Server: first, AllowedTools: []string{"Bash"}, Env: env})
	if res.ExitCode != 0 || first.Used() < 4 {
		t.Fatalf("first run: exit %d, %d of 4 turns\nstderr: %s", res.ExitCode, first.Used(), res.Stderr)
	}
	files := func() map[string]int64 {
		return filesUnder(filepath.Join(config, "projects"), func(p string) bool { return strings.HasSuffix(p, ".jsonl") })
	}
	before := files()
	second := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status --short"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session end --summary 'looked around, continued once'"}),
		agenttest.Say("done"),
	)
	res = r.claude("go on", agenttest.ClaudeOptions{Server: second, AllowedTools: []string{"Bash"}, Env: env, Args: []string{"--continue"}})
	if res.ExitCode != 0 || second.Used() < 3 {
		t.Fatalf("continued run: exit %d, %d of 3 turns\nstderr: %s", res.ExitCode, second.Used(), res.Stderr)
	}
	t.Logf("transcripts after the first run %v, after the continued run %v", before, files())
	checkResumedHonest(t, r, "continued", "transcript")
}
