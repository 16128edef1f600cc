package session

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/snapshot"
)

// The gate events are sealed with event.key (eventseal.go), which the
// agent's user can read: a script that read it could rewrite the events
// and seal them again between two hooks. Each commit of a session now
// carries the chain head of the session's events so far
// (Session-Events: N:HEX, snapshot.EventChain), so git holds what the
// first N events were. The next pre-commit of the session recomputes the
// chain over the database's first N events: a rewritten, deleted or
// inserted event before that commit, or an event after it back-dated to
// before it, is EVENTS_REWRITTEN (CRITICAL, on the records ref at once) and
// the commit is blocked. verify recomputes the same chain from the record
// in CI (verify.go), where no local file is trusted.

// TrailerEventsKey names the chain head of the session's events in a commit.
const TrailerEventsKey = "Session-Events"

// CodeEventsRewritten is a session whose events differ from what a commit
// of it recorded.
const CodeEventsRewritten = "EVENTS_REWRITTEN"

// backdateSlack is how far before the last pinned event a later event's
// time may lie (processes on one machine, one wall clock; a small step of
// it is no forgery).
const backdateSlack = 2 * time.Second

// eventRefs lists a session's events as records hold them.
func (e *Engine) eventRefs(ctx context.Context, id string) ([]snapshot.EventRef, []Event, error) {
	evs, err := e.Store.ListEvents(ctx, id, 0, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("load the session's events: %w", err)
	}
	refs := make([]snapshot.EventRef, len(evs))
	for i, ev := range evs {
		refs[i] = snapshot.EventRef{Seq: ev.Seq, Token: ev.Token, At: stamp(ev.CreatedAt)}
	}
	return refs, evs, nil
}

// eventsTrailer is the Session-Events trailer for a commit made now.
func (e *Engine) eventsTrailer(ctx context.Context, id string) (string, error) {
	refs, _, err := e.eventRefs(ctx, id)
	if err != nil {
		return "", err
	}
	c, ok := snapshot.EventChain(refs, len(refs))
	if !ok {
		return "", nil // events that do not start at seq 1: nothing to pin
	}
	return TrailerEventsKey + ": " + c, nil
}

// EventPinRepo writes and reads the event-chain pins on a records ref
// (snapshot.EventPin); gitrepo.Repo has it.
type EventPinRepo interface {
	PutEventPin(ctx context.Context, ref string, p snapshot.EventPin) error
	// EventPin is the session's newest pin on ref (nil when none).
	EventPin(ctx context.Context, ref, id string) (*snapshot.EventPin, error)
}

// pinEvents writes the chain head of the session's events, as a commit of
// it leaves them, onto the records ref: a commit's trailer leaves with the
// commit when HEAD moves past it, the ref's pin stays (issue 25.8). A
// failure is logged: the commit has landed, and the trailer still holds.
//
// Pre-commit pins (tree set, checked: it compared the pin already) because
// a commit's post-commit hook usually does not start the binary (the
// handoff); post-commit pins a commit that skipped pre-commit (commit set),
// after comparing the old pin, which is never replaced by one over
// rewritten events (a --no-verify commit after the rewrite): the old pin
// stays as the proof and EVENTS_REWRITTEN is recorded.
func (e *Engine) pinEvents(ctx context.Context, s *Session, repo Repo, commit, tree string, checked bool) {
	pr, ok := repo.(EventPinRepo)
	if !ok || !IsRecordRef(e.Config.SessionRecord) || commit == "" && tree == "" {
		return
	}
	refs, evs, err := e.eventRefs(ctx, s.ID)
	if err != nil {
		e.Logger.Warn("pin the session's events on the records ref", "session", s.ID, "err", err)
		return
	}
	if !checked {
		old, err := pr.EventPin(ctx, e.Config.SessionRecord, s.ID)
		if err != nil {
			e.Logger.Warn("read the session's event pin on the records ref", "session", s.ID, "err", err)
			return
		}
		if old != nil {
			if why := chainDiffers(eventPin{PinLabel(*old), old.Events, "its pin on " + e.Config.SessionRecord}, refs, evs); why != "" {
				if _, err := e.eventsRewritten(ctx, s, PinLabel(*old), why); err != nil {
					e.Logger.Warn("record "+CodeEventsRewritten, "session", s.ID, "err", err)
				}
				return
			}
		}
	}
	c, ok := snapshot.EventChain(refs, len(refs))
	if !ok {
		return
	}
	p := snapshot.EventPin{Version: 1, SessionID: s.ID, Commit: commit, Tree: tree, Events: c, At: stamp(e.now())}
	if err := pr.PutEventPin(ctx, e.Config.SessionRecord, p); err != nil {
		e.Logger.Warn("pin the session's events on the records ref", "session", s.ID, "err", err)
	}
}

// eventPin is one pinned chain head: what it was taken at ("commit X",
// PinLabel) and where it was read.
type eventPin struct {
	at, events, where string
}

