package agenthook

import (
	"context"
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/stopnote"
)

// A stop let through without a check (the database locked or broken, the
// time limit passed) is written down beside the database (package
// stopnote); every sessiongate process that opens the database folds the
// note in as END_PROTOCOL_SKIPPED, this hook included. The stop is also
// written onto git (a ref of its own, else the records ref), which a
// deleted note does not take back (folds carry it onto the records ref,
// which verify reads in CI).

// noteUncheckedStop writes the stop down beside dbPath and onto the records
// ref ref of the worktree dir. Best effort: the hook still answers.
func noteUncheckedStop(dbPath, dir, ref string, ev *Event, mark, why string) error {
	if ev == nil || ev.Kind != KindStop || ev.Unread || ev.AgentSession == "" || dbPath == "" {
		return nil
	}
	return stopnote.Add(context.Background(), dbPath, stopnote.Stop{Agent: ev.Agent, AgentSession: ev.AgentSession, At: time.Now().UTC(), Why: why, Mark: mark, Dir: dir, Ref: ref})
}

// stopRecordsRef is the ref a stop goes onto: the configured records ref,
// else the default one (where acceptances go with in-tree records too,
// and where verify looks).
func stopRecordsRef(setting string) string {
	if session.IsRecordRef(setting) {
		return setting
	}
	return session.DefaultRecordsRef
}

// stopNote is what a stop answered by fail mode writes down: set by decide
// once the database path is known, called from any fail-mode path.
type stopNote struct {
	dbPath string
	dir    string // the worktree's top folder
	ref    string // the records ref
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
//
// The lock is held through the write: the handler goroutine and the time
// limit's answer can both get here, and the process exits once the time
// limit has answered; the second caller waits for the first's write (the
// records ref's, up to stopnote's bound) instead of exiting under it.
func (r *Runner) noteStop(why string) {
	r.noteMu.Lock()
	defer r.noteMu.Unlock()
	n := r.note
	r.note = nil
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
	if err := noteUncheckedStop(n.dbPath, n.dir, n.ref, n.ev, mark, why); err != nil {
		fmt.Fprintf(r.Stderr, "sessiongate: agent-hook %s %s: %v\n", n.ev.Agent, n.ev.Name, err)
	}
}
