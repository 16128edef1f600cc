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
	evs, err := e.eventsWith(ctx, sessionID, TokenToolFailed)
	if err != nil || len(evs) == 0 {
		return nil
	}
	failed := map[string]bool{}
	for _, ev := range evs {
		if f := strings.Fields(ev.Detail); len(f) == 2 && f[0] == transcript.Claude {
			failed[f[1]] = true
		}
	}
	var out []string
	for i := range calls {
		c := &calls[i]
		if c.Failed || c.Kind != transcript.MCP && c.Kind != transcript.Delegate || !failed[c.ID] {
			continue
		}
		c.Failed = true
		out = append(out, truncate(c.ID+" "+c.Tool+": Claude Code's PostToolUseFailure said the call failed; its transcript line says it passed (rewritten?), so it counts as failed", 300))
	}
	return out
}
