package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/transcript"
)

// Claude Code 2.1.330's lines for an Agent call it ran in the background
// (run_in_background unset; measured in internal/agenttest's
// TestClaudeBackgroundAgentMeasured): the launch's tool_result, then the
// <task-notification> prompt when the sub-agent stopped.
const (
	bgLaunched = `{"type":"assistant","cwd":"","message":{"role":"assistant","content":[{"type":"tool_use","id":"a1","name":"Agent","input":{"description":"Validate the change","prompt":"Validate the feature","subagent_type":"qa"}}]}}` + "\n" +
		`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"a1","type":"tool_result","content":[{"type":"text","text":"Async agent launched successfully.\nagentId: b7"}]}]},"toolUseResult":{"isAsync":true,"status":"async_launched","agentId":"b7"}}` + "\n"
	bgNotified = `{"type":"user","message":{"role":"user","content":"<task-notification>\n<task-id>b7</task-id>\n<tool-use-id>a1</tool-use-id>\n<status>completed</status>\n<result>QA passed</result>\n</task-notification>"},"origin":{"kind":"task-notification"}}` + "\n"
)

// TestTranscriptBackgroundDelegation (round 26, c3): a qa sub-agent Claude
// Code ran in the background meets "invoke the qa agent" when its
// notification came, and only a notification the UserPromptSubmit hook
// saw: a line the agent's shell appends to the transcript is no
// notification. Before, the launch's tool_result alone met it.
func TestTranscriptBackgroundDelegation(t *testing.T) {
	requireGit(t)
	tests := []struct {
		name   string
		lines  string
		hook   string // the status the UserPromptSubmit hook saw, "" none
		status string
	}{
		{"honest: launched, waited for, notified", bgLaunched + bgNotified, "completed", session.ReqMet},
		{"lazy: launched, never waited for", bgLaunched, "", session.ReqOpen},
		{"lazy: the notification line written by the agent", bgLaunched + bgNotified, "", session.ReqOpen},
		{"lazy: the sub-agent failed, its notification line rewritten", bgLaunched + bgNotified, "failed", session.ReqOpen},
		{"honest: run in the foreground", claudeLines("a1", "Agent", `{"description":"Validate","prompt":"Validate","subagent_type":"qa"}`, "QA passed", false), "", session.ReqMet},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, delegateProtocol)
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			gittest.Write(t, e.root, ".claude/agents/qa.md", "---\nname: qa\ndescription: QA\n---\nValidate.\n")
			gittest.Git(t, e.root, "add", ".claude")
			gittest.Git(t, e.root, "commit", "-q", "-m", "qa agent")
			id := e.start("delegation")
			path := filepath.Join(t.TempDir(), "projects", "p", "s.jsonl")
			os.MkdirAll(filepath.Dir(path), 0o700)
			if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
				t.Fatal(err)
			}
			if tt.hook != "" {
				if err := e.engine.RecordTaskNotified(ctx, id, transcript.TaskNotification{TaskID: "b7", ToolUseID: "a1", Status: tt.hook}); err != nil {
					t.Fatal(err)
				}
			}
			appendTo(t, path, tt.lines)
			st := e.reqStatus(id, txReqQA)
			if st.Status != tt.status {
				t.Fatalf("%s %q, want %s", st.Status, st.Reason, tt.status)
			}
			if tt.status == session.ReqOpen && !strings.Contains(st.Reason, "qa") {
				t.Errorf("reason %q names no qa sub-agent", st.Reason)
			}
		})
	}
}
