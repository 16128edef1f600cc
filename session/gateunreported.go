package session

import (
	"context"
	"fmt"
	"strings"
)

// reportingAgents are the agents whose pre-tool hook keeps each judged call
// and whose post-tool hook reports it (toolresult.go): Claude Code by
// tool_use_id, Copilot CLI by tool and arguments, Codex by tool_use_id
// (Bash only, codexreport.go), Gemini CLI by session and command line
// (run_shell_command only), Cursor by conversation and command line
// (beforeShellExecution and afterShellExecution, since round 22; its writes
// send no post and owe none; docs/evidence.md).
var reportingAgents = []string{"claude", "copilot", "codex", "gemini", "cursor"}

// shellTools are the judged tools a gate can run inside: the agent's shell
// (Claude's Bash, Copilot's bash, or Bash in a PascalCase hook file).
var shellTools = map[string]bool{"Bash": true, "bash": true, "run_shell_command": true, "Shell": true}

// copilotReported are the Copilot tools install sends to postToolUse and
// postToolUseFailure (hooks/agentconfig.go): a judged call of another
// tool (write_bash, typed into a running shell) never reports by design.
var copilotReported = map[string]bool{"bash": true, "powershell": true, "create": true, "edit": true, "str_replace_editor": true, "apply_patch": true}

// owedReports is pendingCalls without the calls agent's installed hooks
// never report (Copilot's write_bash): only these can be missing.
func owedReports(evs []Event, agent string) []pendingCall {
	pend := pendingCalls(evs, agent)
	if agent != "copilot" {
		return pend
	}
	out := pend[:0]
	for _, p := range pend {
		if copilotReported[p.tool] {
			out = append(out, p)
		}
	}
	return out
}

// inFlight is the one pending call of agent that may be running the gate
// now, "" when none: `session advance`, `session end` and `git commit`
// run inside a shell call whose PostToolUse only comes after they return.
// It is the newest judged call of the agent, still pending, and a shell
// call: Claude Code and Copilot run a shell or write call to its end
// before judging the next one, so a gate running inside one of their
// calls runs inside the newest. Only one call is ever excused, and only
// at a gate; Stop checks it again once the turn ends. newestMain is the
// newest judged call of the agent's main thread (newestJudged), nil when
// none.
func inFlight(agent string, pend []pendingCall, newestMain *Event) string {
	// A background sub-agent's calls interleave with the main agent's;
	// they are left to their notification (subagentcalls.go), so the
	// newest call is the main agent's newest.
	var last pendingCall
	for i := len(pend) - 1; i >= 0; i-- {
		if pend[i].sub == "" {
			last = pend[i]
			break
		}
	}
	if last.id == "" || !shellTools[last.tool] || !insideAgentCall(agent, last.id) || newestMain == nil {
		return "" // none, not a shell call, or the gate runs outside the agent
	}
	if f := strings.Fields(newestMain.Detail); len(f) >= 3 && f[0] == last.id {
		return last.id
	}
	return "" // a call judged after it: the agent is not waiting on it
}

// newestWindows are the sizes of the session's newest events newestJudged
// reads before it reads every judged call of the agent: an agent that
// holds an open call judges often, so its newest call is among the newest
// events.
var newestWindows = []int{64, 1024}

// newestJudged returns agent's newest judged call, and its newest of the
// main thread (not a sub-agent's), nil when there is none; at or after
// seq from (an open call's judgment: the newest is never older). A gate
// read every event of the session to find them (round 30, c4).
func (e *Engine) newestJudged(ctx context.Context, sessionID, agent string, from int64) (newest, newestMain *Event, err error) {
	tok := judgedToken(agent)
	pick := func(evs []Event) (done bool) {
		for i := len(evs) - 1; i >= 0; i-- {
			f := strings.Fields(evs[i].Detail)
			if newest == nil {
				newest = &evs[i]
			}
			if len(f) >= 3 && judgedSub(f) == "" {
				newestMain = &evs[i]
				return true
			}
		}
		return len(evs) > 0 && evs[0].Seq <= from
	}
	for _, n := range newestWindows {
		newest, newestMain = nil, nil
		evs, err := e.Store.LastEvents(ctx, sessionID, n, tok)
		if err != nil {
			return nil, nil, fmt.Errorf("read the newest judged tool calls: %w", err)
		}
		if pick(evs) {
			return newest, newestMain, nil
		}
	}
	newest, newestMain = nil, nil
	evs, err := e.Store.EventsWith(ctx, sessionID, tok)
	if err != nil {
		return nil, nil, fmt.Errorf("read the judged tool calls: %w", err)
	}
	pick(evs)
	return newest, newestMain, nil
}

