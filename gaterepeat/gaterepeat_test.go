package gaterepeat

import (
	"reflect"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func quiet() bool { return true }
func busy() bool  { return false }

// call is a repeat of answer "k" in session "s" at t0+ms, read under stamp
// "st1", with nothing written since and a window of 100 ms.
func call(ms int) Call {
	return Call{ID: "s", Key: "k", Stamp: "st1", Quiet: quiet, Now: t0.Add(time.Duration(ms) * time.Millisecond),
		ExpiresAt: t0.Add(time.Hour), Window: 100 * time.Millisecond}
}

// written is a table whose session "s" has answer "k" (gate event 7)
// recorded and one repeat of it written at t0 under stamp "st1".
func written() *Table {
	var t Table
	t.Recorded("s", "k", 7)
	t.MarkWritten("s", "k", 7, "st1", t0)
	return &t
}

// TestAsk: each condition of holding a repeat back, one row off at a time.
// It fails if a repeat is held when the store changed, the window passed,
// the clock went back or the engine wrote since, or if a changed answer
// leaves its held repeats behind.
func TestAsk(t *testing.T) {
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	for _, tc := range []struct {
		name  string
		setup func() *Table
		c     Call
		want  Answer
	}{
		{"unknown session: recorded in full", func() *Table { return &Table{} }, call(10), Answer{}},
		{"answer never folded: recorded in full", written, func() Call { c := call(10); c.Key = ""; return c }(), Answer{}},
		{"first repeat after the full record: written", func() *Table { var t Table; t.Recorded("s", "k", 7); return &t },
			call(10), Answer{Step: WriteNow, Write: Write{ID: "s", Seq: 7, N: 1, FirstAt: at(10), At: at(10), ExpiresAt: t0.Add(time.Hour)}}},
		{"repeat within the window, nothing written: held, the timer starts", written, call(10), Answer{Step: Held, StartTimer: true}},
		{"the engine wrote since the stamp: written", written, func() Call { c := call(10); c.Quiet = busy; return c }(),
			Answer{Step: WriteNow, Write: Write{ID: "s", Seq: 7, N: 1, FirstAt: at(10), At: at(10), ExpiresAt: t0.Add(time.Hour)}}},
		{"no quiet check: written", written, func() Call { c := call(10); c.Quiet = nil; return c }(),
			Answer{Step: WriteNow, Write: Write{ID: "s", Seq: 7, N: 1, FirstAt: at(10), At: at(10), ExpiresAt: t0.Add(time.Hour)}}},
		{"the store's stamp moved: written", written, func() Call { c := call(10); c.Stamp = "st2"; return c }(),
			Answer{Step: WriteNow, Write: Write{ID: "s", Seq: 7, N: 1, FirstAt: at(10), At: at(10), ExpiresAt: t0.Add(time.Hour)}}},
		{"stamp unknown: written", func() *Table {
			var t Table
			t.Recorded("s", "k", 7)
			t.MarkWritten("s", "k", 7, "", t0)
			return &t
		}, func() Call { c := call(10); c.Stamp = ""; return c }(),
			Answer{Step: WriteNow, Write: Write{ID: "s", Seq: 7, N: 1, FirstAt: at(10), At: at(10), ExpiresAt: t0.Add(time.Hour)}}},
		{"the window passed: written", written, call(100),
			Answer{Step: WriteNow, Write: Write{ID: "s", Seq: 7, N: 1, FirstAt: at(100), At: at(100), ExpiresAt: t0.Add(time.Hour)}}},
		{"the clock went back: written", written, call(-1),
			Answer{Step: WriteNow, Write: Write{ID: "s", Seq: 7, N: 1, FirstAt: at(-1), At: at(-1), ExpiresAt: t0.Add(time.Hour)}}},
		{"held ones go with the next written: first time kept", func() *Table {
			t := written()
			t.Ask(call(10))
			t.Ask(call(20))
			return t
		}, call(150), Answer{Step: WriteNow,
			Write: Write{ID: "s", Seq: 7, N: 3, FirstAt: at(10), At: at(150), ExpiresAt: t0.Add(time.Hour)},
			Held:  Write{ID: "s", Seq: 7, N: 2, FirstAt: at(10), At: at(20), ExpiresAt: t0.Add(time.Hour)}}},
		{"a second held repeat: the timer is already running", func() *Table { t := written(); t.Ask(call(10)); return t }, call(20),
			Answer{Step: Held}},
		{"the answer changed: recorded in full, its held repeats flushed first", func() *Table {
			t := written()
			t.Ask(call(10))
			return t
		}, func() Call { c := call(20); c.Key = "k2"; return c }(),
			Answer{Flush: []Write{{ID: "s", Seq: 7, N: 1, FirstAt: at(10), At: at(10), ExpiresAt: t0.Add(time.Hour)}}}},
		{"another session's record: this one unknown", func() *Table { var t Table; t.Recorded("other", "k", 7); return &t }, call(10), Answer{}},
		{"a mark for an earlier gate event is ignored", func() *Table {
			var t Table
			t.Recorded("s", "k", 8)
			t.MarkWritten("s", "k", 7, "st1", t0)
			return &t
		}, call(10), Answer{Step: WriteNow, Write: Write{ID: "s", Seq: 8, N: 1, FirstAt: at(10), At: at(10), ExpiresAt: t0.Add(time.Hour)}}},
		{"forgotten (recorded with no key): recorded in full", func() *Table { t := written(); t.Recorded("s", "", 9); return t }, call(10), Answer{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.setup().Ask(tc.c); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Ask = %+v\nwant  %+v", got, tc.want)
			}
		})
	}
}

