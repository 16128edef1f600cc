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
// at a gate; Stop checks it again once the turn ends.
func inFlight(evs []Event, agent string, pend []pendingCall) string {
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
	if last.id == "" || !shellTools[last.tool] || !insideAgentCall(agent, last.id) {
		return "" // none, not a shell call, or the gate runs outside the agent
	}
	tok := judgedToken(agent)
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Token != tok {
			continue
		}
		f := strings.Fields(evs[i].Detail)
		if judgedSub(f) != "" {
			continue
		}
		if len(f) >= 3 && f[0] == last.id {
			return last.id
		}
		return "" // a call judged after it: the agent is not waiting on it
	}
	return ""
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
	evs, err := e.Store.ListEvents(ctx, sessionID, 0, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: read the judged tool calls: %w", gate, err)
	}
	type missing struct {
		agent string
		call  pendingCall
	}
	var miss []missing
	var names, agents []string
	for _, agent := range reportingAgents {
		pend := owedReports(evs, agent)
		skip := inFlight(evs, agent, pend)
		// Calls a prompt sent from inside the gate's own call settled.
		pend = append(pend, settledByPromptInFlight(evs, agent)...)
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
	now := e.now()
	var v *Violation
	err = e.Store.Update(ctx, func(w Writer) error {
		cur, err := w.GetSession(ctx, sessionID)
		if err != nil {
			return err
		}
		v = &Violation{SessionID: sessionID, RepoID: cur.RepoID, Phase: cur.Phase, Severity: SeverityMedium, Code: CodeToolResultMissing,
			Window: WindowSession, Message: truncate(why, 500), CreatedAt: now}
		if err := w.AddViolation(ctx, v); err != nil {
			return err
		}
		for _, m := range miss {
			if err := w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: TokenToolUnreported, Detail: m.agent + " " + m.call.id + " missing", CreatedAt: now}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: record the missing tool results: %w", gate, err)
	}
	e.publishViolations(ctx, sessionID, v)
	return v, nil
}
