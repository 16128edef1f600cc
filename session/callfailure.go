package session

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/hookroute"
	"strings"

	"github.com/sessiongate/sessiongate/notapplicable"
	"github.com/sessiongate/sessiongate/transcript"
)

// "If either call fails, the agent MUST report the failure and stop"
// (SERENA_INITIALIZATION in the team's 2025-12 protocols) is a condition a
// machine can check: Claude Code's transcript records each MCP call's
// result (tool_result is_error), and sessiongate's PreToolUse hook
// witnesses the call (witness.go). So:
//   - a not-applicable mark ("the calls succeeded") is taken with no
//     person when the transcript shows every named call made, witnessed,
//     and its latest result not an error; refused when one failed (the
//     condition holds) or was never made (nothing is known yet);
//   - evidence for the requirement ("reported the failure") is taken only
//     when a named call failed: a claim that serena failed, with no failed
//     call in the transcript, is the lazy way out of the phase.
// Without a Claude transcript the calls' requirements are claims (mcpNeeds),
// and the mark stands on them: it needs the calls' own evidence first.
// Which calls and requirements a condition names is
// notapplicable.CallFailureOf (the protocol's text alone).

// TokenMCPOutcome is the event of a witnessed MCP call's result, read from
// the transcript; its detail is "<tool_use_id> <tool> ok|failed".
const TokenMCPOutcome = "transcript:claude:mcp_result"

// mcpOutcome is the latest witnessed result of one tool's calls.
type mcpOutcome struct {
	id     string
	failed bool
}

// mcpOutcomes reads the witnessed MCP results of session s, latest per
// tool (lower-cased), and whether a Claude transcript is bound to it.
func (e *Engine) mcpOutcomes(ctx context.Context, s *Session) (map[string]mcpOutcome, bool, error) {
	known := false
	if tr, ok := e.Store.(TranscriptReader); ok {
		list, err := tr.SessionTranscripts(ctx, s.ID)
		if err != nil {
			return nil, false, fmt.Errorf("load transcripts: %w", err)
		}
		for _, t := range list {
			known = known || t.Agent == transcript.Claude && t.Broken == ""
		}
	}
	if !known {
		return nil, false, nil
	}
	evs, err := e.Store.ListEvents(ctx, s.ID, 0, 0)
	if err != nil {
		return nil, true, fmt.Errorf("load events: %w", err)
	}
	out := map[string]mcpOutcome{}
	for _, ev := range evs {
		if ev.Token != TokenMCPOutcome {
			continue
		}
		f := strings.Fields(ev.Detail)
		if len(f) != 3 {
			continue
		}
		out[strings.ToLower(f[1])] = mcpOutcome{id: f[0], failed: f[2] == "failed"}
	}
	return out, true, nil
}

// callFailureNA decides a not-applicable mark on a requirement conditional
// on the failure of calls cf (see the top of this file).
func (e *Engine) callFailureNA(ctx context.Context, s *Session, what string, cf notapplicable.CallFailure) error {
	outs, known, err := e.mcpOutcomes(ctx, s)
	if err != nil {
		return err
	}
	if !known {
		evs, err := e.Store.ListEvidence(ctx, s.ID)
		if err != nil {
			return fmt.Errorf("load evidence: %w", err)
		}
		for _, id := range cf.Reqs {
			has := false
			for _, x := range evs {
				has = has || x.Requirement == id && !isNAMark(x)
			}
			if !has {
				return refusedf("%s is not \"not applicable\" yet: whether the calls fail is not known before %s has its evidence; make the call and record it first", what, id)
			}
		}
		return nil
	}
	for _, tool := range cf.Tools {
		o, ok := outs[strings.ToLower(tool)]
		switch {
		case !ok:
			return refusedf("%s is not \"not applicable\" yet: its condition is whether %s fails, and the agent's transcript shows no call of it; make the call first", what, strings.Join(cf.Tools, " and "))
		case o.failed:
			return refusedf("%s is not \"not applicable\": its condition holds, the agent's transcript shows call %s of %s failed; do what it asks (report the failure) and record evidence of it", what, o.id, tool)
		}
	}
	return nil
}

// callFailureClaim refuses evidence for a requirement conditional on the
// failure of calls cf unless the transcript shows one of them failed
// (latest result an error); without a Claude transcript claims stand.
func (e *Engine) callFailureClaim(ctx context.Context, s *Session, id string, cf notapplicable.CallFailure) error {
	outs, known, err := e.mcpOutcomes(ctx, s)
	if err != nil || !known {
		return err
	}
	for _, tool := range cf.Tools {
		if o, ok := outs[strings.ToLower(tool)]; ok && o.failed {
			return nil
		}
	}
	return refusedf("evidence for %s is refused: its condition is that %s fails, and the agent's transcript shows no failed call of it (it succeeded or was never made); make the calls, and if they succeed mark %s not applicable", id, strings.Join(cf.Tools, " or "), id)
}

// mcpOutcomeEvents are the witnessed MCP results among calls, as event
// details (TokenMCPOutcome).
func mcpOutcomeEvents(calls []transcript.Call, cw *callWitness) []string {
	var out []string
	for _, c := range calls {
		if c.Kind != transcript.MCP || !hookroute.WitnessedTool(c.Tool) || cw.Unwitnessed(c) != "" || strings.ContainsAny(c.ID, " \t\n") || c.ID == "" {
			continue
		}
		res := "ok"
		if c.Failed {
			res = "failed"
		}
		out = append(out, truncate(c.ID, 200)+" "+c.Tool+" "+res)
	}
	return out
}
