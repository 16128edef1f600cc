package session

import (
	"context"

	"github.com/sessiongate/sessiongate/transcript"
)

// stillRunning drops from pend the Codex calls the session's rollout shows
// left running when the model's yield time ran out ("Process running with
// session ID N"): Codex sends no PostToolUse for them, then or later, so
// an honest test suite longer than the yield was a TOOL_RESULT_MISSING at
// Stop and at every gate (round 24, real Codex). Only an intact rollout is
// believed (the seals of transcript.Intact); anything else keeps the call
// owed. Such a call is no evidence either: nothing reported its status.
func (e *Engine) stillRunning(ctx context.Context, sessionID, agent string, pend []pendingCall) []pendingCall {
	if agent != transcript.Codex || len(pend) == 0 {
		return pend
	}
	tr, ok := e.Store.(TranscriptReader)
	if !ok {
		return pend
	}
	list, err := tr.SessionTranscripts(ctx, sessionID)
	if err != nil {
		return pend
	}
	ids := make([]string, 0, len(pend))
	for _, p := range pend {
		ids = append(ids, p.id)
	}
	running := map[string]bool{}
	for _, t := range list {
		if t.Agent != agent || t.Broken != "" || transcript.Intact(t.Path, t.State) != nil {
			continue
		}
		got, err := transcript.CodexRunning(t.Path, ids)
		if err != nil {
			continue
		}
		for id := range got {
			running[id] = true
		}
	}
	if len(running) == 0 {
		return pend
	}
	out := pend[:0:0]
	for _, p := range pend {
		if !running[p.id] {
			out = append(out, p)
		}
	}
	return out
}
