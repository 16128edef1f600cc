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
// only run time knows, a background shell started before the stop) used
// to launder the stop. So the stop is also written onto git at the same
// moment, first onto a ref of its own at a random name
// (recordref.PutStopRef: git plumbing, which neither the database lock nor
// a held records.lock or packed-refs.lock blocks), else onto the records
// ref: `session end`, MCP `session_end`, `records push` and the pre-push
// hook fold the stops on git that no process judged (FoldRecords), every
// fold writes its outcome beside the stop on the records ref and carries
// the stops there from their own refs, and verify in CI judges every stop
// the ref's history holds, with no note and no database
// (docs/security.md).
package stopnote

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/recordref"
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
	// Dir and Ref are the worktree and the records ref the stop was also
	// written onto, RefPath its path there ("" when it was not): the fold
	// writes its outcome beside it, so verify and later folds know it was
	// judged.
	Dir     string `json:"dir,omitempty"`
	Ref     string `json:"ref,omitempty"`
	RefPath string `json:"ref_path,omitempty"`
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

// refWriteLimit bounds the records ref write on the stop hook's path (its
// time limit has often passed already; a held ref lock must not keep the
// agent waiting).
const refWriteLimit = 1500 * time.Millisecond

// Add writes the stop down twice: appended to the note beside dbPath (a
// file, the quickest), then, when s names a worktree and a records ref,
// onto that ref (recordref.PutStop: git plumbing, no database lock), which
// the agent cannot take back by deleting the note. Best effort for the
// caller: the hook still answers.
func Add(ctx context.Context, dbPath string, s Stop) error {
	if dbPath == "" || s.Agent == "" || s.AgentSession == "" {
		return nil
	}
	s.At = s.At.UTC()
	s.Why = shorten.Bytes(s.Why, 200, "")
	var body []byte
	if s.Dir != "" && s.Ref != "" {
		b, p, err := recordref.StopBody(recordref.UncheckedStop{Agent: s.Agent, Conversation: s.AgentSession, At: s.At, Why: WhyClass(s.Why), Mark: s.Mark})
		if err != nil {
			return err
		}
		body, s.RefPath = b, p
	}
	errNote := addNote(dbPath, s)
	if body == nil {
		return errNote
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), refWriteLimit)
	defer cancel()
	if err := putStop(ctx, s.Dir, s.Ref, s.RefPath, body); err != nil {
		return errors.Join(errNote, err)
	}
	return errNote
}

// stopRefAttempts is how many fresh stop refs are tried before the records
// ref itself.
const stopRefAttempts = 2

// putStop writes the stop onto a ref of its own (recordref.PutStopRef: a
// random name, so no lock can be held on it in advance), a fresh name
// once more after a short pause, then onto the records ref itself: one of
// them takes it unless the refs folder cannot be written at all.
func putStop(ctx context.Context, dir, ref, path string, body []byte) error {
	var errs []error
	for i := 0; i < stopRefAttempts; i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				return errors.Join(append(errs, ctx.Err())...)
			case <-time.After(50 * time.Millisecond):
			}
		}
		_, err := recordref.PutStopRef(ctx, dir, ref, path, body)
		if err == nil {
			return nil
		}
		errs = append(errs, err)
	}
	if _, err := recordref.PutStop(ctx, dir, ref, path, body); err != nil {
		return errors.Join(append(errs, fmt.Errorf("write the unchecked stop onto %s: %w", ref, err))...)
	}
	return nil
}

