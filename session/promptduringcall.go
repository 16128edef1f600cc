package session

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// CodePromptDuringCall: a new prompt (UserPromptSubmit) settled a judged
// call as interrupted, and that call reported afterwards: it was still
// running when the prompt came. Claude Code sends a new prompt only once
// the turn stopped or was interrupted, and an interrupted call never
// reports (TestClaudeInterruptSendsNoPostToolUse), so the prompt came from
// inside the call: the agent ran `sessiongate hook claude UserPromptSubmit`
// from its own shell to settle the calls whose post-tool hook never ran.
// The calls it settled and that never reported are named. MEDIUM, as
// TOOL_RESULT_MISSING: the session is not clean and a person reads it.
const CodePromptDuringCall = "PROMPT_DURING_CALL"

// tokenPromptDuringCall keeps that a settle batch was already flagged:
// detail "<agent> <seq of the batch's first event>".
const tokenPromptDuringCall = "agent:prompt-during-call"

// settledInterrupted is the why SettleUnreported records for a new prompt.
const settledInterrupted = "interrupted"

// ReportAfterPrompt runs when agent's call toolID reported (its post-tool
// hook ran). If a new prompt had settled the call as interrupted, the
// prompt came while it ran: one MEDIUM CodePromptDuringCall naming the
// other calls that prompt settled and that never reported. The batch is
// flagged once. It returns the violation, nil when there is none.
func (e *Engine) ReportAfterPrompt(ctx context.Context, sessionID, agent, toolID string) (*Violation, error) {
	if toolID == "" || strings.ContainsAny(toolID, " \t\n") {
		return nil, nil
	}
	settled := func(ev Event) (string, bool) {
		f := strings.Fields(ev.Detail)
		if ev.Token != TokenToolUnreported || len(f) != 3 || f[0] != agent || f[2] != settledInterrupted {
			return "", false
		}
		return f[1], true
	}
	// Most calls were never settled: ask this call's settlements first, so
	// the post-tool hook reads the session's settled and reported calls
	// only when a prompt settled this one.
	mine, err := e.eventsWithPrefix(ctx, sessionID, agent+" "+toolID+" ", TokenToolUnreported)
	if err != nil {
		return nil, fmt.Errorf("read the settled tool calls: %w", err)
	}
	if !slices.ContainsFunc(mine, func(ev Event) bool { id, ok := settled(ev); return ok && id == toolID }) {
		return nil, nil
	}
	evs, err := e.eventsWith(ctx, sessionID, TokenToolUnreported, tokenPromptDuringCall, TokenToolResult)
	if err != nil {
		return nil, fmt.Errorf("read the settled tool calls: %w", err)
	}
	at := -1
	for i, ev := range evs {
		if id, ok := settled(ev); ok && id == toolID {
			at = i
		}
	}
	if at < 0 {
		return nil, nil
	}
	// One prompt's settle is one transaction: its events are adjacent,
	// their seqs consecutive (evs holds only some tokens' events).
	lo, hi := at, at
	for lo > 0 {
		if _, ok := settled(evs[lo-1]); !ok || evs[lo-1].Seq != evs[lo].Seq-1 {
			break
		}
		lo--
	}
	for hi+1 < len(evs) {
		if _, ok := settled(evs[hi+1]); !ok || evs[hi+1].Seq != evs[hi].Seq+1 {
			break
		}
		hi++
	}
	batch := fmt.Sprintf("%s %d", agent, evs[lo].Seq)
	reported := map[string]bool{}
	for _, ev := range evs {
		if ev.Token == tokenPromptDuringCall && ev.Detail == batch {
			return nil, nil // flagged when another of its calls reported
		}
		if f := strings.Fields(ev.Detail); ev.Token == TokenToolResult && len(f) == 2 && f[0] == agent {
			reported[f[1]] = true
		}
	}
	var names []string
	for _, ev := range evs[lo : hi+1] {
		if id, _ := settled(ev); id != toolID && !reported[id] {
			names = append(names, id)
		}
	}
	why := fmt.Sprintf("a new prompt to %s settled call %s as interrupted, but the call reported afterwards: it was still running, so the prompt was sent from inside it (a `sessiongate hook` run from the agent's shell), not by the user",
		agentName(agent), toolID)
	if len(names) > 0 {
		why += fmt.Sprintf("; the %d call(s) it settled that never reported: %s", len(names), strings.Join(names, ", "))
	}
	now := e.now()
	var v *Violation
	err = e.Store.Update(ctx, func(w Writer) error {
		cur, err := w.GetSession(ctx, sessionID)
		if err != nil {
			return err
		}
		v = &Violation{SessionID: sessionID, RepoID: cur.RepoID, Phase: cur.Phase, Severity: SeverityMedium, Code: CodePromptDuringCall,
			Window: WindowSession, Message: truncate(why, 500), CreatedAt: now}
		if err := w.AddViolation(ctx, v); err != nil {
			return err
		}
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: tokenPromptDuringCall, Detail: batch, CreatedAt: now})
	})
	if err != nil {
		return nil, fmt.Errorf("record the prompt sent during a call: %w", err)
	}
	e.publishViolations(ctx, sessionID, v)
	return v, nil
}

