package session_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestClaudeTranscriptWrittenLate: Claude Code flushes its transcript
// every 100 ms, so a gate run by the agent's next call could read it before
// the result of the read the agent just made (TestClaudeForgedTranscriptLines
// "honest cat in the shell" failed so once under load). The result line is
// written here right after the gate's first read, which missed it (a hook,
// not a clock): the gate waits for it when the PostToolUse hook saw the call
// report. The rows without that report are the bounds: a call still running
// (the gate's own) is not waited for, and a result that never comes is
// waited for once.
func TestClaudeTranscriptWrittenLate(t *testing.T) {
	requireGit(t)
	tests := []struct {
		name     string
		reported bool // the PostToolUse hook saw the cat report
		late     bool // its result line comes after the gate's first read
		met      bool
		token    string // the event the gate records ("" none)
	}{
		{"result late, reported: waited for", true, true, true, "transcript:claude:late"},
		{"result in time", true, false, true, ""},
		{"no report yet (still running): not waited for", false, true, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			id := e.start("transcripts")
			path := filepath.Join(t.TempDir(), "s.jsonl")
			appendTo(t, path, "{}\n")
			if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
				t.Fatal(err)
			}
			lines := claudeLines("t1", "Bash", `{"command":"cat docs/guide.md"}`, "# Guide", false)
			use, result, _ := strings.Cut(lines, "\n")
			appendTo(t, path, use+"\n")
			if !tt.late {
				appendTo(t, path, result)
			}
			if tt.reported {
				err := e.db.Update(ctx, func(w session.Writer) error {
					return w.AppendEvent(ctx, &session.Event{SessionID: id, Token: session.TokenToolResult, Detail: "claude t1", CreatedAt: e.now})
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			var once sync.Once
			restore := session.SetAfterTranscriptRead(func(p string) {
				if p == path && tt.late {
					once.Do(func() { appendTo(t, path, result) })
				}
			})
			st := e.reqStatus(id, txReqRead)
			restore()
			if got := st.Status == session.ReqMet; got != tt.met {
				t.Errorf("read %s %q, want met %v", st.Status, st.Reason, tt.met)
			}
			evs, _ := e.db.ListEvents(ctx, id, 0, 0)
			var toks []string
			for _, ev := range evs {
				if strings.HasPrefix(ev.Token, "transcript:claude:") {
					toks = append(toks, ev.Token)
				}
			}
			if got := fmt.Sprint(toks); tt.token != "" && !strings.Contains(got, tt.token) || tt.token == "" && strings.Contains(got, ":late") {
				t.Errorf("events %v, want %q", toks, tt.token)
			}
		})
	}
}

// TestClaudeLateWaitBounded is the cost side of the wait (issue 25 item 4,
// round 24): a lazy agent should not be able to make every gate wait. A
// reported call whose result never comes is waited for at one gate only
// (transcript:claude:behind), and a tool_use line of that call appended
// again after each gate (a forged line re-using a reported id, the only
// way the agent's shell can make a reported call look pending again) adds
// no wait either. The honest twin: a result that comes in time is never
// waited for.
func TestClaudeLateWaitBounded(t *testing.T) {
	requireGit(t)
	tests := []struct {
		name   string
		result bool // the call's result is in the transcript
		again  bool // its tool_use line is appended again before each gate
		waits  int  // gates that may wait
	}{
		{"result never comes: one gate waits", false, false, 1},
		{"lazy: the reported call's tool_use appended again before every gate", false, true, 1},
		{"lazy: the same after its real result", true, true, 1},
		{"honest: result in time", true, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			id := e.start("transcripts")
			path := filepath.Join(t.TempDir(), "s.jsonl")
			appendTo(t, path, "{}\n")
			if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
				t.Fatal(err)
			}
			lines := claudeLines("t1", "Bash", `{"command":"cat docs/guide.md"}`, "# Guide", false)
			use, result, _ := strings.Cut(lines, "\n")
			appendTo(t, path, use+"\n")
			if tt.result {
				appendTo(t, path, result)
			}
			err := e.db.Update(ctx, func(w session.Writer) error {
				return w.AppendEvent(ctx, &session.Event{SessionID: id, Token: session.TokenToolResult, Detail: "claude t1", CreatedAt: e.now})
			})
			if err != nil {
				t.Fatal(err)
			}
			slow := 0
			for i := range 4 {
				if tt.again && i > 0 {
					appendTo(t, path, use+"\n")
				}
				start := time.Now()
				e.reqStatus(id, txReqRead)
				if took := time.Since(start); took > session.DefaultTranscriptWait*2/3 {
					slow++
					t.Logf("gate %d took %s", i+1, took.Round(time.Millisecond))
				}
			}
			if slow > tt.waits {
				t.Errorf("%d of 4 gates waited for the transcript, want at most %d", slow, tt.waits)
			}
		})
	}
}
