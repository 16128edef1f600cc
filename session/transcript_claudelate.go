package session

import (
	"context"
	"fmt"
	"maps"
	"os"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/transcript"
)

// Claude Code writes its transcript through a queue it flushes every 100 ms
// (measured in 2.1.330: its session storage's FLUSH_INTERVAL_MS), so a call's
// tool_result can reach the file after the call's PostToolUse hook ran and
// after the model asked for the next call. A gate run by that next call
// (`sessiongate session advance` right after `cat docs/guide.md`) could read
// the transcript with the read's result still in the queue and refuse the
// honest read: the flake of TestClaudeForgedTranscriptLines "honest cat in
// the shell" under load. So a gate that finds a Claude Code call waiting for
// its result in the transcript while the PostToolUse hook already saw it
// report waits, up to the same bound as for Gemini CLI and Copilot
// (catchUp), and reads what the file gains. The gate's own call has not
// reported, so it is never waited for. A call still missing at the bound is
// recorded (transcriptBehindToken) and not waited for again.

// behindKey marks, in State.Witnessed, a call a gate stopped waiting for.
func behindKey(id string) string { return "behind:" + id }

// claudeCatchUp is catchUp for Claude Code's transcript.
func (e *Engine) claudeCatchUp(ctx, rctx context.Context, t *AgentTranscript, calls []transcript.Call, st transcript.State) ([]transcript.Call, transcript.State, *Event) {
	if t.Agent != transcript.Claude || len(st.Pending) == 0 {
		return calls, st, nil
	}
	if f := afterFirstRead.Load(); f != nil {
		(*f)(t.Path)
	}
	wait := transcriptWait(ctx)
	if wait <= 0 {
		return calls, st, nil
	}
	evs, err := e.eventsWith(ctx, t.SessionID, TokenToolResult)
	if err != nil {
		return calls, st, nil // nothing to compare: decide as before
	}
	reported := map[string]bool{}
	for _, ev := range evs {
		if f := strings.Fields(ev.Detail); len(f) == 2 && f[0] == transcript.Claude {
			reported[f[1]] = true
		}
	}
	behind := func(st transcript.State) []string {
		var ids []string
		for _, c := range st.Pending {
			if reported[c.ID] && st.Witnessed[behindKey(c.ID)] == 0 {
				ids = append(ids, c.ID)
			}
		}
		return ids
	}
	ids := behind(st)
	if len(ids) == 0 {
		return calls, st, nil
	}
	start := time.Now()
	deadline := start.Add(wait)
	if d, ok := rctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	size, mtime := int64(-2), time.Time{}
	for len(ids) > 0 && time.Now().Before(deadline) && rctx.Err() == nil {
		time.Sleep(min(transcript.CatchUpPoll, time.Until(deadline)))
		fi, err := os.Lstat(t.Path)
		if err != nil {
			break
		}
		if fi.Size() == size && fi.ModTime().Equal(mtime) {
			continue
		}
		size, mtime = fi.Size(), fi.ModTime()
		more, next, err := transcript.Tail(rctx, t.Path, t.Agent, st, 0)
		if err != nil {
			break // the next read says what is wrong
		}
		calls, st = append(calls, more...), next
		ids = behind(st)
	}
	if len(ids) == 0 {
		return calls, st, &Event{Token: transcriptLateToken(t.Agent), Detail: truncate(fmt.Sprintf("waited %s for the result line(s) of call(s) Claude Code's PostToolUse hook had seen report",
			time.Since(start).Round(10*time.Millisecond)), 300)}
	}
	w := maps.Clone(st.Witnessed)
	if w == nil {
		w = map[string]int{}
	}
	for _, id := range ids {
		w[behindKey(id)] = 1
	}
	st.Witnessed = w
	return calls, st, &Event{Token: transcriptBehindToken(t.Agent), Detail: truncate(fmt.Sprintf("Claude Code's PostToolUse hook saw %s report; after waiting %s the transcript %s shows no result, so the gate decided on what it shows",
		strings.Join(ids, ", "), time.Since(start).Round(10*time.Millisecond), t.Path), 300)}
}
