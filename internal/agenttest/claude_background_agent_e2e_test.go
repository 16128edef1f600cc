package agenttest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// logEveryHook adds a `.*` hook beside sessiongate's on every event that
// appends each payload to a file, committed; it returns the file.
func logEveryHook(t *testing.T, r *sgRepo, events ...string) string {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "hook-calls.jsonl")
	settings := filepath.Join(r.dir, ".claude", "settings.json")
	b, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	hooks := s["hooks"].(map[string]any)
	logger := map[string]any{"matcher": ".*", "hooks": []any{map[string]any{"type": "command", "command": "cat >> " + logPath + "; echo >> " + logPath}}}
	for _, ev := range events {
		l, _ := hooks[ev].([]any)
		hooks[ev] = append(l, logger)
	}
	b, _ = json.MarshalIndent(s, "", "  ")
	r.write(".claude/settings.json", string(b))
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "log every hook call")
	return logPath
}

// TestClaudeBackgroundAgentMeasured (round 26, c3): what Claude Code
// 2.1.330 sends for an Agent call with run_in_background unset, logged by
// a `.*` hook beside sessiongate's: PreToolUse, then PostToolUse at once
// with tool_response {isAsync, status "async_launched"}; the Stop that
// ends the main turn lists the sub-agent in background_tasks as running;
// the sub-agent's calls carry agent_id; when it stops, a UserPromptSubmit
// whose prompt is the <task-notification> naming the call's tool_use_id,
// same session id. The hook rules of round 26 rest on this; and the
// notification opens no second session.
func TestClaudeBackgroundAgentMeasured(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t, "")
	logPath := logEveryHook(t, r, "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")
	const qa = "QA-TASK: validate the change by running sh test.sh"
	srv := agenttest.NewClaudeServer(t,
		agenttest.Use("Bash", map[string]any{"command": "git status"}),
		agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
		agenttest.Use("Agent", map[string]any{"description": "Validate the change", "prompt": qa, "subagent_type": "general-purpose"}),
		agenttest.Turn{Text: "waiting for the qa agent", While: func(req agenttest.Request) bool { return !strings.Contains(req.NewText(), "<task-notification>") }},
		agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "qa.md"), "content": "QA passed\n"}),
		agenttest.Say("done"),
	)
	srv.Subagent(qa, agenttest.Use("Bash", map[string]any{"command": "sleep 1; sh test.sh"}), agenttest.Say("QA passed"))
	res := r.claude("work", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Edit", "Bash", "Agent"}})
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
	}
	logged, _ := os.ReadFile(logPath)
	var launched, waitingStop, subCall, notified bool
	for _, line := range strings.Split(string(logged), "\n") {
		var p map[string]any
		if json.Unmarshal([]byte(line), &p) != nil {
			continue
		}
		resp, _ := p["tool_response"].(map[string]any)
		switch {
		case p["hook_event_name"] == "PostToolUse" && p["tool_name"] == "Agent":
			launched = resp["status"] == "async_launched" && resp["isAsync"] == true
		case p["hook_event_name"] == "Stop":
			tasks, _ := p["background_tasks"].([]any)
			for _, x := range tasks {
				if m, _ := x.(map[string]any); m["type"] == "subagent" && m["status"] == "running" {
					waitingStop = true
				}
			}
		case p["hook_event_name"] == "PreToolUse" && p["agent_id"] != nil:
			subCall = true
		case p["hook_event_name"] == "UserPromptSubmit":
			pr, _ := p["prompt"].(string)
			notified = notified || strings.HasPrefix(pr, "<task-notification>") && strings.Contains(pr, "<tool-use-id>toolu_03</tool-use-id>")
		}
	}
	if !launched || !waitingStop || !subCall || !notified {
		t.Errorf("launched %v, stop with a running sub-agent %v, sub-agent call with agent_id %v, notification prompt %v\n%s", launched, waitingStop, subCall, notified, logged)
	}
	out, _ := r.sg("session", "list", "--json")
	if n := strings.Count(out, `"starting_commit"`); n != 1 {
		t.Errorf("%d sessions, want 1 (the notification continues it):\n%s", n, out)
	}
	// (It ends with the end protocol undone: END_PROTOCOL_SKIPPED is
	// right; the sub-agent's call pending at the waiting stop is not.)
	if codes := violationCodes(r.onlySession()); strings.Contains(codes, "TOOL_RESULT_MISSING") {
		t.Errorf("violations %q: the sub-agent's call reported after the waiting stop", codes)
	}
}
