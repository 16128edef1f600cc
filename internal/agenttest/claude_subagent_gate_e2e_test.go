package agenttest_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// TestClaudeGateWhileSubagentRuns (round 28, c3), with the real Claude
// Code: `session end` run while a background sub-agent's Bash call is still
// running. Before: the gate named the sub-agent's call a MEDIUM
// TOOL_RESULT_MISSING (the hook kept no agent_id, so it could not be told
// from a main call whose post hook was dropped): a false violation on an
// honest session. Now the call keeps its agent_id and is left to the
// sub-agent's notification, the next judged stop or SessionEnd; it
// reports, and the session is COMPLETE, clean. Lazy twin: the same
// sub-agent with the post hook dropped from the settings still records
// TOOL_RESULT_MISSING (at the stop after the notification).
func TestClaudeGateWhileSubagentRuns(t *testing.T) {
	const qa = "QA-TASK: validate the change by running sh test.sh"
	for _, lazy := range []bool{false, true} {
		name := "honest"
		if lazy {
			name = "lazy: post hook dropped"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := hookedRepo(t, "agent_hooks:\n  timeout: 9s\n")
			logPath := logEveryHook(t, r, "PreToolUse", "PostToolUse", "Stop", "SessionEnd", "UserPromptSubmit")
			if lazy {
				dropPostHooks(t, r)
				r.git("add", "-A")
				r.git("commit", "-q", "-m", "no post hooks")
			}
			turns := []agenttest.Turn{
				agenttest.Use("Bash", map[string]any{"command": "git status"}),
				agenttest.Use("Bash", map[string]any{"command": "sessiongate session advance --to WORKING"}),
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "hello.txt"), "content": "hello\n"}),
				agenttest.Use("Agent", map[string]any{"description": "Validate the change", "prompt": qa, "subagent_type": "general-purpose"}),
				// Until the sub-agent's call is judged (its PreToolUse logged).
				agenttest.Use("Bash", map[string]any{"command": "sleep 4"}),
				agenttest.Use("Bash", map[string]any{"command": "sh test.sh"}),
				agenttest.Use("Bash", map[string]any{"command": "git add hello.txt && git commit -q -m 'add hello.txt'"}),
				agenttest.Use("Bash", map[string]any{"command": "sessiongate session end --summary 'added hello.txt'"}),
				{Text: "waiting for the qa agent", While: func(req agenttest.Request) bool { return !strings.Contains(req.NewText(), "<task-notification>") }},
				agenttest.Say("done"),
			}
			srv := agenttest.NewClaudeServer(t, turns...)
			srv.Subagent(qa, agenttest.Use("Bash", map[string]any{"command": "sleep 15; sh test.sh"}), agenttest.Say("QA passed"))
			res := r.claude("work", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Write", "Edit", "Bash", "Agent"}})
			names, ps := loggedEvents(t, logPath)
			for i, p := range ps {
				if _, sub := p["agent_id"]; sub || names[i] == "UserPromptSubmit" {
					b, _ := json.Marshal(p)
					t.Logf("%s: %.700s", names[i], b)
				}
			}
			show := r.onlySession()
			state, codes := show["session"].(map[string]any)["state"], violationCodes(show)
			t.Logf("exit %d in %s; events %v; state %v, violations %q", res.ExitCode, res.Elapsed, names, state, codes)
			if !lazy && (state != "COMPLETE" || codes != "") {
				for _, v := range show["violations"].([]any) {
					t.Logf("violation %.400v", v)
				}
				t.Errorf("state %v, violations %q; want COMPLETE, none", state, codes)
			}
			if lazy && !strings.Contains(codes, "TOOL_RESULT_MISSING") {
				t.Errorf("violations %q; want TOOL_RESULT_MISSING (the post hook was dropped)", codes)
			}
		})
	}
}
