package session

import (
	"context"
	"fmt"
	"strings"
)

// A Claude Code sub-agent run in the background goes on after the main
// turn: its calls may still run when the main agent runs a gate (`session
// end`, a commit). Its PreToolUse carries agent_id (measured with 2.1.330,
// TestClaudeGateWhileSubagentRuns), which KeepJudgedInput keeps; the
// <task-notification> sent when it stops names the same id as task-id.
// Round 28 (c3): a gate leaves such a call pending (before, an honest
// session got a false TOOL_RESULT_MISSING), and the call is judged when its
// sub-agent's notification arrives (SubagentCallsEnded: "completed" with a
// call unreported is the missing report, another status settles them as
// interrupted), at the next judged stop (no sub-agent runs then), or at
// SessionEnd (the CLI ended while they ran: settled as interrupted, as a
// prompt settles an interrupted main call). The id comes from the CLI's
// payload; a lazy agent can give its own calls one only by running them in
// a real sub-agent, whose calls owe a report the same way.

// subPrefix marks a judged call's sub-agent in its detail's fourth field.
const subPrefix = "sub:"

// ValidSubagentID reports whether id can be kept as one field of a
// detail: not empty, at most 100 bytes, no space.
func ValidSubagentID(id string) bool {
	return id != "" && len(id) <= 100 && !strings.ContainsAny(id, " \t\n")
}

// judgedSub is the sub-agent named by a judged call's detail fields.
func judgedSub(f []string) string {
	if len(f) >= 4 && strings.HasPrefix(f[3], subPrefix) {
		return f[3][len(subPrefix):]
	}
	return ""
}

// Settlement reasons of sub-agents' calls (TokenToolUnreported's third
// field): the sub-agent stopped other than "completed", or the CLI ended
// while it ran.
const (
	settledSubagentStopped = "subagent-stopped"
	settledCLIEnded        = "cli-ended"
)

// SubagentCallsEnded judges agent's pending calls made by sub-agent sub,
// or by any sub-agent when sub is "": status "completed" (its
// notification: the sub-agent ran every call to its end, so each owed its
// report) records the MEDIUM TOOL_RESULT_MISSING; any other status
// (killed, failed, or "" for the CLI's end) settles them with no
// violation. It returns the violation, nil when there is none.
func (e *Engine) SubagentCallsEnded(ctx context.Context, sessionID, agent, sub, status string) (*Violation, error) {
	evs, err := e.openCallEvents(ctx, sessionID, agent)
	if err != nil {
		return nil, fmt.Errorf("read the sub-agents' judged calls: %w", err)
	}
	var pend []pendingCall
	for _, p := range pendingCalls(evs, agent) {
		if p.sub != "" && (sub == "" || p.sub == sub) {
			pend = append(pend, p)
		}
	}
	if len(pend) == 0 {
		return nil, nil
	}
	if status == "completed" {
		return e.recordMissing(ctx, sessionID, agent, pend, fmt.Sprintf("%s's sub-agent %s completed, but %d of its tool call(s) that sessiongate's PreToolUse hook allowed never reported a result: %%s. What they ran was never compared with what was judged; is the PostToolUse hook missing from the agent's settings?", agentName(agent), sub, len(pend)))
	}
	why := settledSubagentStopped
	if sub == "" {
		why = settledCLIEnded
	}
	now := e.now()
	err = e.Store.Update(ctx, func(w Writer) error {
		for _, p := range pend {
			if err := w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: TokenToolUnreported, Detail: agent + " " + p.id + " " + why, CreatedAt: now}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("settle the sub-agents' unreported calls: %w", err)
	}
	return nil, nil
}
