package session

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/hookroute"
	"strings"
)

// CodeToolResultMissing: a tool call sessiongate's PreToolUse hook judged
// and allowed never reported back (no PostToolUse, no PostToolUseFailure)
// although the turn it belongs to ended normally (Stop). Claude Code runs
// every foreground call to its end before Stop, and a backgrounded Bash
// call reports when it starts, so a call without a report was run past the
// post-tool hook: the hook was dropped from the settings, or the hook
// process failed. MEDIUM, not HIGH: an honest hook that timed out under
// load gives the same signal; the routes that drop the hook are already
// HIGH (a settings edit is a PROTECTED_CHANGE) and a reported rewrite is a
// TOOL_INPUT_REWRITTEN.
const CodeToolResultMissing = "TOOL_RESULT_MISSING"

// TokenToolResult marks a judged call whose post-tool hook reported:
// detail "<agent> <id>". TokenToolUnreported settles a judged call that
// never reported for an honest reason: detail "<agent> <id> <why>".
const (
	TokenToolResult     = "agent:result"
	TokenToolUnreported = "agent:unreported"
	// TokenToolFailed: Claude Code's PostToolUseFailure of an MCP or
	// sub-agent call, detail "<agent> <id>": the outcome the transcript's
	// result line must agree with (outcomebound.go).
	TokenToolFailed = "agent:result:failed"
)

// TokenCopilotJudged is what Copilot's preToolUse keeps for a call it
// allowed: "<key> <tool> <digest>", key naming the (tool, input digest)
// pair. Copilot's hooks carry no call id, so a postToolUse is paired with
// the oldest pending preToolUse of the same tool and input.
const TokenCopilotJudged = "agent:copilot:judged"

// CopilotCallKey names a Copilot call by its tool and whole-input digest;
// repeated identical calls share it and pair by count, in order.
func CopilotCallKey(tool, digest string) string {
	if len(digest) < 16 {
		return ""
	}
	return "cp-" + tool + "-" + digest[:16]
}

// RecordToolResult marks the judged call toolID of agent as reported (its
// PostToolUse or PostToolUseFailure ran); failed keeps that it failed, in
// the same transaction (PostToolUseFailure).
func (e *Engine) RecordToolResult(ctx context.Context, sessionID, agent, toolID string, failed bool) error {
	if toolID == "" || len(toolID) > 200 || strings.ContainsAny(toolID, " \t\n") {
		return nil
	}
	err := e.Store.Update(ctx, func(w Writer) error {
		now := e.now()
		if err := w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: TokenToolResult, Detail: agent + " " + toolID, CreatedAt: now}); err != nil || !failed {
			return err
		}
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: TokenToolFailed, Detail: agent + " " + toolID, CreatedAt: now})
	})
	if err != nil {
		return fmt.Errorf("record the tool call's report: %w", err)
	}
	return nil
}

// judgedToken is the event the pre-tool hook of agent keeps per judged call.
func judgedToken(agent string) string {
	switch agent {
	case "copilot":
		return TokenCopilotJudged
	case "codex":
		return TokenCodexJudged
	case "gemini":
		return TokenGeminiJudged
	case "cursor":
		return TokenCursorJudged
	}
	return TokenJudgedInput
}

// eventsWith returns the session's events that carry one of tokens, in
// order. The agent hooks ask a session's events on every tool call: a long
// session holds thousands (each call appends a few), and reading them all
// through the driver to keep a handful cost milliseconds a call
// (BenchmarkToolCallEventReads); the store keeps the rest.
func (e *Engine) eventsWith(ctx context.Context, sessionID string, tokens ...string) ([]Event, error) {
	return e.Store.EventsWith(ctx, sessionID, tokens...)
}

// eventsWithPrefix is eventsWith keeping the events whose detail starts
// with prefix: one call's events, whatever the session's length.
func (e *Engine) eventsWithPrefix(ctx context.Context, sessionID, prefix string, tokens ...string) ([]Event, error) {
	return e.Store.EventsWithPrefix(ctx, sessionID, prefix, tokens...)
}

// callEvents are the events pendingCalls reads: agent's judged calls, and
// the reports and settlements of calls.
func (e *Engine) callEvents(ctx context.Context, sessionID, agent string) ([]Event, error) {
	return e.eventsWith(ctx, sessionID, judgedToken(agent), TokenToolResult, TokenToolUnreported)
}

// openCallEvents are the events of agent's calls still open (the store's
// OpenCallEvents): what a new prompt and a Stop decide on. pendingCalls,
// owedReports and settledButFinished decide per call id, so they answer
// on these as on every call event of the session (callEvents), which grew
// with the session and was read at every prompt and stop
// (TestTurnEndReadsDoNotGrow).
func (e *Engine) openCallEvents(ctx context.Context, sessionID, agent string) ([]Event, error) {
	return e.Store.OpenCallEvents(ctx, sessionID, judgedToken(agent), agent)
}

