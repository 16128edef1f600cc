package agenttest_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// What a runtime must know about Gemini CLI's AfterAgent retries: each
// deny is sent as a new prompt, so BeforeAgent fires again with the deny
// reason as its prompt, and the retried AfterAgent carries the original
// prompt and stop_hook_active true. The CLI itself sets no limit (a hook
// that always denies loops until killed), so the hook must.
func TestGeminiAfterAgentRetryEvents(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	logPath := filepath.Join(t.TempDir(), "hooks.jsonl")
	deny, _ := json.Marshal(map[string]any{"decision": "deny", "reason": "not yet"})
	writeGeminiHooks(t, repo, func(ev string) string {
		if ev == "AfterAgent" {
			cnt := filepath.Join(filepath.Dir(logPath), "n")
			return "in=$(cat); printf '%s\\n' \"$in\" >> '" + logPath + "'; echo x >> '" + cnt + "'; if [ $(wc -l < '" + cnt + "') -le 2 ]; then echo '" + string(deny) + "'; else echo '{}'; fi"
		}
		return logHook(logPath)
	})
	// Deny the first two stops, then allow.
	srv := agenttest.NewGeminiServer(t, agenttest.Say("one"), agenttest.Say("two"), agenttest.Say("three"))
	res := agenttest.RunGemini(t, repo, "go", agenttest.GeminiOptions{Server: srv})
	if res.ExitCode != 0 || res.Response != "onetwothree" {
		t.Fatalf("run: exit %d response %q\nstderr: %s", res.ExitCode, res.Response, res.Stderr)
	}
	var got []string
	for _, p := range readPayloads(t, logPath) {
		got = append(got, fmt.Sprintf("%v %v %v", p["hook_event_name"], p["prompt"], p["stop_hook_active"]))
	}
	want := []string{
		"SessionStart <nil> <nil>",
		"BeforeAgent go <nil>", "AfterAgent go false",
		"BeforeAgent not yet <nil>", "AfterAgent go true",
		"BeforeAgent not yet <nil>", "AfterAgent go true",
		"SessionEnd <nil> <nil>",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events (event prompt stop_hook_active):\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
