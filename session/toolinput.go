package session

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/hookroute"
	"strings"
)

// CodeToolInputRewritten: a tool call ran with other input than the one
// sessiongate's PreToolUse hook judged. Under Claude Code a `sessiongate`
// shim first on PATH still runs as the committed by-name hook, beside the
// local config's hook, and its `updatedInput` replaces the call's input
// after the real hook allowed the original; when both hooks answer
// updatedInput the one that finishes last wins (tried with the real CLI),
// so answering the judged input back is a race, not a fix. PostToolUse
// carries the input as run with the same tool_use_id: compared with the
// witness PreToolUse kept, a mismatch is this violation.
const CodeToolInputRewritten = "TOOL_INPUT_REWRITTEN"

// recentCallEvents is how many of a session's last events the post-tool
// hook looks through for the call's judged input before reading the
// call's events by id: a tool call records a few.
const recentCallEvents = 64

// ToolInputRewritten compares the input digest of a call that ran (the
// post-tool hook's) with the digests the pre-tool hook kept for the same
// call id (AgentToolCall). It returns "" when they agree, when the hook
// kept no digest for the id (nothing judged it here: an older hook, a
// tool it does not witness), or when digest is unknown; otherwise it
// records a HIGH CodeToolInputRewritten violation and says why.
//
// Since round 18 the whole input is compared: the pre-tool hook keeps the
// judgedinput.Digest of the input it allowed (KeepJudgedInput) and the
// post-tool hook passes its own as judged; where a judged digest was kept
// for the id it decides, else the witness digest does (a hook of an older
// version). shown is what the message names: a command, a path.
func (e *Engine) ToolInputRewritten(ctx context.Context, sessionID, agent, toolID, tool, shown, digest, judged string) (string, error) {
	_, _, token, ok := witnessSide(agent)
	if !ok || toolID == "" || len(digest) != 64 && len(judged) != 64 {
		return "", nil
	}
	// The judged input of a call is usually among the session's last
	// events (the pre-tool hook ran just before): a match there is what
	// the whole read below would find too, at a cost that does not grow
	// with the session.
	if len(judged) == 64 {
		recent, err := e.Store.LastEvents(ctx, sessionID, recentCallEvents, TokenJudgedInput)
		if err != nil {
			return "", fmt.Errorf("read the pre-tool witnesses: %w", err)
		}
		for _, ev := range recent {
			if f := strings.Fields(ev.Detail); len(f) >= 3 && f[0] == toolID && f[2] == judged {
				return "", nil
			}
		}
	}
	// Both tokens' details start with the call id: only this call's
	// events are read (a long session holds thousands of others).
	evs, err := e.eventsWithPrefix(ctx, sessionID, toolID+" ", token, TokenJudgedInput)
	if err != nil {
		return "", fmt.Errorf("read the pre-tool witnesses: %w", err)
	}
	var kept, keptMatch, witnessed, witnessMatch bool
	for _, ev := range evs {
		if ev.Token != token && ev.Token != TokenJudgedInput {
			continue
		}
		f := strings.Fields(ev.Detail)
		if len(f) < 3 || f[0] != toolID {
			continue
		}
		if ev.Token == TokenJudgedInput {
			kept = true
			keptMatch = keptMatch || len(judged) == 64 && f[2] == judged
			continue
		}
		witnessed = true
		witnessMatch = witnessMatch || len(digest) == 64 && f[2] == digest
	}
	switch {
	case kept && keptMatch, !kept && (!witnessed || witnessMatch):
		return "", nil
	}
	why := fmt.Sprintf("%s ran call %s (%s) with other input than sessiongate's PreToolUse hook judged: it ran `%s`. Another hook answered with a rewritten input (a `sessiongate` earlier on PATH than the installed one?), so this call was never checked",
		hookroute.AgentName(agent), toolID, tool, truncate(shown, 120))
	now := e.now()
	var v *Violation
	err = e.Store.Update(ctx, func(w Writer) error {
		cur, err := w.GetSession(ctx, sessionID)
		if err != nil {
			return err
		}
		v = &Violation{SessionID: sessionID, RepoID: cur.RepoID, Phase: cur.Phase, Severity: SeverityHigh, Code: CodeToolInputRewritten,
			Window: WindowSession, Message: truncate(why, 500), CreatedAt: now}
		if err := w.AddViolation(ctx, v); err != nil {
			return err
		}
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: "agent:" + agent + ":input-rewritten", Detail: truncate(toolID+" "+tool+" "+judged, 300), CreatedAt: now})
	})
	if err != nil {
		return "", fmt.Errorf("record the rewritten tool input: %w", err)
	}
	e.publishViolations(ctx, sessionID, v)
	return why, nil
}
