package agenthook

import (
	"context"
	"github.com/sessiongate/sessiongate/hookroute"
	"strings"

	"github.com/sessiongate/sessiongate/session"
)

// inputRewritten checks a Claude Code PostToolUse against its PreToolUse:
// the input that ran must be the one judged (session.ToolInputRewritten).
// A `sessiongate` shim first on PATH runs as the committed by-name hook
// beside the local config's hook and can answer `updatedInput`; Claude
// Code then runs the rewritten call, which no hook judged. Only Claude
// Code's hooks are compared: its PostToolUse carries the input as run and
// the tool_use_id PreToolUse saw.
//
// The whole input is compared (judgedinput): a rewrite of a Bash call's
// run_in_background or timeout, or of a write tool's file_path, is caught
// as well as one of its command. A write that ran rewritten has its
// protected files re-checked at once (RewrittenWriteProtected).
func (r *Runner) inputRewritten(ctx context.Context, eng *session.Engine, ev *Event, sid string) (string, error) {
	if copilotPaired(ev) {
		shown := ev.Tool.Command
		if ev.Tool.Kind == session.ToolEdit {
			shown = strings.Join(ev.Tool.Paths, " ")
		}
		why, err := eng.CopilotPost(ctx, sid, ev.Tool.Name, ev.InputDigest, shown)
		if err != nil || why == "" || ev.Tool.Kind != session.ToolEdit {
			return why, err
		}
		prot, err := eng.RewrittenWriteProtected(ctx, sid)
		if prot != "" {
			why += "; " + prot
		}
		return why, err
	}
	if !postCompared(ev) {
		return "", nil
	}
	shown := ev.Tool.Command
	if ev.Tool.Kind == session.ToolEdit {
		shown = ev.Tool.Name + " " + strings.Join(ev.Tool.Paths, " ")
	}
	why, err := eng.ToolInputRewritten(ctx, sid, ev.Agent, ev.ToolID, ev.Tool.Name, shown, ev.ToolDigest, ev.InputDigest)
	if err != nil || why == "" || ev.Tool.Kind != session.ToolEdit {
		return why, err
	}
	prot, err := eng.RewrittenWriteProtected(ctx, sid)
	if prot != "" {
		why += "; " + prot
	}
	return why, err
}

// judgedTool: the Claude Code tools whose whole input PreToolUse keeps
// (KeepJudgedInput) and PostToolUse compares: Bash and the write tools.
// Reads are left out (their hook does no policy work); their witness
// digest is already of their whole input.
func judgedTool(ev *Event) bool {
	return ev.Tool.Kind == session.ToolShell || ev.Tool.Kind == session.ToolEdit || hookroute.WitnessedTool(ev.Tool.Name)
}

// postCompared: a post-tool event whose input is compared with the judged
// one (Claude Code's, which names the call's id).
func postCompared(ev *Event) bool {
	return ev.Agent == "claude" && ev.ToolID != "" && judgedTool(ev)
}

// copilotPaired: a Copilot (camelCase hooks) shell or write call, whose
// pre- and post-tool events pair by tool and input digest: they carry no
// call id.
func copilotPaired(ev *Event) bool {
	return ev.Agent == "copilot" && ev.InputDigest != "" && (ev.Tool.Kind == session.ToolShell || ev.Tool.Kind == session.ToolEdit)
}
