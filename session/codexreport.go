package session

import (
	"context"
	"fmt"
	"strings"
)

// TokenCodexJudged is what Codex's PreToolUse keeps for a Bash call it
// allowed that owes a report: "<tool_use_id> <tool> -". Its PostToolUse
// marks the id reported (RecordToolResult); Stop and the gates name a
// call still pending (TOOL_RESULT_MISSING), as for Claude Code.
const TokenCodexJudged = "agent:codex:judged"

// KeepCodexJudged records a Codex call its PreToolUse allowed.
func (e *Engine) KeepCodexJudged(ctx context.Context, sessionID, toolID, tool string) error {
	if toolID == "" || len(toolID) > 200 || strings.ContainsAny(toolID, " \t\n") || tool == "" || strings.ContainsAny(tool, " \t\n") {
		return nil
	}
	err := e.Store.Update(ctx, func(w Writer) error {
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: TokenCodexJudged, Detail: toolID + " " + tool + " -", CreatedAt: e.now()})
	})
	if err != nil {
		return fmt.Errorf("keep the judged Codex call: %w", err)
	}
	return nil
}