// addNote appends s to the note beside dbPath.
func addNote(dbPath string, s Stop) error {
	p := Path(dbPath)
	if st, err := os.Stat(p); err == nil && st.Size() > maxBytes {
		return nil
	}
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

// WhyClass is the reason a stop went unchecked as the records ref keeps
// it: a fixed phrase, since the error text can name local paths and the
// ref is pushed.
func WhyClass(why string) string {
	w := strings.ToLower(why)
	switch {
	case strings.Contains(w, "time limit"):
		return "no decision within the time limit"
	case strings.Contains(w, "locked") || strings.Contains(w, "busy"):
		return "the database was locked"
	case strings.Contains(w, "open the database"):
		return "the database could not be opened"
	case strings.Contains(w, "internal error"):
		return "internal error"
	}
	return "the stop could not be decided"
}

// verdict is what one stop comes to against the database.
type verdict struct {
	outcome string             // recordref.Stop*
	sess    *session.Session   // the bound session (recorded, complete)
	vio     *session.Violation // to record (recorded, first of its session)
}

// judge decides one stop of agent's conversation conv: the rules the note
// and the records ref share.
func judge(ctx context.Context, st session.Store, ar session.AgentReader, agent, conv, mark string) (verdict, error) {
	b, err := ar.GetAgentBinding(ctx, agent, conv)
	if errors.Is(err, session.ErrNotFound) {
		return verdict{outcome: recordref.StopUnbound}, nil
	}
	if err != nil {
		return verdict{}, fmt.Errorf("read the binding of an unchecked stop: %w", err)
	}
	if mark != "" && mark == b.TurnMark {
		return verdict{outcome: recordref.StopUnchanged}, nil // the turn changed nothing: an allowed stop
	}
	sess, err := st.GetSession(ctx, b.SessionID)
	if errors.Is(err, session.ErrNotFound) {
		return verdict{outcome: recordref.StopUnbound}, nil
	}
	if err != nil {
		return verdict{}, fmt.Errorf("read the session of an unchecked stop: %w", err)
	}
	if sess.State == session.StateComplete {
		return verdict{outcome: recordref.StopComplete, sess: sess}, nil
	}
	return verdict{outcome: recordref.StopRecorded, sess: sess}, nil
}

// violation is END_PROTOCOL_SKIPPED for a stop of agent at at on sess;
// refPath, when known, names the stop on the records ref.
func violation(sess *session.Session, agent string, at time.Time, why, refPath string) *session.Violation {
	where := ""
	if refPath != "" {
		where = " (" + refPath + " on the records ref)"
	}
	return &session.Violation{
		SessionID: sess.ID, RepoID: sess.RepoID, Phase: sess.Phase, Severity: session.SeverityHigh, Code: session.CodeEndProtocolSkipped,
		Message: fmt.Sprintf("%s stopped at %s while sessiongate could not check the stop (%s); the session was %s, its end protocol undone%s",
			agent, at.Format(time.RFC3339), strings.TrimSpace(why), sess.State, where),
		Window: session.WindowSession, CreatedAt: time.Now().UTC(),
	}
}

// record adds the violations in one transaction.
func record(ctx context.Context, st session.Store, vios []*session.Violation) error {
	if len(vios) == 0 {
		return nil
	}
	return st.Update(ctx, func(w session.Writer) error {
		for _, v := range vios {
			if err := w.AddViolation(ctx, v); err != nil {
				return err
			}
		}
		return nil
	})
}

// refKey groups outcomes by the records ref they go to.
type refKey struct{ dir, ref string }

// putOutcomes writes the outcomes beside their stops on each records ref,
// carrying there the stops still on refs of their own (and removing
// those refs once carried).
func putOutcomes(ctx context.Context, out map[refKey]map[string]recordref.StopOutcome) error {
	var errs []error
	for k, o := range out {
		own, refs, err := recordref.ReadStopRefs(ctx, k.dir, k.ref)
		if err != nil {
			errs = append(errs, err)
			own, refs = nil, nil // the outcomes still go on
		}
		if err := settle(ctx, k.dir, k.ref, own, refs, o); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// settle writes the stops read from their own refs and the outcomes onto
// the records ref in one commit, then removes the carried refs.
func settle(ctx context.Context, dir, ref string, own []recordref.StopFile, refs []recordref.StopRef, outcomes map[string]recordref.StopOutcome) error {
	if len(own) == 0 && len(outcomes) == 0 && len(refs) == 0 {
		return nil
	}
	if _, err := recordref.PutStops(ctx, dir, ref, own, outcomes); err != nil {
		return fmt.Errorf("write unchecked stops and their outcomes onto %s: %w", ref, err)
	}
	return recordref.DeleteStopRefs(ctx, dir, refs)
}

// noted returns the records ref paths of the stops the note beside dbPath
// holds (nil without a note): their fold judges them.
func noted(dbPath string) map[string]bool {
	if !Pending(dbPath) {
		return nil
	}
	stops, err := read(Path(dbPath))
	if err != nil {
		return nil
	}
	m := map[string]bool{}
	for _, s := range stops {
		if s.RefPath != "" {
			m[s.RefPath] = true
		}
	}
	return m
}

// Fold records the noted stops beside dbPath as violations in st and
// removes the note; it returns how many it recorded. The note is claimed
// by a rename first, so two processes never record one stop twice; a note
// that cannot be recorded now is put back for the next process. Each
// stop's outcome is then written beside its copy on the records ref.
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
	outcomes := map[refKey]map[string]recordref.StopOutcome{}
	now := time.Now().UTC()
	for _, s := range stops {
		v, err := judge(ctx, st, ar, s.Agent, s.AgentSession, s.Mark)
		if err != nil {
			return putBack(err)
		}
		if v.outcome == recordref.StopRecorded && !seen[v.sess.ID] {
			seen[v.sess.ID] = true // recorded once a session
			vios = append(vios, violation(v.sess, s.Agent, s.At, s.Why, s.RefPath))
		}
		if s.Dir != "" && s.Ref != "" && s.RefPath != "" {
			k := refKey{s.Dir, s.Ref}
			if outcomes[k] == nil {
				outcomes[k] = map[string]recordref.StopOutcome{}
			}
			o := recordref.StopOutcome{Outcome: v.outcome, At: now}
			if v.sess != nil {
				o.Session = v.sess.ID
			}
			outcomes[k][s.RefPath] = o
		}
	}
	if err := record(ctx, st, vios); err != nil {
		return putBack(fmt.Errorf("record the unchecked stops: %w", err))
	}
	if err := os.Remove(claimed); err != nil {
		return len(vios), fmt.Errorf("remove the folded note of unchecked stops: %w", err)
	}
	return len(vios), putOutcomes(ctx, outcomes)
}

// FoldRecords records the stops on the records ref at dir, and on their
// own refs (recordref.PutStopRef), that no fold judged yet (their note
// beside the database was deleted, or the database was another clone's):
// the same rules as Fold, the outcome written beside each, the stops on
// their own refs carried onto the records ref and those refs removed. A
// stop the note beside dbPath still holds is left to the note's fold.
// Four git processes (a ref read, one ls-tree, one for-each-ref, one
// cat-file) when a stop waits; run where a session's verdict is settled or
// published (session end, MCP session_end, records push, the pre-push
// hook), not on every hook. A stop another process recorded meanwhile (its
// violation names the stop) is not recorded twice.
func FoldRecords(ctx context.Context, st session.Store, dbPath, dir, ref string) (int, error) {
	ar, ok := st.(session.AgentReader)
	if !ok || dir == "" || ref == "" {
		return 0, nil
	}
	tip, err := recordref.Tip(ctx, dir, ref)
	if err != nil {
		return 0, err
	}
	files, err := recordref.ReadStopsAt(ctx, dir, tip)
	if err != nil {
		return 0, err
	}
	own, refs, err := recordref.ReadStopRefs(ctx, dir, ref)
	if err != nil {
		return 0, err
	}
	if len(files) == 0 && len(refs) == 0 {
		return 0, nil
	}
	judged := map[string]bool{}
	for _, f := range files {
		judged[f.Path] = f.Outcome != nil
	}
	for _, f := range own {
		if _, on := judged[f.Path]; !on {
			files = append(files, f)
			judged[f.Path] = false
		}
	}
	inNote := noted(dbPath)
	var vios []*session.Violation
	outcomes := map[string]recordref.StopOutcome{}
	seen := map[string]bool{}
	now := time.Now().UTC()
	for _, f := range files {
		if f.Outcome != nil || judged[f.Path] || inNote[f.Path] {
			continue
		}
		v, err := judge(ctx, st, ar, f.Stop.Agent, f.Stop.Conversation, f.Stop.Mark)
		if err != nil {
			return 0, err
		}
		o := recordref.StopOutcome{Outcome: v.outcome, At: now}
		if v.sess != nil {
			o.Session = v.sess.ID
		}
		outcomes[f.Path] = o
		if v.outcome != recordref.StopRecorded || seen[v.sess.ID] {
			continue
		}
		have, err := st.ListViolations(ctx, session.ViolationFilter{SessionID: v.sess.ID, Code: session.CodeEndProtocolSkipped})
		if err != nil {
			return 0, fmt.Errorf("read the violations of an unchecked stop's session: %w", err)
		}
		if slices.ContainsFunc(have, func(x session.Violation) bool {
			return x.Code == session.CodeEndProtocolSkipped && strings.Contains(x.Message, f.Path)
		}) {
			continue
		}
		seen[v.sess.ID] = true
		vios = append(vios, violation(v.sess, f.Stop.Agent, f.Stop.At, f.Stop.Why, f.Path))
	}
	if err := record(ctx, st, vios); err != nil {
		return 0, fmt.Errorf("record the unchecked stops of %s: %w", ref, err)
	}
	return len(vios), settle(ctx, dir, ref, own, refs, outcomes)
}

// read parses the claimed note; lines that do not parse are skipped.
func read(p string) ([]Stop, error) {
	f, err := boundedread.Open(p) // under .git, which the agent can write
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
