// Package stopnote is the note of agent stops sessiongate let through
// without checking them, and its folding into the database.
//
// A stop that sessiongate cannot decide (the database locked or broken,
// the hook's time limit passed) is let through: blocking it could loop the
// agent. A lazy agent made that happen on purpose: with the real Claude
// Code it held sessiongate's database under an exclusive lock from a
// background shell and stopped with its work done and the end protocol
// undone (TestClaudeLazyAgentLocksTheDatabaseThenStops). So such a stop is
// written down beside the database, outside it, and the next sessiongate
// process that opens that database (an agent hook, a git hook, any CLI
// command) records it as END_PROTOCOL_SKIPPED on the bound session unless
// that session completed by then. Folding costs one stat when there is no
// note.
//
// The note lives beside the database, in the git directory by default,
// which the agent hooks deny the agent's writes to (as they deny writes
// to the database), also through a computed or matched path
// (shellline.DeletesSessiongateFiles). A deletion they cannot see (a path
// only run time knows) is not detected: nothing outside the agent's reach
// holds the stop while the database is locked (docs/security.md).
package stopnote

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

// File is the note's name, beside the database.
const File = "unchecked-stops.jsonl"

// maxBytes bounds the note (a stop loop against a broken database appends
// once per stop).
const maxBytes = 64 << 10

// Stop is one stop let through unchecked.
type Stop struct {
	Agent        string    `json:"agent"`
	AgentSession string    `json:"agent_session"`
	At           time.Time `json:"at"`
	Why          string    `json:"why"`
	// Mark is the worktree's fingerprint at the stop ("" unknown): equal
	// to the binding's turn mark, the turn changed nothing and the stop
	// would have been allowed.
	Mark string `json:"mark,omitempty"`
}

// Path is the note beside the database at dbPath.
func Path(dbPath string) string { return filepath.Join(filepath.Dir(dbPath), File) }

// Pending reports whether a note waits beside dbPath (one stat).
func Pending(dbPath string) bool {
	if dbPath == "" {
		return false
	}
	_, err := os.Lstat(Path(dbPath))
	return err == nil
}

// Add appends s to the note beside dbPath. Best effort for the caller:
// the hook still answers.
func Add(dbPath string, s Stop) error {
	if dbPath == "" || s.Agent == "" || s.AgentSession == "" {
		return nil
	}
	p := Path(dbPath)
	if st, err := os.Stat(p); err == nil && st.Size() > maxBytes {
		return nil
	}
	s.Why = shorten.Bytes(s.Why, 200, "")
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("note the unchecked stop: %w", err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("note the unchecked stop: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("note the unchecked stop: %w", err)
	}
	return nil
}

// Fold records the noted stops beside dbPath as violations in st and
// removes the note; it returns how many it recorded. The note is claimed
// by a rename first, so two processes never record one stop twice; a note
// that cannot be recorded now is put back for the next process.
func Fold(ctx context.Context, st session.Store, dbPath string) (int, error) {
	if !Pending(dbPath) {
		return 0, nil // the usual case: one stat
	}
	p := Path(dbPath)
	claimed := fmt.Sprintf("%s.%d", p, os.Getpid())
	if err := os.Rename(p, claimed); err != nil {
		return 0, nil // another process claimed it
	}
	stops, err := read(claimed)
	if err != nil {
		_ = os.Rename(claimed, p)
		return 0, err
	}
	putBack := func(err error) (int, error) {
		_ = os.Rename(claimed, p)
		return 0, err
	}
	ar, ok := st.(session.AgentReader)
	if !ok {
		return putBack(nil) // a store without agent bindings cannot say whose stop it was
	}
	seen := map[string]bool{}
	var vios []*session.Violation
	for _, s := range stops {
		b, err := ar.GetAgentBinding(ctx, s.Agent, s.AgentSession)
		if errors.Is(err, session.ErrNotFound) {
			continue
		}
		if err != nil {
			return putBack(fmt.Errorf("read the binding of an unchecked stop: %w", err))
		}
		if s.Mark != "" && s.Mark == b.TurnMark {
			continue // the turn changed nothing: an allowed stop
		}
		sess, err := st.GetSession(ctx, b.SessionID)
		if errors.Is(err, session.ErrNotFound) || err == nil && sess.State == session.StateComplete || seen[b.SessionID] {
			continue // completed after all, or recorded once already
		}
		if err != nil {
			return putBack(fmt.Errorf("read the session of an unchecked stop: %w", err))
		}
		seen[sess.ID] = true
		vios = append(vios, &session.Violation{
			SessionID: sess.ID, RepoID: sess.RepoID, Phase: sess.Phase, Severity: session.SeverityHigh, Code: session.CodeEndProtocolSkipped,
			Message: fmt.Sprintf("%s stopped at %s while sessiongate could not check the stop (%s); the session was %s, its end protocol undone",
				s.Agent, s.At.Format(time.RFC3339), strings.TrimSpace(s.Why), sess.State),
			Window: session.WindowSession, CreatedAt: time.Now().UTC(),
		})
	}
	if len(vios) > 0 {
		err := st.Update(ctx, func(w session.Writer) error {
			for _, v := range vios {
				if err := w.AddViolation(ctx, v); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return putBack(fmt.Errorf("record the unchecked stops: %w", err))
		}
	}
	if err := os.Remove(claimed); err != nil {
		return len(vios), fmt.Errorf("remove the folded note of unchecked stops: %w", err)
	}
	return len(vios), nil
}

// read parses the claimed note; lines that do not parse are skipped.
func read(p string) ([]Stop, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("read the unchecked stops: %w", err)
	}
	defer f.Close()
	var stops []Stop
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var s Stop
		if json.Unmarshal(sc.Bytes(), &s) == nil && s.Agent != "" && s.AgentSession != "" {
			stops = append(stops, s)
		}
	}
	return stops, nil
}
