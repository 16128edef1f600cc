package agenthook_test

import (
	"context"
	"strings"
	"testing"
)

// TestClaudeFailedCallOutcomeKept: the hook side of
// session/TestTranscriptOutcomeAgainstHook. Claude Code's PostToolUseFailure
// of an MCP or sub-agent call is kept as agent:result:failed, which a gate
// takes over a transcript line rewritten to a pass; a Bash failure is not
// (its status is observed already), nor is an MCP call's PostToolUse.
func TestClaudeFailedCallOutcomeKept(t *testing.T) {
	tests := []struct {
		name  string
		event string
		tool  string
		kept  bool
	}{
		{"MCP call failed", "PostToolUseFailure", "mcp__serena__activate_project", true},
		{"sub-agent run failed", "PostToolUseFailure", "Agent", true},
		{"MCP call passed", "PostToolUse", "mcp__serena__activate_project", false},
		{"Bash failed: observed, not kept here", "PostToolUseFailure", "Bash", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0031"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			in := map[string]any{"project": "."}
			if tt.tool == "Bash" {
				in = map[string]any{"command": "ls"}
			} else if tt.tool == "Agent" {
				in = map[string]any{"subagent_type": "qa", "prompt": "check", "description": "qa"}
			}
			const id = "toolu_outcome1"
			r.hook("claude", "PreToolUse", with(golden(t, r, "claude", "PreToolUse-Bash", sid), "tool_name", tt.tool, "tool_use_id", id, "tool_input", in))
			post := with(golden(t, r, "claude", "PostToolUseFailure-Bash", sid), "tool_name", tt.tool, "tool_use_id", id, "tool_input", in, "error", "MCP error -32000: Connection closed")
			if tt.event == "PostToolUse" {
				post = with(golden(t, r, "claude", "PostToolUse-Bash", sid), "tool_name", tt.tool, "tool_use_id", id, "tool_input", in, "tool_response", "Activated")
			}
			r.hook("claude", tt.event, post)
			evs, err := r.db().ListEvents(context.Background(), s.ID, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			kept := false
			for _, ev := range evs {
				kept = kept || ev.Token == "agent:result:failed" && strings.HasSuffix(ev.Detail, " "+id)
			}
			if kept != tt.kept {
				t.Errorf("agent:result:failed kept %v, want %v", kept, tt.kept)
			}
		})
	}
}
