package session

import (
	"context"
	"fmt"
	"strings"
)

// TokenJudgedInput is the event Claude Code's PreToolUse hook keeps for a
// call it allowed: "<tool_use_id> <tool> <judgedinput.Digest>", followed
// by " sub:<agent_id>" for a sub-agent's call (round 28). The
// witness (TokenAgentCall) names a Bash call by its command line only and
// is kept for no write tool; this one covers the whole input of every
// call the hook judges but reads, so PostToolUse can compare what ran.
const TokenJudgedInput = "agent:claude:judged"

// KeepJudgedInput records the digest of the whole input of a call the
// pre-tool hook allowed (ToolInputRewritten compares it). Nothing is kept
// for an id that is missing or could break the detail's fields. sub is the
// payload's agent_id when a sub-agent made the call ("" for the main
// agent): a gate leaves such a call to its sub-agent's notification
// (subagentcalls.go), since the sub-agent may still be running it.
func (e *Engine) KeepJudgedInput(ctx context.Context, sessionID, toolID, tool, digest, sub string) error {
	if toolID == "" || len(toolID) > 200 || strings.ContainsAny(toolID, " \t\n") || len(digest) != 64 || strings.ContainsAny(tool, " \t\n") {
		return nil
	}
	detail := toolID + " " + tool + " " + digest
	if ValidSubagentID(sub) {
		detail += " " + subPrefix + sub
	}
	err := e.Store.Update(ctx, func(w Writer) error {
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: TokenJudgedInput, Detail: detail, CreatedAt: e.now()})
	})
	if err != nil {
		return fmt.Errorf("keep the judged tool input: %w", err)
	}
	return nil
}

// RewrittenWriteProtected re-checks the protected files after a write tool
// ran with a rewritten input (its path was never judged): a change to one
// is recorded as the PROTECTED_CHANGE violation pre-commit and the gates
// would record, now rather than at the next gate. It returns the reason,
// "" when no protected file changed.
func (e *Engine) RewrittenWriteProtected(ctx context.Context, sessionID string) (string, error) {
	if e.OpenRepo == nil {
		return "", nil
	}
	s, err := e.Store.GetSession(ctx, sessionID)
	if err != nil {
		return "", fmt.Errorf("load session %s to check protected files: %w", sessionID, err)
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return "", fmt.Errorf("open worktree %s to check protected files: %w", s.Worktree, err)
	}
	why, vio, err := e.sessionProtected(ctx, s, repo)
	if err != nil {
		return "", fmt.Errorf("check protected files after a rewritten write: %w", err)
	}
	if vio != nil {
		if err := e.Store.Update(ctx, func(w Writer) error { return w.AddViolation(ctx, vio) }); err != nil {
			return "", fmt.Errorf("record the protected change: %w", err)
		}
		e.publishViolations(ctx, sessionID, vio)
	}
	return why, nil
}
