package session_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/transcript"
)

// lateShellLine is one finished shell call of a Gemini CLI or Copilot
// transcript in the shape each CLI writes (transcript/testdata), split
// where Copilot splits it: the start, written when the call begins, and
// the end, which Copilot CLI 1.0.102 writes a moment after the call has
// returned. Gemini CLI writes the whole call at its end.
func lateShellLine(agent, id, command string, exit int) (start, end string) {
	if agent == transcript.Gemini {
		out := "Output: ok\nExit Code: (none)"
		if exit != 0 {
			out = fmt.Sprintf("Output: no\nExit Code: %d", exit)
		}
		return "", fmt.Sprintf(`{"id":"m-%s","type":"gemini","content":"","toolCalls":[{"id":%q,"name":"run_shell_command","args":{"command":%q},"status":"success","result":[{"functionResponse":{"id":%q,"name":"run_shell_command","response":{"output":%q}}}]}]}`+"\n",
			id, id, command, id, out)
	}
	return fmt.Sprintf(`{"type":"tool.execution_start","data":{"toolCallId":%q,"toolName":"bash","arguments":{"command":%q,"description":"run"}}}`+"\n", id, command),
		fmt.Sprintf(`{"type":"tool.execution_complete","data":{"toolCallId":%q,"success":%v,"shellExecution":{"exitCode":%d}}}`+"\n", id, exit == 0, exit)
}

// TestTranscriptCatchUp: Copilot CLI writes a shell call's completion to
// events.jsonl after the call has returned and its post-tool hook has run,
// so a gate run by the agent's next shell call read the transcript before
// the line of the read just made and refused honest work (seen with the
// real CLI in TestCopilotForgedTranscriptLines). A gate now waits, a
// bounded time, while the post-tool hook saw a shell command finish more
// often than the transcript shows it. The "written late" rows were not met
// on the old code (DefaultTranscriptWait 0), as "wait off" still shows (a
// run requirement is met by the hook's observed run meanwhile); the twins: nothing the hook
// saw finish is missing (no wait, no event), a call still running (the
// gate's own: no post-tool record) is not waited for, and a run the
// transcript never shows ends the wait with an event, once.
func TestTranscriptCatchUp(t *testing.T) {
	requireGit(t)
	const cat, status = "cat docs/guide.md", "git status"
	type run struct {
		command string
		exit    int
	}
	tests := []struct {
		name     string
		agent    string
		observed []run          // runs the post-tool hook saw finish
		now      []run          // runs whose whole line is in the transcript at the gate check
		late     []run          // runs whose end is written while the gate reads
		never    []run          // runs whose end is never written
		wait     *time.Duration // the bound; nil: the default
		req      string
		met      bool
		behind   int // transcript:<agent>:behind events after two gate checks
	}{
		{name: "copilot: the read's end written late", agent: transcript.Copilot, observed: []run{{cat, 0}}, late: []run{{cat, 0}}, req: txReqRead, met: true},
		{name: "gemini: the read's line written late", agent: transcript.Gemini, observed: []run{{cat, 0}}, late: []run{{cat, 0}}, req: txReqRead, met: true},
		{name: "copilot: the second of two cats written late", agent: transcript.Copilot, observed: []run{{cat, 0}, {status, 0}}, now: []run{{status, 0}}, late: []run{{cat, 0}}, req: txReqRead, met: true},
		// The route on the same code: without the wait the gate reads too early.
		{name: "copilot: wait off, decided as before", agent: transcript.Copilot, observed: []run{{cat, 0}}, late: []run{{cat, 0}}, wait: new(time.Duration), req: txReqRead, met: false},
		{name: "copilot: honest, nothing missing", agent: transcript.Copilot, observed: []run{{cat, 0}}, now: []run{{cat, 0}}, req: txReqRead, met: true},
		{name: "gemini: honest, nothing missing", agent: transcript.Gemini, observed: []run{{cat, 0}}, now: []run{{cat, 0}}, req: txReqRead, met: true},
		// The gate's own call, running: its start is there, its end is not,
		// and the post-tool hook has not seen it finish.
		{name: "copilot: a running call is not waited for", agent: transcript.Copilot, never: []run{{cat, 0}}, req: txReqRead, met: false},
		{name: "copilot: a run the transcript never shows", agent: transcript.Copilot, observed: []run{{cat, 0}}, never: []run{{cat, 0}}, wait: durationOf(150 * time.Millisecond), req: txReqRead, met: false, behind: 1},
		{name: "gemini: a run the transcript never shows", agent: transcript.Gemini, observed: []run{{cat, 0}}, wait: durationOf(150 * time.Millisecond), req: txReqRead, met: false, behind: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			if tt.wait != nil {
				ctx = session.WithTranscriptWait(ctx, *tt.wait)
			}
			gittest.Write(t, e.root, "docs/guide.md", "# Guide\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "guide")
			id := e.start("catch up")
			path := filepath.Join(t.TempDir(), "data", "s", "events.jsonl")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := e.engine.BindTranscript(ctx, id, tt.agent, "agent-1", path); err != nil {
				t.Fatal(err)
			}
			for _, r := range tt.observed {
				if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: tt.agent, Command: r.command, ExitCode: r.exit, Output: []byte("out")}); err != nil {
					t.Fatal(err)
				}
			}
			n := 0
			for _, r := range tt.now {
				n++
				start, end := lateShellLine(tt.agent, fmt.Sprintf("c%d", n), r.command, r.exit)
				appendTo(t, path, start+end)
			}
			for _, r := range tt.never {
				n++
				start, _ := lateShellLine(tt.agent, fmt.Sprintf("c%d", n), r.command, r.exit)
				appendTo(t, path, start)
			}
			var late []string
			for _, r := range tt.late {
				n++
				start, end := lateShellLine(tt.agent, fmt.Sprintf("c%d", n), r.command, r.exit)
				appendTo(t, path, start)
				late = append(late, end)
			}
			// The CLI writes the ends right after the gate's first read of
			// the transcript, which missed them (a hook, not a clock).
			var once sync.Once
			restore := session.SetAfterTranscriptRead(func(p string) {
				if p == path && len(late) > 0 {
					once.Do(func() { appendTo(t, path, strings.Join(late, "")) })
				}
			})
			sts, err := e.engine.Requirements(ctx, id, "ORIENTATION")
			restore()
			if err != nil {
				t.Fatal(err)
			}
			var st session.RequirementStatus
			for _, s := range sts {
				if s.ID == tt.req {
					st = s
				}
			}
			if got := st.Status == session.ReqMet; got != tt.met {
				t.Fatalf("met %v (%s %q), want %v", got, st.Status, st.Reason, tt.met)
			}
			// A second gate check does not wait again for what the first gave up on.
			if _, err := e.engine.Requirements(ctx, id, "ORIENTATION"); err != nil {
				t.Fatal(err)
			}
			evs, err := e.engine.Store.ListEvents(ctx, id, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			var behind, waited []string
			for _, ev := range evs {
				switch ev.Token {
				case "transcript:" + tt.agent + ":behind":
					behind = append(behind, ev.Detail)
				case "transcript:" + tt.agent + ":late":
					waited = append(waited, ev.Detail)
				}
			}
			// A gate that waited and read the late line says so, once.
			if want := len(tt.late) > 0 && tt.met; (len(waited) == 1) != want || len(waited) > 1 {
				t.Fatalf("late events %q, want one %v", waited, want)
			}
			if len(waited) == 1 && !strings.Contains(waited[0], "`"+cat+"`") {
				t.Fatalf("the late event should name the run: %q", waited)
			}
			if len(behind) != tt.behind {
				t.Fatalf("behind events %q, want %d", behind, tt.behind)
			}
			if tt.behind > 0 && !strings.Contains(behind[0], "`"+cat+"` finished 1 time(s), the transcript shows 0") {
				t.Fatalf("the event should name the missing run: %q", behind)
			}
		})
	}
}

