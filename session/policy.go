package session

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/policy"
)

// Decay defaults (ADR-029 state windows).
const (
	DecayBypass        = 3 // a --no-verify commit stays visible for 3 sessions
	DecayForcedBlocked = 1 // forcing a BLOCKING gate, for the next session
)

// PolicyOutcome is what the sequence rules said about a call that may proceed.
type PolicyOutcome struct {
	Warnings []string
	tokens   []string // policy events to append with the call's own events
	// watched: some rule could fire on this call, so its history matters
	// (a repeat of validate_gate is counted, not recorded, only when none
	// could: gaterepeat.go).
	watched bool
}

// CheckPolicy evaluates the sequence rules on a call before it takes
// effect. A block rule records a violation and the events, then returns an
// error wrapping policy.ErrBlocked; warn rules let the call proceed with
// warnings (their events are appended by the caller through Tokens).
func (e *Engine) CheckPolicy(ctx context.Context, s *Session, token string) (*PolicyOutcome, error) {
	rules, err := e.rules(ctx, s)
	if err != nil {
		return &PolicyOutcome{}, err
	}
	// Rules fire on a run that ends with the current call (policy anchors
	// them there), so a rule whose last token cannot match this call cannot
	// fire whatever the history holds. Dropping those first spares most
	// calls the history read (under the shipped rules, all but a forced
	// advance, session_end and the pre-commit hook); the decision is the same.
	rules = slices.DeleteFunc(rules, func(r policy.Rule) bool {
		return len(r.Pattern) == 0 || !policy.TokenMatch(r.Pattern[len(r.Pattern)-1], token)
	})
	if len(rules) == 0 {
		return &PolicyOutcome{}, nil
	}
	history, err := e.ruleHistory(ctx, s.ID, policy.MaxWindow(rules)-1)
	if err != nil {
		return nil, err
	}
	d := policy.Evaluate(rules, history, token)
	out := &PolicyOutcome{watched: true}
	for _, r := range d.Warnings {
		out.Warnings = append(out.Warnings, fmt.Sprintf("sequence rule %s: %s", r.Name, r.Description))
		out.tokens = append(out.tokens, "policy:"+r.Name+":warn")
	}
	if d.Allowed() {
		return out, nil
	}
	now := e.now()
	var names, msgs []string
	err = e.Store.Update(ctx, func(w Writer) error {
		toks := []string{token + ":refused"}
		for _, r := range d.Blocked {
			names = append(names, r.Name)
			msgs = append(msgs, r.Description)
			v := &Violation{SessionID: s.ID, RepoID: s.RepoID, Phase: s.Phase, Requirement: "sequence rule " + r.Name,
				Severity: r.Severity, Code: "SEQUENCE_RULE", Window: WindowSession, CreatedAt: now,
				Message: fmt.Sprintf("%s refused by rule %s (pattern %s): %s", token, r.Name, strings.Join(r.Pattern, " "), r.Description)}
			if err := w.AddViolation(ctx, v); err != nil {
				return err
			}
			toks = append(toks, "policy:"+r.Name+":block")
		}
		return e.appendEvents(ctx, w, s.ID, now, toks...)
	})
	if err != nil {
		return nil, fmt.Errorf("record policy violation: %w", err)
	}
	return nil, fmt.Errorf("%w %s: %s", policy.ErrBlocked, strings.Join(names, ", "), strings.Join(msgs, "; "))
}

// maxRuleHistory bounds how many events one rule check reads, however
// many read-only calls an agent piles up between two significant ones.
const maxRuleHistory = 4096

// ruleHistory returns the events rules match against, oldest first,
// skipping the rules' own bookkeeping events: everything after (and
// including) the (n+1)-th event from the end that is not part of a
// read-only call. Read-only calls are transparent to rules (policy.Fires),
// so however many of them come between the events a rule needs, those
// events are read; the extra event gives the oldest read-only gate result
// its context.
func (e *Engine) ruleHistory(ctx context.Context, id string, n int) ([]string, error) {
	if n <= 0 {
		return nil, nil
	}
	for read := 4 * (n + 1); ; read *= 4 {
		if read > maxRuleHistory {
			read = maxRuleHistory
		}
		evs, err := e.Store.LastEvents(ctx, id, read)
		if err != nil {
			return nil, fmt.Errorf("read history: %w", err)
		}
		var kept []string
		for _, ev := range evs {
			if !policy.Bookkeeping(ev.Token) {
				kept = append(kept, ev.Token)
			}
		}
		ro := policy.ReadOnlyMask(kept)
		significant := 0
		for i := len(kept) - 1; i >= 0; i-- {
			if ro[i] {
				continue
			}
			if significant++; significant == n+1 {
				return kept[i:], nil
			}
		}
		if len(evs) < read || read == maxRuleHistory {
			return kept, nil
		}
	}
}

// Tokens are the policy events to append with the call's own events.
func (o *PolicyOutcome) Tokens() []string {
	if o == nil {
		return nil
	}
	return o.tokens
}

func (e *Engine) rules(ctx context.Context, s *Session) ([]policy.Rule, error) {
	// The protocol's path and file name matter only to per-protocol rules;
	// skip the lookup otherwise (hooks run this on every commit). Keys match
	// the sha256, the configured path, or the file name of either the
	// configured path or the name the protocol was loaded under.
	var names []string
	if e.Config.Policy != nil && len(e.Config.Policy.Protocols) > 0 {
		names = append(names, e.Config.ProtocolPath)
		if p, err := e.Store.GetProtocol(ctx, s.ProtocolSHA); err == nil {
			names = append(names, p.Name)
		}
	}
	rules, err := e.Config.Policy.Rules(s.ProtocolSHA, names...)
	if err != nil {
		return nil, fmt.Errorf("sequence_policy: %w", err)
	}
	return rules, nil
}

// Carried returns the violations of earlier sessions of the repository that
// are still relevant to s: cross_session_decay violations for which fewer
// than decay_runs runs lie between them and s (sessions started after the
// violation and before s; s itself is not one). A run is a session that
// ended COMPLETE: a session started and dropped (superseded, abandoned,
// terminated) does not wear a violation off, or two throwaway starts would
// lift the ban on force. docs/policy.md says the same. No time-based TTL:
// ADR-029 v1 defines none.
func (e *Engine) Carried(ctx context.Context, r Reader, s *Session) ([]Violation, error) {
	// Only decaying violations can be carried; filtering in the query keeps
	// session-window noise (sequence-rule refusals) from crowding them out.
	vs, err := r.ListViolations(ctx, ViolationFilter{RepoID: s.RepoID, Window: WindowCrossSessionDecay, Limit: 500})
	if err != nil {
		return nil, fmt.Errorf("list violations: %w", err)
	}
	out := []Violation{}
	counts := map[time.Time][]*Session{}
	for _, v := range vs {
		if v.Window != WindowCrossSessionDecay || v.SessionID == s.ID || v.DecayRuns < 1 || !v.CreatedAt.Before(s.CreatedAt.Add(time.Nanosecond)) {
			continue
		}
		after, ok := counts[v.CreatedAt]
		if !ok {
			if after, err = r.SessionsStartedAfter(ctx, s.RepoID, v.CreatedAt); err != nil {
				return nil, err
			}
			counts[v.CreatedAt] = after
		}
		runs := 0
		for _, x := range after {
			if x.ID == s.ID {
				if runs < v.DecayRuns {
					out = append(out, v)
				}
				break
			}
			if x.State == StateComplete {
				runs++
			}
		}
	}
	return out, nil
}