// gateOpenCallEvents are openCallEvents computed from the events alone
// (the store's WalkOpenCallEvents): what a gate decides on. The hook path
// (a prompt, a Stop) reads the kept counts, which a lazy agent with the
// database's CLI can delete; the gate after it still names the call
// (TestOpenCallsTamperedStillMissingAtGate).
func (e *Engine) gateOpenCallEvents(ctx context.Context, sessionID, agent string) ([]Event, error) {
	return e.Store.WalkOpenCallEvents(ctx, sessionID, judgedToken(agent), agent)
}

// CallTokens are the tokens of the call events: each agent's judged calls,
// the reports and the settlements (the store indexes them alone).
var CallTokens = []string{TokenJudgedInput, TokenCodexJudged, TokenGeminiJudged, TokenCursorJudged, TokenCopilotJudged, TokenToolResult, TokenToolUnreported}

// pendingCall is one judged call with no report yet; sub is the Claude
// Code sub-agent (its agent_id) that made it, "" for the main agent.
type pendingCall struct{ id, tool, sub string }

// pendingCalls lists the judged calls of agent without a report or a
// settlement, oldest first. Ids pair by count, so a Copilot key judged
// twice and reported once is pending once.
func pendingCalls(evs []Event, agent string) []pendingCall {
	tok := judgedToken(agent)
	done := map[string]int{}
	for _, ev := range evs {
		if ev.Token != TokenToolResult && ev.Token != TokenToolUnreported {
			continue
		}
		f := strings.Fields(ev.Detail)
		if len(f) >= 2 && f[0] == agent {
			done[f[1]]++
		}
	}
	var out []pendingCall
	for _, ev := range evs {
		if ev.Token != tok {
			continue
		}
		f := strings.Fields(ev.Detail)
		if len(f) < 3 {
			continue
		}
		if done[f[0]] > 0 {
			done[f[0]]--
			continue
		}
		out = append(out, pendingCall{id: f[0], tool: f[1], sub: judgedSub(f)})
	}
	return out
}

// SettleUnreported records why the judged calls of agent still pending
// now never reported, with no violation: Claude Code sends no post-tool
// event and no Stop for a call the user interrupted (measured with the
// real CLI, TestClaudeInterruptSendsNoPostToolUse), so a call pending when
// the next prompt arrives, or the CLI restarts, ended that way.
func (e *Engine) SettleUnreported(ctx context.Context, sessionID, agent, why string) error {
	evs, err := e.openCallEvents(ctx, sessionID, agent)
	if err != nil {
		return fmt.Errorf("read the judged tool calls: %w", err)
	}
	pend := pendingCalls(evs, agent)
	if len(pend) == 0 {
		return nil
	}
	now := e.now()
	var settled []Event
	err = e.Store.Update(ctx, func(w Writer) error {
		for _, p := range pend {
			ev := &Event{SessionID: sessionID, Token: TokenToolUnreported, Detail: agent + " " + p.id + " " + why, CreatedAt: now}
			if err := w.AppendEvent(ctx, ev); err != nil {
				return err
			}
			settled = append(settled, *ev)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("settle the unreported tool calls: %w", err)
	}
	if why != settledInterrupted {
		return nil
	}
	// Judged now, from the transcript as the hook just sealed it: a call
	// the transcript shows finished is owed at once, so a copy renamed
	// over the transcript later (one Claude Code could have compacted)
	// cannot turn it into a rejection before Stop or a gate re-reads it
	// (TestRenamedCopyAtTheGate, "past 5 MiB" rows).
	// The calls this prompt settled are the open calls read above plus
	// their settlements: reading every call event of the session again
	// grew with the session at every prompt (round 24 second review: the
	// merge of this rule made TestTurnEndReadsDoNotGrow read 1,505 events).
	fin := e.settledButFinished(ctx, sessionID, append(evs, settled...), agent)
	if len(fin) == 0 {
		return nil
	}
	_, err = e.recordMissing(ctx, sessionID, agent, fin, fmt.Sprintf("a new prompt settled %d call(s) of %s as interrupted, but its transcript shows them finished: %%s. Their post-tool events never came; what they ran was never compared with what was judged.", len(fin), agentName(agent)))
	return err
}

// ToolResultsMissing runs when agent's turn ended normally (Stop): every
// judged call still pending is a CodeToolResultMissing violation (one per
// stop, naming the calls) and is settled so a later stop does not name it
// again. It returns the violation, nil when none is pending.
func (e *Engine) ToolResultsMissing(ctx context.Context, sessionID, agent string) (*Violation, error) {
	evs, err := e.openCallEvents(ctx, sessionID, agent)
	if err != nil {
		return nil, fmt.Errorf("read the judged tool calls: %w", err)
	}
	pend := owedReports(evs, agent)
	// Settled by a prompt, yet finished in the transcript or never
	// interrupted there (settledfinished.go).
	pend = addCalls(pend, e.settledUninterrupted(ctx, sessionID, evs, agent))
	pend = e.stillRunning(ctx, sessionID, agent, pend) // codexrunning.go
	if len(pend) == 0 {
		return nil, nil
	}
	return e.recordMissing(ctx, sessionID, agent, pend, agentName(agent)+" ended its turn, but "+fmt.Sprint(len(pend))+" tool call(s) sessiongate's PreToolUse hook allowed never reported a result (no PostToolUse or PostToolUseFailure): %s. What they ran was never compared with what was judged; is the PostToolUse hook missing from the agent's settings?")
}

// recordMissing records pend as one MEDIUM TOOL_RESULT_MISSING whose
// message is format with the calls named at its %s, and settles them as
// missing so neither a later stop nor a gate names them again.
func (e *Engine) recordMissing(ctx context.Context, sessionID, agent string, pend []pendingCall, format string) (*Violation, error) {
	var names []string
	for _, p := range pend {
		names = append(names, p.id+" ("+p.tool+")")
	}
	why := fmt.Sprintf(format, strings.Join(names, ", "))
	evs := make([]Event, 0, len(pend))
	for _, p := range pend {
		evs = append(evs, Event{Token: TokenToolUnreported, Detail: agent + " " + p.id + " missing"})
	}
	v, err := e.addViolation(ctx, sessionID, SeverityMedium, CodeToolResultMissing, why, evs...)
	if err != nil {
		return nil, fmt.Errorf("record the missing tool results: %w", err)
	}
	return v, nil
}

func agentName(agent string) string {
	if n := hookroute.AgentName(agent); n != "" {
		return n
	}
	return agent
}

// KeepCopilotJudged records a Copilot call its preToolUse allowed, by
// (tool, digest of toolArgs): CopilotPost pairs the postToolUse with it.
func (e *Engine) KeepCopilotJudged(ctx context.Context, sessionID, tool, digest string) error {
	key := CopilotCallKey(tool, digest)
	if key == "" || len(digest) != 64 || tool == "" || strings.ContainsAny(tool, " \t\n") || len(tool) > 100 {
		return nil
	}
	err := e.Store.Update(ctx, func(w Writer) error {
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: TokenCopilotJudged, Detail: key + " " + tool + " " + digest, CreatedAt: e.now()})
	})
	if err != nil {
		return fmt.Errorf("keep the judged tool input: %w", err)
	}
	return nil
}

