package session

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/gaterepeat"
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
//
// Held back (issue 29 item 3: the repeat's statement was a fifth of a warm
// call's CPU): a repeat asked while the store's change stamp is the one
// read before this engine's last written repeat of that gate event, with
// no write of this engine since before the stamp was read (nothing else
// was recorded, so the gate event is still the session's last and the
// session still active), within repeatWindow of that write, is counted in
// memory and written with the next repeat that writes, by a timer at the
// latest repeatWindow later, or by FlushGateRepeats (the MCP server's
// shutdown). What a crash can lose is at most repeatWindow of counts and
// idle-expiry moves of an answer already on record in full: never a gate
// result, and never an event of the hash chain.

// repeatFlushDelay overrides the timer's delay (tests; 0: the window).
var repeatFlushDelay time.Duration

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

// repeatWindow is how long repeats may be held back: at most
// gaterepeat.WindowMax, and at most a tenth of the idle timeout, so the
// stored expiry never lags the real one by more than that.
func (e *Engine) repeatWindow() time.Duration {
	return min(gaterepeat.WindowMax, e.Config.IdleTimeout/10)
}

// ownWriter is a store that counts its own write transactions cheaply
// (store.DB: the count its change stamp includes).
type ownWriter interface {
	OwnWrites() uint64
}

// gateStamp is what a gate call read of the store before judging: the
// change stamp and this engine's store's own write count read before it.
type gateStamp struct {
	stamp  string
	writes uint64
	ok     bool // both read
}

// recordRepeat counts g as a repeat of this engine's last full record of
// the session's gate, when the store can and the record still stands. false:
// nothing written, record the call in full.
func (e *Engine) recordRepeat(ctx context.Context, id, key string, st gateStamp) (bool, error) {
	rep, ok := e.Store.(GateRepeater)
	if !ok || key == "" {
		return false, nil
	}
	now := e.now()
	exp := now.Add(e.Config.IdleTimeout)
	stamp := st.stamp
	if !st.ok {
		stamp = ""
	}
	a := e.gateRepeats.Ask(gaterepeat.Call{ID: id, Key: key, Stamp: stamp,
		Quiet: func() bool { return e.ownWritesSince(st.writes) },
		Now:   now, ExpiresAt: exp, Window: e.repeatWindow()})
	switch a.Step {
	case gaterepeat.Full:
		e.flushRepeats(ctx, a.Flush)
		return false, nil
	case gaterepeat.Held:
		if a.StartTimer {
			d := e.repeatWindow()
			if repeatFlushDelay > 0 {
				d = repeatFlushDelay
			}
			time.AfterFunc(d, func() { e.flushRepeats(context.Background(), e.gateRepeats.TimerFired()) })
		}
		e.gateSessions.repeated(id, now, exp)
		return true, nil
	}
	done, err := rep.RepeatGate(ctx, a.Write)
	if err != nil {
		e.flushRepeats(context.Background(), e.gateRepeats.Hold(a.Held))
		return false, fmt.Errorf("record gate result: %w", err)
	}
	if !done {
		// Something was recorded since (or the session ended): this call
		// is recorded in full, the repeats held back before it as they were.
		e.flushRepeats(ctx, []RepeatWrite{a.Held})
		return false, nil
	}
	e.gateRepeats.MarkWritten(id, key, a.Write.Seq, stamp, now)
	e.gateSessions.repeated(id, now, exp)
	return true, nil
}

// ownWritesSince reports whether this engine's store has ended no write
// transaction since its count was w.
func (e *Engine) ownWritesSince(w uint64) bool {
	ow, ok := e.Store.(ownWriter)
	return ok && ow.OwnWrites() == w
}

// ownWrites is the store's own write count, read before the change stamp
// (a write after it moves it); false when the store does not count.
func (e *Engine) ownWrites() (uint64, bool) {
	ow, ok := e.Store.(ownWriter)
	if !ok {
		return 0, false
	}
	return ow.OwnWrites(), true
}

// flushRepeats writes held-back repeats; a failure is logged (the counts
// are lost, never a gate result).
func (e *Engine) flushRepeats(ctx context.Context, held []RepeatWrite) {
	rep, ok := e.Store.(GateRepeater)
	if !ok {
		return
	}
	for _, w := range held {
		if w.N == 0 {
			continue
		}
		if _, err := rep.FlushGateRepeats(context.WithoutCancel(ctx), w); err != nil {
			e.Logger.Warn("write held-back gate repeats", "session", w.ID, "seq", w.Seq, "repeats", w.N, "err", err)
		}
	}
}

// FlushGateRepeats writes every repeat this engine holds back. A
// long-lived server calls it on shutdown; a timer calls it within the
// repeat window otherwise.
func (e *Engine) FlushGateRepeats(ctx context.Context) {
	e.flushRepeats(ctx, e.gateRepeats.TakeAll())
}
