package session_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// BenchmarkUnreportedAtGate: what every gate (advance, end, the commit
// gate) asks of the session's tool calls, on an honest session of 2,000
// and of 20,000 events: Claude Code calls judged and reported, a few a
// person interrupted (settled by the next prompt), Copilot calls and
// other events between them. Nothing is missing, so one op is the reads
// alone and the session does not change.
func BenchmarkUnreportedAtGate(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			e := newEnv(b, lintProtocol)
			id := e.start("bench")
			ctx := context.Background()
			seedGateSession(b, e, id, n)
			for b.Loop() {
				if v, err := e.engine.UnreportedAtGate(ctx, id, "session advance"); err != nil || v != nil {
					b.Fatalf("UnreportedAtGate: %v, %v", v, err)
				}
			}
		})
	}
}

// seedGateSession appends about n events to session id: per round a
// Claude call judged and reported with its evidence, a Copilot call judged
// and reported, and a gate event; every 50th Claude call interrupted and
// settled by a prompt instead of reported.
func seedGateSession(tb testing.TB, e *env, id string, n int) {
	tb.Helper()
	ctx := context.Background()
	judged := strings.Repeat("a", 64)
	key := session.CopilotCallKey("bash", judged)
	err := e.db.Update(ctx, func(w session.Writer) error {
		var evs []*session.Event
		for i := 0; len(evs) < n; i++ {
			tid := fmt.Sprintf("toolu_%05d", i)
			evs = append(evs,
				&session.Event{SessionID: id, Token: session.TokenAgentCall, Detail: tid + " Bash " + judged},
				&session.Event{SessionID: id, Token: session.TokenJudgedInput, Detail: tid + " Bash " + judged},
				&session.Event{SessionID: id, Token: "tool:record_evidence", Detail: "observed shell command " + tid})
			if i%50 == 49 {
				evs = append(evs, &session.Event{SessionID: id, Token: session.TokenToolUnreported, Detail: "claude " + tid + " interrupted"})
			} else {
				evs = append(evs, &session.Event{SessionID: id, Token: session.TokenToolResult, Detail: "claude " + tid})
			}
			evs = append(evs,
				&session.Event{SessionID: id, Token: session.TokenCopilotJudged, Detail: key + " bash " + judged},
				&session.Event{SessionID: id, Token: session.TokenToolResult, Detail: "copilot " + key},
				&session.Event{SessionID: id, Token: "gate:WORKING:PASS", Detail: fmt.Sprintf("check %d", i)})
		}
		return w.AppendEvents(ctx, evs...)
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// gateCounting is countingStore that also counts the events read in order
// (ListEvents, LastEvents).
type gateCounting struct{ countingStore }

func (c *gateCounting) ListEvents(ctx context.Context, sessionID string, afterSeq int64, limit int) ([]session.Event, error) {
	evs, err := c.Store.ListEvents(ctx, sessionID, afterSeq, limit)
	c.read += len(evs)
	return evs, err
}

func (c *gateCounting) LastEvents(ctx context.Context, sessionID string, n int, tokens ...string) ([]session.Event, error) {
	evs, err := c.Store.LastEvents(ctx, sessionID, n, tokens...)
	c.read += len(evs)
	return evs, err
}

// TestGateReadsDoNotGrow (round 30, c4): a gate's UnreportedAtGate read
// every event of the session and walked them for each of five agents; on a
// session of 5,000 events it now reads the open calls and the newest
// judged ones. The route stays closed: a call with no report is named at
// the gate, once.
func TestGateReadsDoNotGrow(t *testing.T) {
	e := newEnv(t, lintProtocol)
	id := e.start("gate reads")
	ctx := context.Background()
	seedGateSession(t, e, id, 5000)
	cs := &gateCounting{countingStore{Store: e.engine.Store}}
	e.engine.Store = cs
	if v, err := e.engine.UnreportedAtGate(ctx, id, "session advance"); err != nil || v != nil {
		t.Fatalf("an honest session's gate: %v, %v", v, err)
	}
	if cs.read > 400 {
		t.Errorf("the gate read %d events of a 5,000-event session, want at most 400", cs.read)
	}
	err := e.db.Update(ctx, func(w session.Writer) error {
		return w.AppendEvent(ctx, &session.Event{SessionID: id, Token: session.TokenJudgedInput, Detail: "toolu_open Write " + strings.Repeat("a", 64)})
	})
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.engine.UnreportedAtGate(ctx, id, "session advance")
	if err != nil || v == nil || !strings.Contains(v.Message, "toolu_open") || strings.Contains(v.Message, "toolu_0") {
		t.Fatalf("a gate with one unreported call: %v, %v; want TOOL_RESULT_MISSING naming toolu_open alone", v, err)
	}
	if v, err := e.engine.UnreportedAtGate(ctx, id, "session advance"); err != nil || v != nil {
		t.Errorf("the next gate: %v, %v; the call was named by the first", v, err)
	}
}
