package agenthook

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/session"
)

// A stop that sessiongate cannot decide (the database locked or broken,
// the time limit passed) is let through: blocking it could loop the agent.
// A lazy agent made that happen on purpose: with the real Claude Code it
// held sessiongate's database under an exclusive lock from a background
// shell and stopped with its work done and the end protocol undone, and no
// violation was recorded (TestClaudeLazyAgentLocksTheDatabaseThenStops).
// So such a stop is written down beside the database, outside it, and the
// next hook that opens the database records it as END_PROTOCOL_SKIPPED on
// the bound session unless that session completed by then.

// uncheckedStopsFile is the note beside the database.
const uncheckedStopsFile = "unchecked-stops.jsonl"

// maxUncheckedStops bounds the note (a stop loop against a broken database
// appends once per stop).
const maxUncheckedStops = 64 << 10

type uncheckedStop struct {
	Agent        string    `json:"agent"`
	AgentSession string    `json:"agent_session"`
	At           time.Time `json:"at"`
	Why          string    `json:"why"`
	// Mark is the worktree's fingerprint at the stop ("" unknown): equal
	// to the binding's turn mark, the turn changed nothing and the stop
	// would have been allowed.
	Mark string `json:"mark,omitempty"`
}

// noteUncheckedStop appends the stop to the note beside dbPath. Best
// effort: the hook still answers.
func noteUncheckedStop(dbPath string, ev *Event, mark, why string) error {
	if ev == nil || ev.Kind != KindStop || ev.Unread || ev.AgentSession == "" || dbPath == "" {
		return nil
	}
	p := filepath.Join(filepath.Dir(dbPath), uncheckedStopsFile)
	if st, err := os.Stat(p); err == nil && st.Size() > maxUncheckedStops {
		return nil
	}
	b, err := json.Marshal(uncheckedStop{Agent: ev.Agent, AgentSession: ev.AgentSession, At: time.Now().UTC(), Why: shorten.Bytes(why, 200, ""), Mark: mark})
	if err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("note the unchecked stop: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// drainUncheckedStops records the noted stops as violations and removes
// the note. The note is claimed by a rename first, so two hooks never
// record one stop twice; a note that cannot be recorded now is put back.
func drainUncheckedStops(ctx context.Context, eng *session.Engine, dbPath string) error {
	p := filepath.Join(filepath.Dir(dbPath), uncheckedStopsFile)
	if _, err := os.Lstat(p); err != nil {
		return nil // the usual case: one stat
	}
	claimed := fmt.Sprintf("%s.%d", p, os.Getpid())
	if err := os.Rename(p, claimed); err != nil {
		return nil // another hook claimed it
	}
	f, err := os.Open(claimed)
	if err != nil {
		return fmt.Errorf("read the unchecked stops: %w", err)
	}
	var stops []uncheckedStop
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var s uncheckedStop
		if json.Unmarshal(sc.Bytes(), &s) == nil && s.Agent != "" && s.AgentSession != "" {
			stops = append(stops, s)
		}
	}
	f.Close()
	ar, ok := eng.Store.(session.AgentReader)
	if !ok {
		os.Remove(claimed)
		return nil
	}
	seen := map[string]bool{}
	var vios []*session.Violation
	for _, st := range stops {
		b, err := ar.GetAgentBinding(ctx, st.Agent, st.AgentSession)
		if errors.Is(err, session.ErrNotFound) {
			continue
		}
		if err != nil {
			_ = os.Rename(claimed, p)
			return fmt.Errorf("read the binding of an unchecked stop: %w", err)
		}
		if st.Mark != "" && st.Mark == b.TurnMark {
			continue // the turn changed nothing: an allowed stop
		}
		s, err := eng.Store.GetSession(ctx, b.SessionID)
		if errors.Is(err, session.ErrNotFound) || err == nil && s.State == session.StateComplete || seen[b.SessionID] {
			continue // completed after all, or recorded once already
		}
		if err != nil {
			_ = os.Rename(claimed, p)
			return fmt.Errorf("read the session of an unchecked stop: %w", err)
		}
		seen[s.ID] = true
		vios = append(vios, &session.Violation{
			SessionID: s.ID, RepoID: s.RepoID, Phase: s.Phase, Severity: session.SeverityHigh, Code: session.CodeEndProtocolSkipped,
			Message: fmt.Sprintf("%s stopped at %s while sessiongate could not check the stop (%s); the session was %s, its end protocol undone",
				st.Agent, st.At.Format(time.RFC3339), strings.TrimSpace(st.Why), s.State),
			Window: session.WindowSession, CreatedAt: time.Now().UTC(),
		})
	}
	if len(vios) > 0 {
		err := eng.Store.Update(ctx, func(w session.Writer) error {
			for _, v := range vios {
				if err := w.AddViolation(ctx, v); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			_ = os.Rename(claimed, p)
			return fmt.Errorf("record the unchecked stops: %w", err)
		}
	}
	return os.Remove(claimed)
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
