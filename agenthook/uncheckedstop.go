package agenthook

import (
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/stopnote"
)

// A stop let through without a check (the database locked or broken, the
// time limit passed) is written down beside the database (package
// stopnote); every sessiongate process that opens the database folds the
// note in as END_PROTOCOL_SKIPPED, this hook included.

// noteUncheckedStop appends the stop to the note beside dbPath. Best
// effort: the hook still answers.
func noteUncheckedStop(dbPath string, ev *Event, mark, why string) error {
	if ev == nil || ev.Kind != KindStop || ev.Unread || ev.AgentSession == "" || dbPath == "" {
		return nil
	}
	return stopnote.Add(dbPath, stopnote.Stop{Agent: ev.Agent, AgentSession: ev.AgentSession, At: time.Now().UTC(), Why: why, Mark: mark})
}

// stopNote is what a stop answered by fail mode writes down: set by decide
// once the database path is known, called from any fail-mode path.
type stopNote struct {
	dbPath string
	ev     *Event
	work   *workJob
}

// setStopNote arms the note for a stop event.
func (r *Runner) setStopNote(n *stopNote) {
	r.noteMu.Lock()
	r.note = n
	r.noteMu.Unlock()
}

// noteStop writes the armed note, once; the worktree mark is waited for
// briefly (the time limit has often passed already).
func (r *Runner) noteStop(why string) {
	r.noteMu.Lock()
	n := r.note
	r.note = nil
	r.noteMu.Unlock()
	if n == nil {
		return
	}
	mark := ""
	if n.work != nil && n.work.done != nil {
		select {
		case <-n.work.done:
			if n.work.err == nil {
				mark = n.work.ws.Mark
			}
		case <-time.After(200 * time.Millisecond):
		}
	}
	if err := noteUncheckedStop(n.dbPath, n.ev, mark, why); err != nil {
		fmt.Fprintf(r.Stderr, "sessiongate: agent-hook %s %s: %v\n", n.ev.Agent, n.ev.Name, err)
	}
}