// CopilotPost pairs a Copilot postToolUse (or postToolUseFailure) with the
// oldest pending preToolUse of the same tool and input digest and marks it
// reported. A post whose input matches no pending call of its tool, in a
// session where this tool's calls are judged, ran with input no hook
// judged (a shim's modifiedArgs, a rewritten toolArgs): a HIGH
// TOOL_INPUT_REWRITTEN, and the reason is returned. A session with no
// judged call of the tool (hooks of an older version) is not compared.
func (e *Engine) CopilotPost(ctx context.Context, sessionID, tool, digest, shown string) (string, error) {
	key := CopilotCallKey(tool, digest)
	if key == "" || len(digest) != 64 {
		return "", nil
	}
	// The calls still open, not every call of the session: a post is
	// paired with a pending call, and a pending call of the tool is one
	// judged (TestCopilotPostReadsDoNotGrow).
	evs, err := e.openCallEvents(ctx, sessionID, "copilot")
	if err != nil {
		return "", fmt.Errorf("read the judged tool calls: %w", err)
	}
	var pendingOfTool int
	for _, p := range pendingCalls(evs, "copilot") {
		if p.tool != tool {
			continue
		}
		pendingOfTool++
		if p.id == key {
			return "", e.RecordToolResult(ctx, sessionID, "copilot", key, false)
		}
	}
	if pendingOfTool == 0 {
		judged, err := e.Store.HasJudgedCall(ctx, sessionID, TokenCopilotJudged, "cp-"+tool+"-", tool)
		if err != nil {
			return "", fmt.Errorf("read the judged tool calls: %w", err)
		}
		if !judged {
			return "", nil
		}
	}
	why := fmt.Sprintf("Copilot ran %s `%s` with arguments no preToolUse judged (%d call(s) of %s pending, none with these arguments): another hook rewrote them, so this call was never checked",
		tool, truncate(shown, 120), pendingOfTool, tool)
	if _, err := e.addViolation(ctx, sessionID, SeverityHigh, CodeToolInputRewritten, why, Event{Token: "agent:copilot:input-rewritten", Detail: truncate(tool+" "+digest, 300)}); err != nil {
		return "", fmt.Errorf("record the rewritten tool input: %w", err)
	}
	return why, nil
}
