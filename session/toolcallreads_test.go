package session_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// countingStore counts the events the engine reads through the store's
// token reads: what a hook pays per event grows with that count.
type countingStore struct {
	session.Store
	read int
}

func (c *countingStore) EventsWith(ctx context.Context, sessionID string, tokens ...string) ([]session.Event, error) {
	evs, err := c.Store.EventsWith(ctx, sessionID, tokens...)
	c.read += len(evs)
	return evs, err
}

func (c *countingStore) EventsWithPrefix(ctx context.Context, sessionID, prefix string, tokens ...string) ([]session.Event, error) {
	evs, err := c.Store.EventsWithPrefix(ctx, sessionID, prefix, tokens...)
	c.read += len(evs)
	return evs, err
}

func (c *countingStore) OpenCallEvents(ctx context.Context, sessionID, judged, agent string) ([]session.Event, error) {
	evs, err := c.Store.OpenCallEvents(ctx, sessionID, judged, agent)
	c.read += len(evs)
	return evs, err
}

func (c *countingStore) WalkOpenCallEvents(ctx context.Context, sessionID, judged, agent string) ([]session.Event, error) {
	evs, err := c.Store.WalkOpenCallEvents(ctx, sessionID, judged, agent)
	c.read += len(evs)
	return evs, err
}

// TestPostToolUseReadsDoNotGrow: the post-tool hook's two reads of a
// session's events (ToolInputRewritten, ReportAfterPrompt) read the events
// of the reported call, not every judged call the session holds: on a
// session of 500 calls they read a handful. The honest twin and the route
// stay as they were: the same input passes, another input is flagged, and
// a call a prompt settled that reports later is still a
// PROMPT_DURING_CALL.
func TestPostToolUseReadsDoNotGrow(t *testing.T) {
	e := newEnv(t, lintProtocol)
	id := e.start("reads")
	ctx := context.Background()
	judged := strings.Repeat("a", 64)
	other := strings.Repeat("b", 64)
	err := e.db.Update(ctx, func(w session.Writer) error {
		var evs []*session.Event
		for i := range 500 {
			tid := fmt.Sprintf("toolu_%04d", i)
			evs = append(evs,
				&session.Event{SessionID: id, Token: session.TokenAgentCall, Detail: tid + " Bash " + judged},
				&session.Event{SessionID: id, Token: session.TokenJudgedInput, Detail: tid + " Bash " + judged},
				&session.Event{SessionID: id, Token: session.TokenToolResult, Detail: "claude " + tid})
		}
		// One call a prompt settled as interrupted.
		evs = append(evs, &session.Event{SessionID: id, Token: session.TokenAgentCall, Detail: "toolu_late Bash " + judged},
			&session.Event{SessionID: id, Token: session.TokenJudgedInput, Detail: "toolu_late Bash " + judged},
			&session.Event{SessionID: id, Token: session.TokenToolUnreported, Detail: "claude toolu_late interrupted"})
		return w.AppendEvents(ctx, evs...)
	})
	if err != nil {
		t.Fatal(err)
	}
	cs := &countingStore{Store: e.engine.Store}
	e.engine.Store = cs
	if why, err := e.engine.ToolInputRewritten(ctx, id, "claude", "toolu_0499", "Bash", "ls", judged, judged); err != nil || why != "" {
		t.Fatalf("the judged input: %q, %v", why, err)
	}
	if v, err := e.engine.ReportAfterPrompt(ctx, id, "claude", "toolu_0499"); err != nil || v != nil {
		t.Fatalf("ReportAfterPrompt of a call no prompt settled: %v, %v", v, err)
	}
	if cs.read > 4 {
		t.Errorf("the post-tool reads of one call read %d events of a 500-call session, want at most 4", cs.read)
	}
	if why, err := e.engine.ToolInputRewritten(ctx, id, "claude", "toolu_0007", "Bash", "rm -rf x", other, other); err != nil || why == "" {
		t.Errorf("another input than the judged one: %q, %v; want TOOL_INPUT_REWRITTEN", why, err)
	}
	if v, err := e.engine.ReportAfterPrompt(ctx, id, "claude", "toolu_late"); err != nil || v == nil || v.Code != session.CodePromptDuringCall {
		t.Errorf("a settled call that reported: %v, %v; want PROMPT_DURING_CALL", v, err)
	}
}

// TestTurnEndReadsDoNotGrow: a new prompt (SettleUnreported) and a normal
// Stop (ToolResultsMissing) read the calls still open, not every judged
// call and report the session holds: on a session of 500 reported calls
// they read a handful of events (they read all 1,000 or more, at every
// prompt and stop of a long session). The routes stay closed: a call with
// no report is still settled at the prompt, and one with no report at Stop
// is still a TOOL_RESULT_MISSING; Copilot's repeated keys still pair by
// count; the honest calls that reported are never named.
func TestTurnEndReadsDoNotGrow(t *testing.T) {
	e := newEnv(t, lintProtocol)
	id := e.start("turn reads")
	ctx := context.Background()
	judged := strings.Repeat("a", 64)
	err := e.db.Update(ctx, func(w session.Writer) error {
		var evs []*session.Event
		for i := range 500 {
			tid := fmt.Sprintf("toolu_%04d", i)
			key := session.CopilotCallKey("bash", judged) // one key, judged 500 times
			evs = append(evs,
				&session.Event{SessionID: id, Token: session.TokenAgentCall, Detail: tid + " Bash " + judged},
				&session.Event{SessionID: id, Token: session.TokenJudgedInput, Detail: tid + " Bash " + judged},
				&session.Event{SessionID: id, Token: session.TokenToolResult, Detail: "claude " + tid},
				&session.Event{SessionID: id, Token: session.TokenCopilotJudged, Detail: key + " bash " + judged},
				&session.Event{SessionID: id, Token: session.TokenToolResult, Detail: "copilot " + key})
		}
		// One Claude call with no report, and a 501st Copilot judgment of the same key.
		evs = append(evs, &session.Event{SessionID: id, Token: session.TokenJudgedInput, Detail: "toolu_open Bash " + judged},
			&session.Event{SessionID: id, Token: session.TokenCopilotJudged, Detail: session.CopilotCallKey("bash", judged) + " bash " + judged})
		return w.AppendEvents(ctx, evs...)
	})
	if err != nil {
		t.Fatal(err)
	}
	cs := &countingStore{Store: e.engine.Store}
	e.engine.Store = cs
	v, err := e.engine.ToolResultsMissing(ctx, id, "claude")
	if err != nil || v == nil || !strings.Contains(v.Message, "toolu_open") || strings.Contains(v.Message, "toolu_0") {
		t.Fatalf("Stop with one unreported call: %v, %v; want TOOL_RESULT_MISSING naming toolu_open alone", v, err)
	}
	if v, err := e.engine.ToolResultsMissing(ctx, id, "claude"); err != nil || v != nil {
		t.Errorf("a second Stop: %v, %v; the call was settled by the first", v, err)
	}
	if err := e.engine.SettleUnreported(ctx, id, "copilot", "interrupted"); err != nil {
		t.Fatal(err)
	}
	if cs.read > 12 {
		t.Errorf("two Stops and a prompt read %d events of a 500-call session, want at most 12", cs.read)
	}
	evs, err := e.db.EventsWith(ctx, id, session.TokenToolUnreported)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range evs {
		got = append(got, ev.Detail)
	}
	want := []string{"claude toolu_open missing", "copilot " + session.CopilotCallKey("bash", judged) + " interrupted"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("settlements %q, want %q (the 501st Copilot judgment of a key reported 500 times is open)", got, want)
	}
}