func durationOf(d time.Duration) *time.Duration { return &d }

// BenchmarkTranscriptCatchUpNoWait is a gate's read of a Copilot transcript
// that already shows every run the post-tool hook saw (the honest path:
// nothing is waited for), with the check and without it (wait 0 skips it).
func BenchmarkTranscriptCatchUpNoWait(b *testing.B) {
	for _, bc := range []struct {
		name string
		wait time.Duration
	}{{"check", session.DefaultTranscriptWait}, {"off", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			e := newEnv(b, transcriptProtocol)
			ctx := session.WithTranscriptWait(context.Background(), bc.wait)
			id := e.start("bench")
			path := filepath.Join(b.TempDir(), "events.jsonl")
			if err := e.engine.BindTranscript(ctx, id, transcript.Copilot, "agent-1", path); err != nil {
				b.Fatal(err)
			}
			var lines strings.Builder
			for i := range 30 {
				cmd := fmt.Sprintf("git log -n %d", i)
				if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: transcript.Copilot, Command: cmd, ExitCode: 0, Output: []byte("out")}); err != nil {
					b.Fatal(err)
				}
				start, end := lateShellLine(transcript.Copilot, fmt.Sprintf("c%d", i), cmd, 0)
				lines.WriteString(start + end)
			}
			if err := os.WriteFile(path, []byte(lines.String()), 0o600); err != nil {
				b.Fatal(err)
			}
			if _, err := e.engine.Requirements(ctx, id, "ORIENTATION"); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := e.engine.Requirements(ctx, id, "ORIENTATION"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
