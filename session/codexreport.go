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
// TokenGeminiJudged is Gemini CLI's for run_shell_command, by the id its
// BeforeTool and AfterTool share (session and command line; identical
// lines pair by count, in order).
//
// TokenCursorJudged is Cursor's for beforeShellExecution, by conversation
// and command line (its documented payloads carry no call id), reported by
// afterShellExecution.
const (
	TokenCodexJudged  = "agent:codex:judged"
	TokenGeminiJudged = "agent:gemini:judged"
	TokenCursorJudged = "agent:cursor:judged"
)

// KeepOwedReport records a call of agent (codex, gemini, cursor) its pre-tool
// hook allowed and whose post-tool hook must report it.
func (e *Engine) KeepOwedReport(ctx context.Context, sessionID, agent, toolID, tool string) error {
	if toolID == "" || len(toolID) > 200 || strings.ContainsAny(toolID, " \t\n") || tool == "" || strings.ContainsAny(tool, " \t\n") {
		return nil
	}
	err := e.Store.Update(ctx, func(w Writer) error {
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: judgedToken(agent), Detail: toolID + " " + tool + " -", CreatedAt: e.now()})
	})
	if err != nil {
		return fmt.Errorf("keep the judged call: %w", err)
	}
	return nil
}
