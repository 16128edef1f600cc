package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/policy"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// TestGateRepeatFollowsEveryChange: a validate_gate asked again with the
// same answer is counted (gate_repeats) instead of recorded in full, and
// only then. After each kind of change the kept engine's answer is
// compared with a fresh engine's (nothing of the answer is remembered), and
// how the kept engine recorded its call is checked: a repeat only when the
// answer is the same and no event was recorded since its own gate event
// (evidence, an advance, another engine or another process writing the
// database all record events). It fails if RepeatGate ignored the events
// recorded since, or if the engine folded a changed answer.
func TestGateRepeatFollowsEveryChange(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, flowProtocol)
	e.engine.Config.Protect = true
	gittest.Commit(t, e.root, "protocol", map[string]string{"SESSION-PROTOCOL.md": flowProtocol})
	id := e.start("repeat")
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read the notes")
	open := func(db *store.DB) *session.Engine {
		eng := session.NewEngine(db, e.engine.Config, func(ctx context.Context, wt string) (session.Repo, error) {
			return gitrepo.Open(ctx, wt)
		})
		eng.Now = func() time.Time { return e.now }
		return eng
	}
	// What a call answered, without its timings, or its error's class.
	answer := func(eng *session.Engine) string {
		t.Helper()
		g, err := eng.ValidateGate(ctx, id, "")
		switch {
		case errors.Is(err, session.ErrProtectedChanged):
			return "refused: protected"
		case err != nil:
			t.Fatal(err)
		}
		g.Duration = 0
		for i := range g.Checks {
			g.Checks[i].Duration = 0
		}
		b, _ := json.Marshal(g)
		return string(b)
	}
	// events and repeats counted so far
	counts := func() (int, int64) {
		t.Helper()
		evs, err := e.db.ListEvents(ctx, id, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		reps, err := e.db.GateRepeats(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for _, r := range reps {
			n += r.Repeats
		}
		return len(evs), n
	}
	const (
		full    = "recorded in full"
		repeat  = "counted as a repeat"
		refused = "refused"
	)
	mode := func(eng *session.Engine) (string, string) {
		t.Helper()
		// Repeats held back (gaterepeat.go) are written first: what is
		// counted here is what the engine has on record or will write.
		eng.FlushGateRepeats(ctx)
		ev0, rep0 := counts()
		a := answer(eng)
		eng.FlushGateRepeats(ctx)
		ev1, rep1 := counts()
		switch {
		case a == "refused: protected":
			return a, refused
		case ev1 >= ev0+2 && rep1 == rep0: // the call, its gate result, any rule tokens
			return a, full
		case ev1 == ev0 && rep1 == rep0+1:
			return a, repeat
		}
		t.Fatalf("a call added %d events and %d repeats", ev1-ev0, rep1-rep0)
		return "", ""
	}
	other, err := store.Open(ctx, e.db.Path()) // another process's handle on the same file
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	steps := []struct {
		name string
		do   func()
		want string // how the kept engine records its first call after do
	}{
		{"first call", func() {}, full},
		{"nothing changed", func() {}, repeat},
		{"an unrelated file edited (same answer)", func() { gittest.Write(t, e.root, "README.md", "# edited\n") }, repeat},
		// A commit outside the hooks: the session's load records reconcile:bypass.
		{"HEAD moved", func() { gittest.Commit(t, e.root, "readme", map[string]string{"README.md": "# committed\n"}) }, full},
		{"evidence added", func() { e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read them again") }, full},
		{"another process records evidence", func() {
			if _, err := open(other).RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT_RETRIEVAL", Kind: session.EvidenceToolOutput, Evidence: "and again"}); err != nil {
				t.Fatal(err)
			}
		}, full},
		{"another process writes an event", func() {
			if err := other.Update(ctx, func(w session.Writer) error {
				return w.AppendEvent(ctx, &session.Event{SessionID: id, Token: "tool:get_blocked_reason"})
			}); err != nil {
				t.Fatal(err)
			}
		}, full},
		{"the protected protocol edited", func() { gittest.Write(t, e.root, "SESSION-PROTOCOL.md", flowProtocol+"\nThe agent MAY rest.\n") }, refused},
		{"and put back", func() { gittest.Write(t, e.root, "SESSION-PROTOCOL.md", flowProtocol) }, full},
		{"the phase advanced", func() { e.advance(id) }, full},
		{"the new phase asked again", func() {}, repeat},
		// The answer changes with no event recorded: the plan's file gate.
		{"the plan written", func() { gittest.Write(t, e.root, "PLAN.md", "# plan\n") }, full},
		{"the plan asked again", func() {}, repeat},
	}
	for _, s := range steps {
		s.do()
		got, how := mode(e.engine)
		if how != s.want {
			t.Fatalf("%s: the kept engine's call was %s, want %s; events now %v", s.name, how, s.want, e.tokens(id))
		}
		// A fresh engine's answer (its own call is recorded in full: it has
		// recorded nothing before).
		fresh, how := mode(open(e.db))
		if fresh != got {
			t.Fatalf("%s: the kept engine answered\n%s\na fresh one\n%s", s.name, got, fresh)
		}
		if how != full && how != refused {
			t.Fatalf("%s: a fresh engine's call was %s", s.name, how)
		}
		if how == refused {
			continue
		}
		// The fresh engine's events came after the kept engine's gate
		// event: its next call is recorded in full, the one after counted.
		for _, want := range []string{full, repeat} {
			if again, how := mode(e.engine); how != want || again != got {
				t.Fatalf("%s, asked again: %s (want %s), answer changed: %v", s.name, how, want, again != got)
			}
		}
	}
	// The audit trail: History puts the counts on the repeated gate events.
	evs, err := e.engine.History(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var asked int64
	for _, ev := range evs {
		if r := ev.Repeated; r != nil {
			if r.Repeats < 1 || r.LastAt.Before(r.FirstAt) || ev.Token[:5] != "gate:" {
				t.Fatalf("repeat on event %d %s: %+v", ev.Seq, ev.Token, r)
			}
			asked += r.Repeats
		}
	}
	if _, want := counts(); asked != want || asked == 0 {
		t.Fatalf("History shows %d repeats, the store holds %d", asked, want)
	}
}

// TestGateRepeatKeepsTheSessionAlive: a counted repeat moves the idle
// expiry as a full call's touch does, and an ended session's call is not
// counted (it is refused as before).
func TestGateRepeatKeepsTheSessionAlive(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, flowProtocol)
	id := e.start("alive")
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read the notes")
	if _, err := e.engine.ValidateGate(ctx, id, ""); err != nil {
		t.Fatal(err)
	}
	e.now = e.now.Add(time.Hour)
	if _, err := e.engine.ValidateGate(ctx, id, ""); err != nil {
		t.Fatal(err)
	}
	s, err := e.db.GetSession(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	reps, err := e.db.GateRepeats(ctx, id)
	if err != nil || len(reps) != 1 || reps[0].Repeats != 1 {
		t.Fatalf("repeats %+v %v, want one", reps, err)
	}
	if !s.LastActivity.Equal(e.now) || !s.ExpiresAt.Equal(e.now.Add(e.engine.Config.IdleTimeout)) {
		t.Fatalf("after a counted repeat: last activity %v, expires %v; want %v and a full idle timeout after", s.LastActivity, s.ExpiresAt, e.now)
	}
	if _, err := e.engine.Terminate(ctx, id, "done"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.engine.ValidateGate(ctx, id, ""); err == nil {
		t.Fatal("a gate call on a terminated session was answered")
	}
	if reps2, _ := e.db.GateRepeats(ctx, id); len(reps2) != 1 || reps2[0].Repeats != 1 {
		t.Fatalf("an ended session's call was counted: %+v", reps2)
	}
}

// TestGateRepeatNotUnderARuleOnTheCall: a sequence rule that could fire on
// validate_gate reads the calls it sees, so none is folded: three polls in
// a row still make a rule on three polls fire on the third, as before
// repeats were counted (it fails if a watched call is folded: the third
// call then sees two).
func TestGateRepeatNotUnderARuleOnTheCall(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		rules []policy.Rule
		fires int // on which call (1-based) the rule first warns; 0 never
	}{
		{"a rule on three polls in a row", []policy.Rule{{Name: "poll-3", Description: "polled three times",
			Pattern: []string{"tool:validate_gate", "tool:validate_gate", "tool:validate_gate"}, Action: policy.ActionWarn}}, 3},
		// The honest twin: a rule on another call leaves the polls folded.
		{"a rule on record_evidence only", []policy.Rule{{Name: "evidence-seen", Description: "evidence",
			Pattern: []string{"tool:record_evidence"}, Action: policy.ActionWarn}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, flowProtocol)
			e.engine.Config.Policy = &policy.Config{Default: tc.rules}
			id := e.start("polls")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read the notes")
			fired := 0
			for i := 1; i <= 4; i++ {
				g, err := e.engine.ValidateGate(ctx, id, "")
				if err != nil {
					t.Fatal(err)
				}
				if fired == 0 && len(g.Warnings) > 0 {
					fired = i
				}
			}
			if fired != tc.fires {
				t.Fatalf("the rule first warned on call %d, want %d", fired, tc.fires)
			}
			reps, err := e.db.GateRepeats(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if folded := len(reps) > 0; folded != (tc.fires == 0) {
				t.Fatalf("repeats %+v with a rule that fires on call %d", reps, tc.fires)
			}
		})
	}
}

// TestGateRepeatsHeldBack: repeats asked within the repeat window of the
// last written one, with nothing written in between, are held in memory
// and written together (issue 29 item 3), and none is lost: not when the
// window passes, not when another handle records an event in between
// (the held ones were repeats when asked), not when the engine stops
// calling (the timer writes them). The session's stored expiry never goes
// back. It fails if held-back repeats are dropped, or written per call.
func TestGateRepeatsHeldBack(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		// after three held-back repeats: what happens, and the repeats the
		// store must hold once written (without a flush when timer is set)
		then      func(e *env, other *store.DB, id string)
		timer     bool
		wantTotal int64
	}{
		{"flushed", func(*env, *store.DB, string) {}, false, 4},
		{"the window passes: the next repeat writes them", func(e *env, _ *store.DB, id string) {
			e.now = e.now.Add(200 * time.Millisecond)
			if _, err := e.engine.ValidateGate(ctx, id, ""); err != nil {
				t.Fatal(err)
			}
		}, false, 5},
		{"another handle records an event: the held ones stay counted", func(e *env, other *store.DB, id string) {
			if err := other.Update(ctx, func(w session.Writer) error {
				return w.AppendEvent(ctx, &session.Event{SessionID: id, Token: "tool:get_blocked_reason", CreatedAt: e.now})
			}); err != nil {
				t.Fatal(err)
			}
			if _, err := e.engine.ValidateGate(ctx, id, ""); err != nil { // recorded in full
				t.Fatal(err)
			}
		}, false, 4},
		{"the engine stops calling: the timer writes them", func(*env, *store.DB, string) {}, true, 4},
		// The flush writes only for active sessions: a session terminated
		// (or ended) within the window must have its held repeats written
		// first, or its history loses them.
		{"the session is terminated within the window", func(e *env, _ *store.DB, id string) {
			if _, err := e.engine.Terminate(ctx, id, "stopped by a person"); err != nil {
				t.Fatal(err)
			}
		}, false, 4},
		// Within the window, a protected file rewritten in place (same
		// size, its mtime put back with touch -d): the next call is
		// judged in full and refused, never answered as a held repeat.
		{"the protocol rewritten in place with its mtime put back", func(e *env, _ *store.DB, id string) {
			p := filepath.Join(e.root, "SESSION-PROTOCOL.md")
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			weak := strings.Replace(flowProtocol, "MUST", "MAY ", 1)
			if err := os.WriteFile(p, []byte(weak), 0o644); err != nil {
				t.Fatal(err)
			}
			touch, err := exec.LookPath("touch")
			if err != nil {
				t.Skip("touch is not installed")
			}
			mt := st.ModTime()
			if out, err := exec.Command(touch, "-d", fmt.Sprintf("@%d.%09d", mt.Unix(), mt.Nanosecond()), p).CombinedOutput(); err != nil {
				t.Fatalf("touch -d: %v %s", err, out)
			}
			if st2, err := os.Stat(p); err != nil || st2.Size() != st.Size() || !st2.ModTime().Equal(mt) {
				t.Fatalf("the rewrite must keep size and mtime: %v %v", st2, err)
			}
			if _, err := e.engine.ValidateGate(ctx, id, ""); !errors.Is(err, session.ErrProtectedChanged) {
				t.Fatalf("after an in-place edit within the window: %v, want ErrProtectedChanged", err)
			}
		}, false, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			session.SetStampNow(func() time.Time { return time.Now().Add(time.Minute) }) // the protected files' stamps count as old: cached
			t.Cleanup(func() { session.SetStampNow(time.Now) })
			// The engine's clock stands still here, so only the timer
			// (real time) could write held repeats: it runs only where the
			// case is about it, whatever the machine's load.
			if !tc.timer {
				session.SetRepeatFlushDelay(time.Hour)
				t.Cleanup(func() { session.SetRepeatFlushDelay(0) })
			}
			e := newEnv(t, flowProtocol)
			e.engine.Config.IdleTimeout = time.Second // a window of 100 ms
			e.engine.Config.Protect = true
			gittest.Commit(t, e.root, "protocol", map[string]string{"SESSION-PROTOCOL.md": flowProtocol})
			id := e.start("held back")
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "read the notes")
			other, err := store.Open(ctx, e.db.Path())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { other.Close() })
			stored := func() int64 {
				t.Helper()
				reps, err := e.db.GateRepeats(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				var n int64
				for _, r := range reps {
					n += r.Repeats
				}
				return n
			}
			// One call recorded in full, one repeat written, three held.
			for range 5 {
				if _, err := e.engine.ValidateGate(ctx, id, ""); err != nil {
					t.Fatal(err)
				}
			}
			// Where the timer runs, it fires after 100 ms of real time, which a
			// loaded machine can spend on the five calls: then it has written
			// some held ones already (only the timer writes in that row).
			if n := stored(); n != 1 && !(tc.timer && n > 1 && n <= tc.wantTotal) {
				t.Fatalf("%d repeats written before the window passed, want 1 (the rest held back)", n)
			}
			last := e.now
			tc.then(e, other, id)
			if tc.timer {
				for deadline := time.Now().Add(20 * time.Second); stored() != tc.wantTotal && time.Now().Before(deadline); {
					time.Sleep(20 * time.Millisecond)
				}
			} else {
				e.engine.FlushGateRepeats(ctx)
			}
			if n := stored(); n != tc.wantTotal {
				t.Fatalf("%d repeats on record, want %d", n, tc.wantTotal)
			}
			s, err := e.db.GetSession(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if s.ExpiresAt.Before(last.Add(e.engine.Config.IdleTimeout)) {
				t.Fatalf("stored expiry %v is before the last repeat's %v", s.ExpiresAt, last.Add(e.engine.Config.IdleTimeout))
			}
		})
	}
}
