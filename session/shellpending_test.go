package session_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// listCounting counts the events every read hands back.
type listCounting struct {
	session.Store
	read int
}

func (c *listCounting) ListEvents(ctx context.Context, id string, after int64, limit int) ([]session.Event, error) {
	evs, err := c.Store.ListEvents(ctx, id, after, limit)
	c.read += len(evs)
	return evs, err
}

func (c *listCounting) OpenCallEvents(ctx context.Context, id, judged, agent string) ([]session.Event, error) {
	evs, err := c.Store.OpenCallEvents(ctx, id, judged, agent)
	c.read += len(evs)
	return evs, err
}

func (c *listCounting) WalkOpenCallEvents(ctx context.Context, id, judged, agent string) ([]session.Event, error) {
	evs, err := c.Store.WalkOpenCallEvents(ctx, id, judged, agent)
	c.read += len(evs)
	return evs, err
}

// longSession adds n reported shell calls per agent (Claude Code, Codex,
// Gemini CLI) plus the extra events, one transaction.
func longSession(t testing.TB, e *env, id string, n int, extra ...*session.Event) {
	t.Helper()
	d := strings.Repeat("a", 64)
	ctx := context.Background()
	err := e.db.Update(ctx, func(w session.Writer) error {
		evs := make([]*session.Event, 0, 6*n+len(extra))
		for i := range n {
			evs = append(evs,
				&session.Event{SessionID: id, Token: session.TokenJudgedInput, Detail: fmt.Sprintf("toolu_%06d Bash %s", i, d)},
				&session.Event{SessionID: id, Token: session.TokenToolResult, Detail: fmt.Sprintf("claude toolu_%06d", i)},
				&session.Event{SessionID: id, Token: session.TokenCodexJudged, Detail: fmt.Sprintf("call_%06d Bash %s", i, d)},
				&session.Event{SessionID: id, Token: session.TokenToolResult, Detail: fmt.Sprintf("codex call_%06d", i)},
				&session.Event{SessionID: id, Token: session.TokenGeminiJudged, Detail: fmt.Sprintf("g_%06d run_shell_command %s", i, d)},
				&session.Event{SessionID: id, Token: session.TokenToolResult, Detail: fmt.Sprintf("gemini g_%06d", i)})
		}
		for _, ev := range extra {
			ev.SessionID = id
		}
		return w.AppendEvents(ctx, append(evs, extra...)...)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestShellCallPendingBounded (round 29, c4; round 28 c3's item 3): the
// read behind a person's commit of a protected file (is an agent's shell
// call running?) answers on the agents' open calls, as the reader of every
// event of the session did (differential, same store), and reads a
// handful of events of a session holding 50,000 calls.
func TestShellCallPendingBounded(t *testing.T) {
	d := strings.Repeat("a", 64)
	ev := func(tok, detail string) *session.Event { return &session.Event{Token: tok, Detail: detail} }
	cases := []struct {
		name  string
		extra []*session.Event
		want  bool
	}{
		{"every call reported", nil, false},
		{"the oldest kind of open call: a shell call judged, no report", []*session.Event{ev(session.TokenJudgedInput, "toolu_open Bash "+d)}, true},
		{"an open write call only", []*session.Event{ev(session.TokenJudgedInput, "toolu_w Write "+d)}, false},
		{"an open Codex shell call", []*session.Event{ev(session.TokenCodexJudged, "call_open Bash "+d)}, true},
		{"an open call settled missing", []*session.Event{ev(session.TokenJudgedInput, "toolu_m Bash "+d), ev(session.TokenToolUnreported, "claude toolu_m missing")}, false},
		{"a call id judged twice, reported once", []*session.Event{ev(session.TokenJudgedInput, "toolu_000001 Bash "+d)}, true},
		{"a sub-agent's open shell call", []*session.Event{ev(session.TokenJudgedInput, "toolu_sub Bash "+d+" sub:a1")}, true},
	}
	n := 50000 / 3 // 50,000 calls in all
	if testing.Short() {
		n = 2000
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, lintProtocol)
			id := e.start("long-lived")
			longSession(t, e, id, n, c.extra...)
			ctx := context.Background()
			cs := &listCounting{Store: e.engine.Store}
			e.engine.Store = cs
			old, err := e.engine.ShellCallPendingAllEvents(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			oldRead := cs.read
			cs.read = 0
			got, err := e.engine.ShellCallPending(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if got != old || got != c.want {
				t.Errorf("pending %v, all-events reader %v, want %v", got, old, c.want)
			}
			if cs.read > 10 {
				t.Errorf("read %d events (all-events reader: %d), want at most 10", cs.read, oldRead)
			}
			t.Logf("%d calls: read %d events, the all-events reader %d", 3*n, cs.read, oldRead)
		})
	}
}

// BenchmarkShellCallPending: the bounded reader and the reader of every
// event, on a session of 50,000 reported shell calls per agent.
func BenchmarkShellCallPending(b *testing.B) {
	e := newEnv(b, lintProtocol)
	id := e.start("long-lived")
	longSession(b, e, id, 50000)
	ctx := context.Background()
	b.Run("open calls", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.engine.ShellCallPending(ctx, id); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("all events", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.engine.ShellCallPendingAllEvents(ctx, id); err != nil {
				b.Fatal(err)
			}
		}
	})
}
