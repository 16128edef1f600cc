package session

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// A validate_gate asked again with nothing new to say. Agents poll the gate
// (issue 29: a warm call was 3.3x a trivial tool's CPU), and each call
// recorded a whole transaction: BEGIN, the touch, tool:validate_gate and
// gate:PHASE:STATUS, the phase result, COMMIT. The gate itself is still
// judged in full on every call (session, protected files, evidence, git:
// nothing of the answer is taken from here); only the record of an answer
// equal to the one this engine last recorded, for the same phase, with that
// gate event still the session's last, is one statement that counts the
// repeat (first and last time, how many) and moves the idle expiry
// (GateRepeater). The policy reads validate_gate as read-only and a later
// identical gate result of the same phase supersedes the earlier one
// (policy.ReadOnlyMask), so the folded pair changes no sequence-rule
// decision. Not folded: a call a sequence rule could fire on (a rule
// ending in tool:validate_gate counts the calls it sees, so it reads them
// all), a gate that ran a command (each run is its own record), any event
// recorded in between (the store checks that in the same statement).

// gateRepeatKeep bounds the sessions remembered; past it the memory starts
// over (a forgotten session's next call is simply recorded in full).
const gateRepeatKeep = 4096

// gateRepeats remembers, per session, the last gate answer this engine
// recorded in full and the seq of its gate event.
type gateRepeats struct {
	mu   sync.Mutex
	last map[string]gateRecorded
}

type gateRecorded struct {
	key string // gateKey of the answer
	seq int64  // its gate:PHASE:STATUS event
}

// gateKey is what a gate answer says, without its timings: equal keys are
// the same record (phase, status, level, message, decision, every check's
// kind, argument, status, message, evidence reference, open requirements
// and fix, the warnings). "" for an answer never folded: a command gate.
func gateKey(g GateResult) string {
	if g.Output != "" {
		return ""
	}
	g.Duration = 0
	checks := make([]CheckResult, len(g.Checks))
	for i, c := range g.Checks {
		if c.Kind == protocolspec.CheckCommand {
			return ""
		}
		c.Duration = 0
		checks[i] = c
	}
	g.Checks = checks
	b, err := json.Marshal(g)
	if err != nil {
		return ""
	}
	return string(b)
}

// repeatOf returns the gate event an answer with key repeats, if any.
func (r *gateRepeats) repeatOf(id, key string) (int64, bool) {
	if key == "" {
		return 0, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	l, ok := r.last[id]
	return l.seq, ok && l.key == key && l.seq > 0
}

// recorded remembers the answer recorded in full with its gate event seq.
func (r *gateRepeats) recorded(id, key string, seq int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil || len(r.last) >= gateRepeatKeep {
		r.last = map[string]gateRecorded{}
	}
	if key == "" || seq <= 0 {
		delete(r.last, id)
		return
	}
	r.last[id] = gateRecorded{key: key, seq: seq}
}

// recordRepeat counts g as a repeat of this engine's last full record of
// the session's gate, when the store can and the record still stands. false:
// nothing written, record the call in full.
func (e *Engine) recordRepeat(ctx context.Context, id, key string) (bool, error) {
	rep, ok := e.Store.(GateRepeater)
	if !ok {
		return false, nil
	}
	seq, ok := e.gateRepeats.repeatOf(id, key)
	if !ok {
		return false, nil
	}
	now := e.now()
	done, err := rep.RepeatGate(ctx, id, seq, now, now.Add(e.Config.IdleTimeout))
	if err != nil {
		return false, fmt.Errorf("record gate result: %w", err)
	}
	if done {
		e.gateSessions.repeated(id, now, now.Add(e.Config.IdleTimeout))
	}
	return done, nil
}
