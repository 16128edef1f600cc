package session

import (
	"context"
	"strings"

	"github.com/sessiongate/sessiongate/transcript"
)

// A transcript's result line can be rewritten in the moment between the
// CLI writing it and the next hook event, before any seal covers it, by a
// writer the agent started in the background that finds the file by
// itself (issue 25 item 4, round 24). What the hook saw of the call binds
// it instead: Claude Code sends PostToolUseFailure, not PostToolUse, for
// an MCP or sub-agent call that failed, and the hook keeps that
// (TokenToolFailed). A Bash call's status is observed from the payload
// already (TestClaudeEditedResultExit); a read sends no post-tool event.

// failedByHook marks failed the MCP and sub-agent calls among calls whose
// transcript line says they passed while Claude Code's PostToolUseFailure
// said they failed, and returns one event detail per call so marked.
// Nothing is read unless such a call is among calls.
func (e *Engine) failedByHook(ctx context.Context, sessionID string, calls []transcript.Call) []string {
	any := false
	for _, c := range calls {
		any = any || !c.Failed && (c.Kind == transcript.MCP || c.Kind == transcript.Delegate)
	}
	if !any {
		return nil
	}
	evs, err := e.eventsWith(ctx, sessionID, TokenToolFailed, TokenTaskNotified)
	if err != nil {
		return nil
	}
	failed := map[string]bool{}
	completed := map[string]bool{}
	for _, ev := range evs {
		f := strings.Fields(ev.Detail)
		switch {
		case ev.Token == TokenToolFailed && len(f) == 2 && f[0] == transcript.Claude:
			failed[f[1]] = true
		case ev.Token == TokenTaskNotified && len(f) == 3 && f[0] == transcript.Claude && f[2] == "completed":
			completed[f[1]] = true
		}
	}
	var out []string
	for i := range calls {
		c := &calls[i]
		if c.Failed || c.Kind != transcript.MCP && c.Kind != transcript.Delegate {
			continue
		}
		switch {
		case failed[c.ID]:
			c.Failed = true
			out = append(out, truncate(c.ID+" "+c.Tool+": Claude Code's PostToolUseFailure said the call failed; its transcript line says it passed (rewritten?), so it counts as failed", 300))
		case c.Notified && !completed[c.ID]:
			// A background sub-agent finished by a notification line the
			// UserPromptSubmit hook never saw: a line the agent's shell
			// appended (TestClaudeBackgroundAgentForged).
			c.Failed = true
			out = append(out, truncate(c.ID+" "+c.Tool+": its transcript says the background sub-agent completed, but Claude Code sent no such <task-notification> prompt to the UserPromptSubmit hook (written into the transcript?), so it counts as failed", 300))
		}
	}
	return out
}

// TokenTaskNotified keeps a <task-notification> prompt Claude Code sent
// when a background sub-agent stopped: "claude <tool-use-id> <status>".
// It is what makes the transcript's notification count (failedByHook).
const TokenTaskNotified = "agent:claude:notified"

// RecordTaskNotified keeps the notification n the UserPromptSubmit hook saw.
func (e *Engine) RecordTaskNotified(ctx context.Context, sessionID string, n transcript.TaskNotification) error {
	if n.ToolUseID == "" || len(n.ToolUseID) > 200 || len(n.Status) > 40 {
		return nil
	}
	return e.Store.Update(ctx, func(w Writer) error {
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: TokenTaskNotified, Detail: transcript.Claude + " " + n.ToolUseID + " " + n.Status, CreatedAt: e.now()})
	})
}
