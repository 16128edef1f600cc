package agenthook

import (
	"context"

	"github.com/sessiongate/sessiongate/session"
)

// inputRewritten checks a Claude Code PostToolUse against its PreToolUse:
// the input that ran must be the one judged (session.ToolInputRewritten).
// A `sessiongate` shim first on PATH runs as the committed by-name hook
// beside the local config's hook and can answer `updatedInput`; Claude
// Code then runs the rewritten call, which no hook judged. Only Claude
// Code's hooks are compared: its PostToolUse carries the input as run and
// the tool_use_id PreToolUse saw.
func (r *Runner) inputRewritten(ctx context.Context, eng *session.Engine, ev *Event, sid string) (string, error) {
	if ev.Agent != "claude" || ev.ToolID == "" || ev.ToolDigest == "" || !session.WitnessedTool(ev.Tool.Name) {
		return "", nil
	}
	return eng.ToolInputRewritten(ctx, sid, ev.Agent, ev.ToolID, ev.Tool.Name, ev.Tool.Command, ev.ToolDigest)
}
