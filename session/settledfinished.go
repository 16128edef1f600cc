package session

import (
	"context"
	"errors"
	"strings"

	"github.com/sessiongate/sessiongate/transcript"
)

// A new prompt settles the calls still pending as interrupted: Claude Code
// sends no post-tool event for an interrupted call. A lazy agent whose
// post-tool hook never ran for a call (dropped, or killed) could send that
// prompt itself, from a background job of its shell after the call ended
// (`(sleep 5; ... agent-hook claude UserPromptSubmit < p.json) &`), or in a
// call whose own post it also dropped: nothing reported after the prompt,
// so PROMPT_DURING_CALL never fired and the calls were settled, clean.
// Claude Code writes every call's result into its transcript, an
// interrupted one's as a rejection (transcript.ClaudeFinished), so a call
// the transcript shows finished was not interrupted: the prompt did not
// settle it, and it is owed again at Stop and at the gates
// (TOOL_RESULT_MISSING).

// settledButFinished lists the calls of agent (Claude Code only) that a new
// prompt settled as interrupted, that never reported and were not named
// missing since, and that the session's Claude Code transcript shows ran to
// their end. Nothing is read unless such a settled call exists.
func (e *Engine) settledButFinished(ctx context.Context, sessionID string, evs []Event, agent string) []pendingCall {
	return e.settledNotInterrupted(ctx, sessionID, evs, agent, false)
}

// settledUninterrupted is settledButFinished at a Stop or a gate, after
// the prompt: a settled Claude Code call the transcript shows neither
// finished nor interrupted (no tool_result at all) is owed too. Claude
// Code writes a result for each call the user interrupts before it takes
// the next prompt (transcript.ClaudeUninterrupted), so such a call was
// still running when the prompt came: a `sessiongate hook claude
// UserPromptSubmit` run from its own shell, which then killed the CLI so
// the call never reported either (round 30, c4: the session stayed
// WORKING, clean). The prompt itself judges only finished calls: the
// transcript may not hold the interrupt's result yet when its hook runs.
func (e *Engine) settledUninterrupted(ctx context.Context, sessionID string, evs []Event, agent string) []pendingCall {
	return e.settledNotInterrupted(ctx, sessionID, evs, agent, true)
}

// settledNotInterrupted is settledButFinished, and with noResult
// settledUninterrupted.
func (e *Engine) settledNotInterrupted(ctx context.Context, sessionID string, evs []Event, agent string, noResult bool) []pendingCall {
	if agent != transcript.Claude && agent != transcript.Codex {
		return nil
	}
	tr, ok := e.Store.(TranscriptReader)
	if !ok {
		return nil
	}
	done := map[string]bool{}
	var settled []string
	for _, ev := range evs {
		f := strings.Fields(ev.Detail)
		switch {
		case ev.Token == TokenToolResult && len(f) == 2 && f[0] == agent,
			ev.Token == TokenToolUnreported && len(f) == 3 && f[0] == agent && f[2] == "missing":
			done[f[1]] = true
		case isSettle(ev, agent):
			settled = append(settled, f[1])
		}
	}
	var ids []string
	for _, id := range settled {
		if !done[id] {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	list, err := tr.SessionTranscripts(ctx, sessionID)
	if err != nil {
		return nil
	}
	finished := map[string]bool{}
	// withResult: the calls a Claude Code transcript of the session holds
	// a result for; read: one transcript was read whole.
	withResult, read := map[string]bool{}, false
	for _, t := range list {
		if t.Agent != agent {
			continue
		}
		if t.Broken != "" {
			// Found rewritten (by a gate, or here before): nothing from it
			// counts, so no settled call was interrupted. Skipping it let
			// a copy renamed over the file, seen first by a gate, settle
			// a finished call clean (TestRenamedCopyAtTheGate).
			for _, id := range ids {
				finished[id] = true
			}
			continue
		}
		// A copy renamed over a transcript the CLI would not compact yet
		// (sed -i, os.replace): as a rewrite in place.
		err := transcript.JudgeReplaced(agent, t.Path, t.State, transcript.Intact(t.Path, t.State))
		if errors.Is(err, transcript.ErrTampered) || errors.Is(err, transcript.ErrChanged) {
			// A rejection written over a finished call: nothing from the
			// transcript counts, so no settled call was interrupted.
			e.transcriptTampered(ctx, sessionID, t, err)
			for _, id := range ids {
				finished[id] = true
			}
			continue
		}
		var got map[string]bool
		var err2 error
		if agent == transcript.Codex {
			got, err2 = transcript.CodexFinished(t.Path, ids) // measured in round 23
		} else {
			var res map[string]bool
			got, res, err2 = transcript.ClaudeResults(t.Path, ids)
			for id := range res {
				withResult[id] = true
			}
		}
		if err2 != nil {
			continue // unreadable: decided as before
		}
		read = true
		for id := range got {
			finished[id] = true
		}
	}
	noResultIDs := map[string]bool{}
	if noResult && agent == transcript.Claude && read {
		for _, id := range ids {
			if !withResult[id] && !finished[id] {
				noResultIDs[id], finished[id] = true, true
			}
		}
	}
	if len(finished) == 0 {
		return nil
	}
	tok := judgedToken(agent)
	var out []pendingCall
	seen := map[string]bool{}
	for _, ev := range evs {
		f := strings.Fields(ev.Detail)
		if ev.Token != tok || len(f) < 3 || !finished[f[0]] || seen[f[0]] {
			continue
		}
		seen[f[0]] = true
		why := ", settled by a prompt although the transcript shows it finished"
		if noResultIDs[f[0]] {
			why = ", settled by a prompt although the transcript shows no interrupt of it (no result: still running at the prompt)"
		}
		out = append(out, pendingCall{id: f[0], tool: f[1] + why})
	}
	return out
}

// addCalls appends the calls of more that pend does not hold yet.
func addCalls(pend, more []pendingCall) []pendingCall {
	for _, m := range more {
		dup := false
		for _, p := range pend {
			if p.id == m.id {
				dup = true
				break
			}
		}
		if !dup {
			pend = append(pend, m)
		}
	}
	return pend
}
