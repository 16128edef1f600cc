package session_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// seedCopilotCalls appends n events of reported Copilot calls to session
// id: each a judged call (its own digest, so its own key) and its report,
// among a tool record per call.
func seedCopilotCalls(tb testing.TB, e *env, id string, n int) {
	tb.Helper()
	ctx := context.Background()
	for start := 0; start < n/3; start += 5000 {
		err := e.db.Update(ctx, func(w session.Writer) error {
			var evs []*session.Event
			for i := start; i < min(start+5000, n/3); i++ {
				d := fmt.Sprintf("%064x", i)
				key := session.CopilotCallKey("bash", d)
				evs = append(evs,
					&session.Event{SessionID: id, Token: session.TokenCopilotJudged, Detail: key + " bash " + d},
					&session.Event{SessionID: id, Token: "tool:bash", Detail: "x"},
					&session.Event{SessionID: id, Token: session.TokenToolResult, Detail: "copilot " + key})
			}
			return w.AppendEvents(ctx, evs...)
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// TestCopilotPostReadsDoNotGrow: Copilot's postToolUse (CopilotPost) reads
// the calls still open and, when none of the tool matches, whether the
// tool was ever judged; not every judged call and report of the session
// (it read all 1,000 of a 500-call session on every post). The route and
// the honest twin stay: the post of a judged call is paired and reported,
// a post with input no preToolUse judged is a TOOL_INPUT_REWRITTEN, and a
// tool the session never judged (hooks of an older version) is not
// compared.
func TestCopilotPostReadsDoNotGrow(t *testing.T) {
	e := newEnv(t, lintProtocol)
	id := e.start("copilot reads")
	ctx := context.Background()
	seedCopilotCalls(t, e, id, 1500)
	cs := &countingStore{Store: e.engine.Store}
	e.engine.Store = cs
	d := strings.Repeat("c", 64)
	if err := e.engine.KeepCopilotJudged(ctx, id, "bash", d); err != nil {
		t.Fatal(err)
	}
	if why, err := e.engine.CopilotPost(ctx, id, "bash", d, "ls"); err != nil || why != "" {
		t.Fatalf("the judged call's post: %q, %v; want it paired", why, err)
	}
	if why, err := e.engine.CopilotPost(ctx, id, "bash", strings.Repeat("d", 64), "rm -rf x"); err != nil || !strings.Contains(why, "no preToolUse judged") {
		t.Errorf("a post no preToolUse judged: %q, %v; want TOOL_INPUT_REWRITTEN", why, err)
	}
	if why, err := e.engine.CopilotPost(ctx, id, "powershell", d, "dir"); err != nil || why != "" {
		t.Errorf("a tool the session never judged: %q, %v; want it not compared", why, err)
	}
	if cs.read > 12 {
		t.Errorf("three posts read %d events of a 500-call session, want at most 12", cs.read)
	}
	evs, err := e.db.EventsWithPrefix(ctx, id, "copilot "+session.CopilotCallKey("bash", d), session.TokenToolResult)
	if err != nil || len(evs) != 1 {
		t.Errorf("the judged call's report: %v, %v; want one", evs, err)
	}
}

// BenchmarkCopilotPost: Copilot's postToolUse on a session of 10,000 and
// 100,000 events of reported calls. "read" is a post of a tool the session
// never judged (what is read to decide, nothing written); "pair" is one call
// kept by preToolUse and paired by postToolUse (two write transactions, whose
// commits dominate on a loaded disk).
//
//	go test ./session -run '^$' -bench CopilotPost -benchtime 20x
func BenchmarkCopilotPost(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{10_000, 100_000} {
		e := newEnv(b, lintProtocol)
		id := e.start("copilot bench")
		seedCopilotCalls(b, e, id, n)
		b.Run(fmt.Sprintf("events=%d/read", n), func(b *testing.B) {
			for b.Loop() {
				if why, err := e.engine.CopilotPost(ctx, id, "powershell", strings.Repeat("e", 64), "dir"); err != nil || why != "" {
					b.Fatalf("CopilotPost: %q, %v", why, err)
				}
			}
		})
		b.Run(fmt.Sprintf("events=%d/pair", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				d := fmt.Sprintf("%063xf", i)
				if err := e.engine.KeepCopilotJudged(ctx, id, "bash", d); err != nil {
					b.Fatal(err)
				}
				if why, err := e.engine.CopilotPost(ctx, id, "bash", d, "ls"); err != nil || why != "" {
					b.Fatalf("CopilotPost: %q, %v", why, err)
				}
			}
		})
	}
}

// TestOpenCallsTamperedStillMissingAtGate: the open calls' counts
// (open_calls) are kept beside the events, so a lazy agent with the sqlite3
// CLI can delete them without writing an event: a Stop then names no
// unreported call. The gates do not read the counts: they read the
// session's events (UnreportedAtGate), so the call is still a
// TOOL_RESULT_MISSING at the next gate, and the session is not clean. The
// honest twin: a call that reported is named by neither.
func TestOpenCallsTamperedStillMissingAtGate(t *testing.T) {
	sqlite3, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 not found: the lazy agent's tool")
	}
	e := newEnv(t, lintProtocol)
	id := e.start("tampered counts")
	ctx := context.Background()
	d := strings.Repeat("a", 64)
	for _, c := range []string{"toolu_honest", "toolu_dropped"} {
		if err := e.engine.KeepJudgedInput(ctx, id, c, "Edit", d, ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.engine.RecordToolResult(ctx, id, "claude", "toolu_honest", false); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(sqlite3, e.db.Path(), "DELETE FROM open_calls").CombinedOutput(); err != nil {
		t.Fatalf("sqlite3: %v\n%s", err, out)
	}
	if v, err := e.engine.ToolResultsMissing(ctx, id, "claude"); err != nil || v != nil {
		t.Logf("Stop after the counts were deleted: %v, %v", v, err)
	}
	v, err := e.engine.UnreportedAtGate(ctx, id, "session end")
	if err != nil || v == nil || v.Code != session.CodeToolResultMissing || !strings.Contains(v.Message, "toolu_dropped") || strings.Contains(v.Message, "toolu_honest") {
		t.Fatalf("the gate after the counts were deleted: %v, %v; want TOOL_RESULT_MISSING naming toolu_dropped alone", v, err)
	}
}
