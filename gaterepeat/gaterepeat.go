// Package gaterepeat is the table of gate answers an engine recorded in
// full, per session, and of the repeats of each it holds back in memory.
//
// A validate_gate asked again with the same answer is counted, not recorded
// in full (issue 29); a repeat asked while nothing was written since the
// engine's last written repeat of that answer, within a short window, is
// only counted in memory and written later with the next one (issue 29
// item 3). The table decides which of the three a call is (Ask), takes back
// what could not be written (Hold), learns what was written (MarkWritten,
// Recorded) and gives up everything it holds (TakeAll). It knows nothing
// of the store or the gate: the engine (session/gaterepeat.go) judges the
// gate, computes the answer's key and writes what the table hands it.
package gaterepeat

import (
	"sync"
	"time"
)

// Keep bounds the sessions remembered; past it the memory starts over (a
// forgotten session's next call is simply recorded in full; its held-back
// repeats are handed back to be written first).
const Keep = 4096

// WindowMax bounds how long repeats are held back.
const WindowMax = time.Second

// Write is N repeats of a session's gate event Seq, the first at FirstAt
// (zero: At) and the last at At, moving the idle expiry to ExpiresAt.
type Write struct {
	ID                     string
	Seq, N                 int64
	FirstAt, At, ExpiresAt time.Time
}

// Table remembers, per session, the last gate answer recorded in full, the
// seq of its gate event and the repeats held back. Its zero value is
// ready; it is safe for concurrent use.
type Table struct {
	mu    sync.Mutex
	last  map[string]entry
	timer bool // a flush is scheduled
	keep  int  // Keep unless a test sets it
}

type entry struct {
	key string // the answer
	seq int64  // its gate:PHASE:STATUS event
	// stamp is the store's change stamp read before the last repeat of seq
	// written (at wrote); "" none yet.
	stamp string
	wrote time.Time
	held  Write // repeats not written yet (N 0: none)
}

// Call is one gate call asked again: its answer's key ("" never folded)
// and what it read of the store before judging.
type Call struct {
	ID, Key string
	// Stamp is the store's change stamp read before judging; "" unknown
	// (never held back).
	Stamp string
	// Quiet reports that the engine's store wrote nothing since Stamp was
	// read. It is called under the table's lock, only when the rest
	// allows holding back, so it must be cheap and must not call back.
	Quiet func() bool
	// Now is the call's time, ExpiresAt the idle expiry it moves to.
	Now, ExpiresAt time.Time
	// Window is how long after the last written repeat one may be held.
	Window time.Duration
}

// Step says what to do with a Call.
type Step int

const (
	// Full: record the call in full, after writing Flush.
	Full Step = iota
	// Held: the call was counted in memory; start a flush timer when
	// Answer.StartTimer.
	Held
	// Write: write Answer.Write in one statement; then MarkWritten, or
	// Hold(Answer.Held) and record in full if the write failed, or write
	// Answer.Held and record in full if the store refused.
	WriteNow
)

// Answer is Ask's decision.
type Answer struct {
	Step Step
	// Flush (Full): held-back repeats of a previous answer, to write
	// before recording the call.
	Flush []Write
	// StartTimer (Held): the first repeat held since the timer last ran.
	StartTimer bool
	// Write (WriteNow): the repeats to write now, this call included; Held
	// is the part of it that was held back before the call.
	Write, Held Write
}

// Ask decides what c is: a call whose answer is not the one last recorded
// in full or never folded (Full), a repeat held back in memory (Held), or a repeat to write
// now with those held before it (WriteNow). Whatever was held for a changed
// answer is handed back in Flush and forgotten here.
func (t *Table) Ask(c Call) Answer {
	if c.Key == "" { // never folded: nothing to flush first either
		return Answer{}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	l, ok := t.last[c.ID]
	if !ok || l.key != c.Key || l.seq <= 0 {
		var a Answer
		if ok && l.held.N > 0 { // the answer changed: its repeats go on record first
			a.Flush = []Write{l.held}
			l.held = Write{}
			t.last[c.ID] = l
		}
		return a
	}
	if c.Stamp != "" && c.Stamp == l.stamp && !c.Now.Before(l.wrote) && c.Now.Sub(l.wrote) < c.Window &&
		c.Quiet != nil && c.Quiet() {
		if l.held.N == 0 {
			l.held = Write{ID: c.ID, Seq: l.seq, FirstAt: c.Now}
		}
		l.held.N++
		l.held.At, l.held.ExpiresAt = c.Now, c.ExpiresAt
		t.last[c.ID] = l
		a := Answer{Step: Held, StartTimer: !t.timer}
		t.timer = true
		return a
	}
	held := l.held
	l.held = Write{}
	t.last[c.ID] = l
	w := Write{ID: c.ID, Seq: l.seq, N: held.N + 1, FirstAt: c.Now, At: c.Now, ExpiresAt: c.ExpiresAt}
	if held.N > 0 {
		w.FirstAt = held.FirstAt
	}
	return Answer{Step: WriteNow, Write: w, Held: held}
}

// MarkWritten records that a repeat of the session's answer key (gate event
// seq) was written at at, with the store's change stamp read before it
// ("" unknown: no later repeat is held back on it). Nothing changes when
// the session's entry moved on meanwhile (another answer recorded, or a
// later write marked).
func (t *Table) MarkWritten(id, key string, seq int64, stamp string, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cur, ok := t.last[id]; ok && cur.seq == seq && cur.key == key && !at.Before(cur.wrote) {
		cur.stamp, cur.wrote = stamp, at
		t.last[id] = cur
	}
}

// Hold puts repeats that could not be written back with the session's held
// ones (written with the next). When the session's gate event moved on
// meanwhile it returns them instead, to write now.
func (t *Table) Hold(w Write) []Write {
	if w.N == 0 {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	l, ok := t.last[w.ID]
	if !ok || l.seq != w.Seq {
		return []Write{w}
	}
	if l.held.N == 0 {
		l.held = w
	} else {
		l.held.N += w.N
		l.held.FirstAt = w.FirstAt
	}
	t.last[w.ID] = l
	return nil
}

// Recorded remembers an answer recorded in full (key "" or seq 0: forget
// the session) and returns the repeats of its previous answer still held
// back, to write.
func (t *Table) Recorded(id, key string, seq int64) []Write {
	t.mu.Lock()
	defer t.mu.Unlock()
	var held []Write
	keep := t.keep
	if keep == 0 {
		keep = Keep
	}
	if t.last == nil || len(t.last) >= keep {
		held = t.takeAllLocked()
		t.last = map[string]entry{}
	}
	if l, ok := t.last[id]; ok && l.held.N > 0 {
		held = append(held, l.held)
	}
	if key == "" || seq <= 0 {
		delete(t.last, id)
		return held
	}
	t.last[id] = entry{key: key, seq: seq}
	return held
}

// TakeAll empties every session's held-back repeats and returns them.
func (t *Table) TakeAll() []Write {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.takeAllLocked()
}

// TimerFired is TakeAll for the flush timer: the next held repeat starts
// a new one.
func (t *Table) TimerFired() []Write {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.timer = false
	return t.takeAllLocked()
}

func (t *Table) takeAllLocked() []Write {
	var held []Write
	for id, l := range t.last {
		if l.held.N > 0 {
			held = append(held, l.held)
			l.held = Write{}
			t.last[id] = l
		}
	}
	return held
}
