package server

import (
	"strings"

	"github.com/sessiongate/sessiongate/policy"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/web"
)

// recentEvents is how many of an active session's newest events the
// overview reads to tell whether its last call was refused.
const recentEvents = 12

// positionOf says where an active session stands and what blocks it now,
// naming the kind of block correctly:
//   - a sequence rule that refused the session's last significant call
//     (session_end, advance_phase, a commit): web.BlockPolicy;
//   - a failing gate that can block (BLOCKING or REQUIRED): web.BlockGate.
//
// A failing RECOMMENDED or OPTIONAL gate never blocks; it is reported as
// advice. It reads only what is stored (recent events, newest last, and
// the session's violations for the rule's message); it never runs a gate.
func positionOf(s *session.Session, spec *protocolspec.Spec, rs []session.PhaseResult, recent []session.Event, vs []session.Violation) web.Position {
	if !s.Active() {
		return web.Position{}
	}
	pos := web.Position{Phase: s.Phase}
	var p *protocolspec.Phase
	switch {
	case s.State == session.StateWorking:
		pos = web.Position{Phase: session.PosWorking, Reason: "start protocol done; the end protocol's gates run at session_end"}
	case s.Phase == "":
		pos.Reason = "every end phase passed: waiting for session_end"
	default:
		if spec != nil {
			p, _ = spec.Phase(s.Phase)
		}
		if p != nil {
			pos.Title, pos.Gate = p.Title, p.Level()
		}
	}
	if call, rules, ok := refusedCall(recent); ok {
		pos.Blocked, pos.Block = true, web.BlockPolicy
		pos.Reason = callName(call) + " refused by sequence rule " + strings.Join(rules, ", ")
		if msg := ruleMessage(vs, rules); msg != "" {
			pos.Reason += ": " + msg
		}
		return pos
	}
	if s.State == session.StateWorking || s.Phase == "" {
		return pos
	}
	for _, r := range rs {
		if r.PhaseID != s.Phase || r.Status != session.PhaseFailed {
			continue
		}
		level := r.Level
		if p != nil {
			level = p.Level()
		}
		if level == "" || level.Mandatory() {
			pos.Blocked, pos.Block = true, web.BlockGate
			pos.BlockedBy = string(OrUnknown(level)) + " gate " + r.PhaseID
			pos.Reason = r.Message
		} else {
			pos.Reason = string(level) + " gate " + r.PhaseID + " failed (it cannot block; advancing records it as skipped): " + r.Message
		}
		return pos
	}
	if p != nil && len(p.Checks) > 0 {
		needs := make([]string, len(p.Checks))
		for i, c := range p.Checks {
			needs[i] = web.DescribeCheck(p.ID, c)
		}
		pos.Reason = "gate not passed yet: needs " + strings.Join(needs, "; ")
	}
	return pos
}

// OrUnknown names a gate level that was not recorded.
func OrUnknown(l protocolspec.GateLevel) protocolspec.GateLevel {
	if l == "" {
		return "mandatory"
	}
	return l
}

// refusedCall looks at a session's newest events (oldest first) for a
// call a sequence rule refused that nothing has superseded since: the
// newest significant event is "<call>:refused". Read-only calls and
// bookkeeping (gate results, policy events, resources) are looked past.
// It returns the refused call and the rules that blocked it.
func refusedCall(evs []session.Event) (string, []string, bool) {
	var rules []string
	for i := len(evs) - 1; i >= 0; i-- {
		tok := evs[i].Token
		switch {
		case strings.HasPrefix(tok, "policy:"):
			if name, ok := strings.CutSuffix(strings.TrimPrefix(tok, "policy:"), ":block"); ok {
				rules = append(rules, name)
			}
			continue
		case strings.HasPrefix(tok, "gate:"), policy.ReadOnlyCall(tok):
			continue
		case strings.HasSuffix(tok, ":refused"):
			if len(rules) == 0 {
				return "", nil, false // refused for another reason (force with a carried violation)
			}
			for l, r := 0, len(rules)-1; l < r; l, r = l+1, r-1 {
				rules[l], rules[r] = rules[r], rules[l]
			}
			return strings.TrimSuffix(tok, ":refused"), rules, true
		}
		return "", nil, false
	}
	return "", nil, false
}

// callName turns an event token into the call a person would name:
// "tool:session_end" → "session_end", "hook:pre-commit" → "the pre-commit hook".
func callName(tok string) string {
	if rest, ok := strings.CutPrefix(tok, "tool:"); ok {
		return strings.ReplaceAll(rest, ":", " ")
	}
	if rest, ok := strings.CutPrefix(tok, "hook:"); ok {
		return "the " + rest + " hook"
	}
	return tok
}

// ruleMessage is the description of the newest sequence-rule violation
// recorded for one of rules.
func ruleMessage(vs []session.Violation, rules []string) string {
	for _, v := range vs { // newest first
		for _, r := range rules {
			if v.Code == "SEQUENCE_RULE" && v.Requirement == "sequence rule "+r {
				if _, desc, ok := strings.Cut(v.Message, "): "); ok {
					return desc
				}
				return v.Message
			}
		}
	}
	return ""
}
