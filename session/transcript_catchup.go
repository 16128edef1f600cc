package session

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/hookroute"
	"maps"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sessiongate/sessiongate/transcript"
)

// A transcript written after the call returned. Copilot CLI 1.0.102 writes
// a shell call's tool.execution_complete to events.jsonl a moment after the
// call returns and its postToolUse hook has run, so a gate run by the
// agent's very next shell call (`sessiongate session advance`) could read
// the transcript before the line of the read the agent just made, and
// refuse honest work. So when a gate reads a Gemini CLI or Copilot
// transcript and their post-tool hook saw a shell command finish more often
// than the transcript shows it, the gate waits a little for the file to
// grow and reads it again. A call that is still running (the gate's own)
// has no post-tool record yet, so it is never waited for; nothing is
// waited for when the transcript already shows every run the hook saw.
// After the bound the gate decides on what it read, as before, and records
// why (transcriptBehindToken); those runs are not waited for again.
// Counting the runs and reading again are transcript.CountRuns and
// transcript.CatchUp.

// DefaultTranscriptWait bounds that wait at one gate check.
const DefaultTranscriptWait = 1500 * time.Millisecond

// afterFirstRead, when set (tests), is called with a lagging transcript's
// path after a gate's first read of it: a test writes the late line there,
// after the read that missed it, whatever the machine's load.
var afterFirstRead atomic.Pointer[func(path string)]

type transcriptWaitKey struct{}

// WithTranscriptWait bounds the wait for a lagging transcript of the gates
// run under ctx (0: never wait). The agent hook gives what its own time
// limit leaves; elsewhere DefaultTranscriptWait holds.
func WithTranscriptWait(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, transcriptWaitKey{}, max(d, 0))
}

func transcriptWait(ctx context.Context) time.Duration {
	if d, ok := ctx.Value(transcriptWaitKey{}).(time.Duration); ok {
		return d
	}
	return DefaultTranscriptWait
}

// hookRun is a command line the post-tool hook saw finish, and how often.
type hookRun struct {
	command string
	n       int
}

// finishedRuns are the shell runs of agent the post-tool hook observed in
// the session since the transcript was bound, by transcript.RunKey. A
// command line of MaxCommandBytes or more is kept shortened there and
// cannot be compared: it is left out.
func finishedRuns(evs []Evidence, agent string, since time.Time) map[string]*hookRun {
	var out map[string]*hookRun
	for _, ev := range evs {
		if ev.Origin != OriginObserved || ev.Source != agent || ev.CreatedAt.Before(since) || ev.Command == "" || len(ev.Command) >= MaxCommandBytes {
			continue
		}
		if out == nil {
			out = map[string]*hookRun{}
		}
		k := transcript.RunKey(ev.Command)
		if out[k] == nil {
			out[k] = &hookRun{command: ev.Command}
		}
		out[k].n++
	}
	return out
}

// catchUp waits, up to the bound, for a Gemini CLI or Copilot transcript
// that shows fewer runs than the post-tool hook saw finish, reading what it
// gains. It returns every call read (calls and the new ones), the state,
// and, when it had to wait, the event that says so: transcriptLateToken
// when the transcript caught up, transcriptBehindToken when it stopped
// waiting while still behind (st.Runs then counts the missing runs as
// shown, so the next gate does not wait for them again).
func (e *Engine) catchUp(ctx, rctx context.Context, cw *callWitness, t *AgentTranscript, calls []transcript.Call, st transcript.State) ([]transcript.Call, transcript.State, *Event) {
	if !transcript.Lagging(t.Agent) {
		return calls, st, nil
	}
	if f := afterFirstRead.Load(); f != nil {
		(*f)(t.Path)
	}
	wait := transcriptWait(ctx)
	if wait <= 0 {
		return calls, st, nil
	}
	evs, err := cw.evidence()
	if err != nil {
		return calls, st, nil // nothing to compare: decide as before
	}
	runs := finishedRuns(evs, t.Agent, t.CreatedAt)
	want := make(map[string]int, len(runs))
	for k, r := range runs {
		want[k] = r.n
	}
	behind := transcript.Behind(want, st)
	if len(behind) == 0 {
		return calls, st, nil
	}
	waitedFor := make([]string, 0, len(behind))
	for _, k := range behind {
		waitedFor = append(waitedFor, "`"+truncate(runs[k].command, 80)+"`")
	}
	start := time.Now()
	deadline := start.Add(wait)
	if d, ok := rctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	more, st, behind := transcript.CatchUp(rctx, t.Path, t.Agent, st, want, deadline)
	calls = append(calls, more...)
	if len(behind) == 0 {
		return calls, st, &Event{Token: transcriptLateToken(t.Agent), Detail: truncate(fmt.Sprintf("waited %s for the line(s) of %s, which %s's post-tool hook had seen finish",
			time.Since(start).Round(10*time.Millisecond), strings.Join(waitedFor, ", "), hookroute.AgentName(t.Agent)), 300)}
	}
	var what []string
	runsCopy := maps.Clone(st.Runs)
	if runsCopy == nil {
		runsCopy = map[string]int{}
	}
	for _, k := range behind {
		r := runs[k]
		what = append(what, fmt.Sprintf("`%s` finished %d time(s), the transcript shows %d", truncate(r.command, 80), r.n, st.Runs[k]))
		runsCopy[k] = r.n
	}
	st.Runs = runsCopy
	why := fmt.Sprintf("%s's post-tool hook saw %s; after waiting %s the transcript %s has not caught up, so the gate decided on what it shows",
		hookroute.AgentName(t.Agent), strings.Join(what, "; "), time.Since(start).Round(10*time.Millisecond), t.Path)
	return calls, st, &Event{Token: transcriptBehindToken(t.Agent), Detail: truncate(why, 300)}
}

// transcriptBehindToken is the event of a gate that stopped waiting for a
// lagging transcript, transcriptLateToken of one that waited and read the
// late lines (how often the race happens, and how long it lasts).
func transcriptBehindToken(agent string) string { return "transcript:" + agent + ":behind" }

func transcriptLateToken(agent string) string { return "transcript:" + agent + ":late" }