// settledByPromptInFlight lists, at a gate, the calls a new prompt settled
// as interrupted while the gate's own call ran: the agent's newest judged
// call is a shell call that prompt settled (nothing judged since), so the
// gate runs inside it and the prompt came from inside it too
// (`sessiongate hook claude UserPromptSubmit <p; sessiongate session end`
// in one call, whose post only comes once the session ended). The other
// calls of that settle never reported and are owed again; the newest is
// the gate's own. A real prompt after an interrupt settles only the
// interrupted call (Claude Code runs one shell or write call at a time),
// so a person's gate run before the agent's next call names nothing.
func (e *Engine) settledByPromptInFlight(ctx context.Context, sessionID string, evs []Event, agent string, newestEv *Event) ([]pendingCall, error) {
	if newestEv == nil {
		return nil, nil
	}
	newest := strings.Fields(newestEv.Detail)
	if len(newest) < 3 || !shellTools[newest[1]] || !insideAgentCall(agent, newest[0]) {
		return nil, nil // a person's gate after a real prompt names nothing
	}
	// evs are the agent's open calls with their settlements
	// (OpenCallEvents): a call reported or named missing is not among
	// them, so neither is its settle.
	var last int64 = -1 // the seq of the newest settle of newest[0]
	for _, ev := range evs {
		f := strings.Fields(ev.Detail)
		if isSettle(ev, agent) && f[1] == newest[0] {
			last = ev.Seq
		}
	}
	if last < 0 {
		return nil, nil
	}
	// One prompt's settle is one transaction: its events have consecutive
	// seqs. Read the events around it until both ends of the run are read.
	var batchEvs []Event
	for w := int64(16); ; w *= 4 {
		after := max(last-w-1, 0)
		around, err := e.Store.ListEvents(ctx, sessionID, after, int(2*w+1))
		if err != nil {
			return nil, fmt.Errorf("read the prompt's settled calls: %w", err)
		}
		at := slices.IndexFunc(around, func(ev Event) bool { return ev.Seq == last })
		if at < 0 {
			return nil, nil
		}
		lo, hi := at, at
		for lo > 0 && isSettle(around[lo-1], agent) {
			lo--
		}
		for hi+1 < len(around) && isSettle(around[hi+1], agent) {
			hi++
		}
		if (lo > 0 || after == 0) && (hi+1 < len(around) || len(around) < int(2*w+1)) {
			batchEvs = around[lo : hi+1]
			break
		}
	}
	batch := map[string]bool{}
	for _, ev := range batchEvs {
		batch[strings.Fields(ev.Detail)[1]] = true
	}
	tok := judgedToken(agent)
	var out []pendingCall
	seen := map[string]bool{}
	for _, ev := range evs {
		f := strings.Fields(ev.Detail)
		if ev.Token != tok || len(f) < 3 || !batch[f[0]] || f[0] == newest[0] || seen[f[0]] {
			continue
		}
		seen[f[0]] = true
		out = append(out, pendingCall{id: f[0], tool: f[1]})
	}
	return out, nil
}

// isSettle: ev settled one call of agent as interrupted (a new prompt).
func isSettle(ev Event, agent string) bool {
	f := strings.Fields(ev.Detail)
	return ev.Token == TokenToolUnreported && len(f) == 3 && f[0] == agent && f[2] == settledInterrupted
}