// PinLabel names what a pin was taken at: "commit X", or "the commit of
// tree X" for a pin pre-commit wrote.
func PinLabel(p snapshot.EventPin) string {
	if p.Commit != "" {
		return "commit " + short(p.Commit)
	}
	return "the commit of tree " + short(p.Tree)
}

// eventPins are the chain heads the session's commits left: its newest
// pin on the records ref, which every allowed pre-commit rewrites and
// which survives HEAD moving past the commit; without one (no records ref,
// or none written yet), the newest Session-Events trailer among the
// commits HEAD reaches. The pin alone is one cat-file; the walk since the
// start (a git log and a rev-list) cost a quarter of the whole pre-commit
// hook (docs/benchmarks.md, BenchmarkPreCommitEventChain).
func (e *Engine) eventPins(ctx context.Context, s *Session, repo Repo) ([]eventPin, error) {
	if pr, ok := repo.(EventPinRepo); ok && IsRecordRef(e.Config.SessionRecord) {
		p, err := pr.EventPin(ctx, e.Config.SessionRecord, s.ID)
		if err != nil {
			return nil, fmt.Errorf("read the session's event pin on %s: %w", e.Config.SessionRecord, err)
		}
		if p != nil {
			return []eventPin{{PinLabel(*p), p.Events, "its pin on " + e.Config.SessionRecord}}, nil
		}
	}
	facts, err := repo.CommitFacts(ctx, s.StartCommit)
	if err != nil {
		return nil, err
	}
	for _, f := range facts { // newest first
		if f.SessionID == s.ID && f.Events != "" {
			return []eventPin{{"commit " + short(f.SHA), f.Events, "its " + TrailerEventsKey + " trailer"}}, nil
		}
	}
	return nil, nil
}

// checkEventChain compares the session's events with the chain heads its
// commits pinned (eventPins). It returns the violation (recorded and
// published) when they differ, nil when they agree or nothing is pinned.
func (e *Engine) checkEventChain(ctx context.Context, s *Session, repo Repo) (*Violation, error) {
	if repo == nil {
		return nil, nil
	}
	pins, err := e.eventPins(ctx, s, repo)
	if err != nil || len(pins) == 0 {
		if err != nil {
			return nil, fmt.Errorf("event chain: %w", err)
		}
		return nil, nil
	}
	refs, evs, err := e.eventRefs(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	for _, pin := range pins {
		if why := chainDiffers(pin, refs, evs); why != "" {
			return e.eventsRewritten(ctx, s, pin.at, why)
		}
	}
	return nil, nil
}

// chainDiffers says how the events differ from a pin ("" when they agree).
func chainDiffers(pin eventPin, refs []snapshot.EventRef, evs []Event) string {
	n, ok := snapshot.ParseEventChain(pin.events)
	if !ok {
		return fmt.Sprintf("%s %q is not a chain head", pin.where, pin.events)
	}
	got, ok := snapshot.EventChain(refs, n)
	switch {
	case !ok:
		return fmt.Sprintf("%s held %d events, the database has %d from seq %d", pin.where, n, len(refs), firstSeq(refs))
	case got != pin.events:
		return fmt.Sprintf("its first %d events differ from what %s held", n, pin.where)
	}
	if n > 0 {
		// Events are appended in time order: one after the pinned ones
		// dated before the last of them was inserted, not appended.
		last := evs[n-1].CreatedAt
		for _, ev := range evs[n:] {
			if ev.CreatedAt.Before(last.Add(-backdateSlack)) {
				return fmt.Sprintf("event %d (%s) is dated %s, before the events %s held", ev.Seq, ev.Token, ev.CreatedAt.UTC().Format(time.RFC3339), pin.where)
			}
		}
	}
	return ""
}

func firstSeq(refs []snapshot.EventRef) int64 {
	if len(refs) == 0 {
		return 0
	}
	return refs[0].Seq
}

func (e *Engine) eventsRewritten(ctx context.Context, s *Session, at, why string) (*Violation, error) {
	v := &Violation{SessionID: s.ID, RepoID: s.RepoID, Phase: s.Phase, Requirement: "session events as committed",
		Severity: SeverityCritical, Code: CodeEventsRewritten, Window: WindowSession, CreatedAt: e.now(),
		Message: fmt.Sprintf("the session's events were rewritten after %s: %s (the database was written by hand; gate events re-sealed with event.key included)", at, why)}
	// Once per pin: the next pre-commit would find it again.
	tok := "events:rewritten:" + strings.ReplaceAll(at, " ", "-")
	if seen, err := e.Store.LastEvents(ctx, s.ID, 1, tok); err != nil {
		return nil, err
	} else if len(seen) > 0 {
		return v, nil
	}
	if err := e.Store.Update(ctx, func(w Writer) error {
		if err := w.AddViolation(ctx, v); err != nil {
			return err
		}
		return w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: tok, CreatedAt: e.now()})
	}); err != nil {
		return nil, fmt.Errorf("record %s: %w", CodeEventsRewritten, err)
	}
	e.publishViolations(ctx, s.ID, v)
	return v, nil
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
