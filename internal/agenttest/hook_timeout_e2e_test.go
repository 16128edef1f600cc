package agenttest_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// How the real Gemini CLI and Copilot CLI treat a pre-tool hook that
// outlives its timeout (issue 25; Claude Code and Codex were tried last
// round): the hook here denies, at once or after sleeping 4 s past a 1 s
// limit. Both CLIs fail open: the late deny is dropped and the tool runs.
// So sessiongate's hook answers by its own fail mode well within the
// limit install writes (agenthook.MaxTimeout under CLITimeout). The
// prompt deny row shows the hook file was loaded.

var timeoutRows = []struct {
	name  string
	sleep int
	runs  bool // the tool ran
}{
	{"deny at once", 0, false},
	{"deny after the limit", 4, true},
}

// TestGeminiHookTimeout: Gemini CLI, BeforeTool with timeout 1000 ms.
func TestGeminiHookTimeout(t *testing.T) {
	t.Parallel()
	for _, c := range timeoutRows {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			repo := gitRepo(t)
			hooks := map[string]any{"BeforeTool": []any{map[string]any{"matcher": "write_file", "hooks": []any{map[string]any{
				"type": "command", "timeout": 1000,
				"command": fmt.Sprintf(`sleep %d; echo '{"decision":"deny","reason":"hook says no"}'`, c.sleep)}}}}}
			b, _ := json.Marshal(map[string]any{"hooks": hooks})
			if err := os.MkdirAll(filepath.Join(repo, ".gemini"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(repo, ".gemini", "settings.json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			srv := agenttest.NewGeminiServer(t,
				agenttest.Use("write_file", map[string]any{"file_path": filepath.Join(repo, "late.txt"), "content": "x\n"}),
				agenttest.Say("done"),
			)
			res := agenttest.RunGemini(t, repo, "write late.txt", agenttest.GeminiOptions{Server: srv})
			conv := srv.Conversation()
			if res.ExitCode != 0 || len(conv) < 2 {
				t.Fatalf("run: exit %d, %d requests\nstderr: %s", res.ExitCode, len(conv), res.Stderr)
			}
			assertTimeoutRow(t, c.runs, filepath.Join(repo, "late.txt"), conv[1].NewText())
		})
	}
}

// TestCopilotHookTimeout: Copilot CLI, preToolUse with timeoutSec 1.
func TestCopilotHookTimeout(t *testing.T) {
	t.Parallel()
	for _, c := range timeoutRows {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			repo := gitRepo(t)
			hooks := map[string]any{"version": 1, "hooks": map[string]any{"preToolUse": []any{map[string]any{
				"type": "command", "timeoutSec": 1,
				"bash": fmt.Sprintf(`sleep %d; echo '{"permissionDecision":"deny","permissionDecisionReason":"hook says no"}'`, c.sleep)}}}}
			b, _ := json.Marshal(hooks)
			if err := os.MkdirAll(filepath.Join(repo, ".github", "hooks"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(repo, ".github", "hooks", "slow.json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			stub := agenttest.StartOpenAIStub(t,
				agenttest.ToolStep("create", map[string]any{"path": filepath.Join(repo, "late.txt"), "file_text": "x\n"}),
				agenttest.TextStep("done"),
			)
			res := agenttest.RunCopilot(t, repo, "write late.txt", stub, nil, 0)
			reqs := stub.Scripted(t)
			if len(reqs) < 2 {
				t.Fatalf("run: exit %d, %d requests\nstdout: %s\nstderr: %s", res.ExitCode, len(reqs), res.Stdout, res.Stderr)
			}
			assertTimeoutRow(t, c.runs, filepath.Join(repo, "late.txt"), reqs[1].NewText())
		})
	}
}

func assertTimeoutRow(t *testing.T, runs bool, file, after string) {
	t.Helper()
	_, err := os.Stat(file)
	t.Logf("file written: %v; the model read: %.300s", err == nil, after)
	if (err == nil) != runs {
		t.Errorf("the tool ran: %v, want %v (the CLI's handling of a late hook changed: update docs/agents.md)", err == nil, runs)
	}
	if !runs && !strings.Contains(after, "hook says no") {
		t.Errorf("the deny reason did not reach the model: %s", after)
	}
}