// UnreportedAtGate records, at a gate (advance, end, the commit gate),
// the judged calls that never reported: the same MEDIUM
// TOOL_RESULT_MISSING Stop records, so a session whose post-tool hooks
// were dropped cannot end clean before any Stop runs. The call the gate
// runs inside (inFlight) is left pending, and so are a background
// sub-agent's calls (subagentcalls.go). MEDIUM, not a block: under load
// an honest post hook times out and gives the same signal; the session is
// then not clean, which a person reads. The calls named are settled, so
// neither a later gate nor Stop names them again. It returns the
// violation, nil when nothing is missing.
func (e *Engine) UnreportedAtGate(ctx context.Context, sessionID, gate string) (*Violation, error) {
	if err := e.settleVanishedCalls(ctx, sessionID); err != nil {
		return nil, fmt.Errorf("%s: settle the calls of a vanished agent CLI: %w", gate, err)
	}
	type missing struct {
		agent string
		call  pendingCall
	}
	var miss []missing
	var names, agents []string
	for _, agent := range reportingAgents {
		// The agent's open calls only, walked from the events (not the
		// counts a Stop reads): the gate read every event of the session,
		// for each agent (BenchmarkUnreportedAtGate; round 30, c4).
		evs, err := e.gateOpenCallEvents(ctx, sessionID, agent)
		if err != nil {
			return nil, fmt.Errorf("%s: read the judged tool calls: %w", gate, err)
		}
		if len(evs) == 0 {
			continue
		}
		// The newest open judgment of the main thread (else of any): the
		// newest judged calls are at or after it.
		from, fromMain := evs[len(evs)-1].Seq, false
		for i := len(evs) - 1; i >= 0 && !fromMain; i-- {
			if f := strings.Fields(evs[i].Detail); evs[i].Token == judgedToken(agent) && len(f) >= 3 {
				if judgedSub(f) == "" {
					from, fromMain = evs[i].Seq, true
				} else if from == evs[len(evs)-1].Seq {
					from = evs[i].Seq
				}
			}
		}
		newest, newestMain, err := e.newestJudged(ctx, sessionID, agent, from)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", gate, err)
		}
		pend := owedReports(evs, agent)
		skip := inFlight(agent, pend, newestMain)
		// Calls a prompt sent from inside the gate's own call settled.
		inCall, err := e.settledByPromptInFlight(ctx, sessionID, evs, agent, newest)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", gate, err)
		}
		pend = append(pend, inCall...)
		// Settled by a prompt, yet finished in the transcript or never
		// interrupted there (settledfinished.go).
		pend = addCalls(pend, e.settledUninterrupted(ctx, sessionID, evs, agent))
		pend = e.stillRunning(ctx, sessionID, agent, pend) // codexrunning.go
		n := 0
		for _, p := range pend {
			if p.id == skip {
				skip = "" // one call only: a Copilot key repeats
				continue
			}
			if p.sub != "" {
				// A background sub-agent's call may still run: judged at its
				// notification, the next judged stop or SessionEnd
				// (subagentcalls.go).
				continue
			}
			miss = append(miss, missing{agent, p})
			names = append(names, p.id+" ("+p.tool+")")
			n++
		}
		if n > 0 {
			agents = append(agents, agentName(agent))
		}
	}
	if len(miss) == 0 {
		return nil, nil
	}
	why := fmt.Sprintf("at %s, %d tool call(s) of %s that sessiongate's pre-tool hook allowed never reported a result (no post-tool event): %s. What they ran was never compared with what was judged; is the post-tool hook missing from the agent's settings?",
		gate, len(miss), strings.Join(agents, " and "), strings.Join(names, ", "))
	evs := make([]Event, 0, len(miss))
	for _, m := range miss {
		evs = append(evs, Event{Token: TokenToolUnreported, Detail: m.agent + " " + m.call.id + " missing"})
	}
	v, err := e.addViolation(ctx, sessionID, SeverityMedium, CodeToolResultMissing, why, evs...)
	if err != nil {
		return nil, fmt.Errorf("%s: record the missing tool results: %w", gate, err)
	}
	return v, nil
}