// TestHoldRecordedTakeAll: what the table hands back. It fails if a repeat
// that could not be written is dropped, or kept for a gate event that
// moved on, or if a full record or the memory's bound loses held ones.
func TestHoldRecordedTakeAll(t *testing.T) {
	w := func(id string, seq, n int64) Write { return Write{ID: id, Seq: seq, N: n, FirstAt: t0, At: t0} }
	for _, tc := range []struct {
		name string
		run  func(*Table) []Write
		want []Write
	}{
		{"held back again: taken later", func(t *Table) []Write {
			t.Recorded("s", "k", 7)
			if out := t.Hold(w("s", 7, 2)); out != nil {
				return append(out, Write{ID: "unexpected"})
			}
			return t.TakeAll()
		}, []Write{w("s", 7, 2)}},
		{"held back onto held ones: counts add", func(t *Table) []Write {
			t.Recorded("s", "k", 7)
			t.Hold(w("s", 7, 2))
			t.Hold(w("s", 7, 3))
			return t.TakeAll()
		}, []Write{w("s", 7, 5)}},
		{"the gate event moved on: handed back to write now", func(t *Table) []Write {
			t.Recorded("s", "k", 8)
			return t.Hold(w("s", 7, 2))
		}, []Write{w("s", 7, 2)}},
		{"nothing to hold", func(t *Table) []Write { t.Recorded("s", "k", 7); return t.Hold(Write{}) }, nil},
		{"a full record hands back the previous answer's", func(t *Table) []Write {
			t.Recorded("s", "k", 7)
			t.Hold(w("s", 7, 2))
			return t.Recorded("s", "k2", 9)
		}, []Write{w("s", 7, 2)}},
		{"taken once only", func(t *Table) []Write {
			t.Recorded("s", "k", 7)
			t.Hold(w("s", 7, 2))
			t.TakeAll()
			return t.TimerFired()
		}, nil},
		{"past the bound the memory starts over, its held ones handed back", func(t *Table) []Write {
			t.keep = 2
			t.Recorded("a", "k", 1)
			t.Hold(w("a", 1, 4))
			t.Recorded("b", "k", 2)
			out := t.Recorded("c", "k", 3)
			if got := t.Ask(Call{ID: "a", Key: "k", Now: t0}); got.Step != Full {
				out = append(out, Write{ID: "a still remembered"})
			}
			return out
		}, []Write{w("a", 1, 4)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tb Table
			if got := tc.run(&tb); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestRepeatCountsUnderRace: goroutines ask, record, fail to write, flush
// and fire the timer at once (run with -race). Every repeat counted (held
// or written) is handed out exactly once: it fails if one is lost or
// written twice, or on a data race.
func TestRepeatCountsUnderRace(t *testing.T) {
	var tb Table
	var mu sync.Mutex
	var counted, handed int64
	hand := func(ws ...Write) {
		mu.Lock()
		defer mu.Unlock()
		for _, w := range ws {
			handed += w.N
		}
	}
	for _, id := range []string{"a", "b", "c"} {
		tb.Recorded(id, "k", 1)
		tb.MarkWritten(id, "k", 1, "st", t0)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := []string{"a", "b", "c"}[g%3]
			for i := range 400 {
				seq := int64(1 + i/100) // a new full record every 100 calls
				c := Call{ID: id, Key: "k", Stamp: "st", Quiet: quiet, Now: t0.Add(time.Millisecond), ExpiresAt: t0, Window: time.Hour}
				switch a := tb.Ask(c); a.Step {
				case Full:
					hand(a.Flush...)
					hand(tb.Recorded(id, "k", seq)...)
					tb.MarkWritten(id, "k", seq, "st", t0)
				case Held:
					mu.Lock()
					counted++
					mu.Unlock()
				case WriteNow:
					mu.Lock()
					counted++
					mu.Unlock()
					if i%7 == 0 { // the write failed: held back again, this call recorded in full
						mu.Lock()
						counted--
						mu.Unlock()
						hand(tb.Hold(a.Held)...)
					} else {
						hand(a.Write)
						tb.MarkWritten(id, "k", a.Write.Seq, "st", t0)
					}
				}
				switch i % 50 {
				case 13:
					hand(tb.TimerFired()...)
				case 29:
					hand(tb.Recorded(id, "k", seq+1)...)
				case 41:
					hand(tb.TakeAll()...)
				}
			}
		}()
	}
	wg.Wait()
	hand(tb.TakeAll()...)
	if counted == 0 || handed != counted {
		t.Fatalf("%d repeats counted, %d handed out to write", counted, handed)
	}
}
