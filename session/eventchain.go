package session

import (
	"context"
	"fmt"
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

// checkEventChain compares the session's events with the chain head its
// newest commit holds. It returns the violation (recorded and published)
// when they differ, nil when they agree or no commit holds a chain.
func (e *Engine) checkEventChain(ctx context.Context, s *Session, repo Repo) (*Violation, error) {
	if repo == nil {
		return nil, nil
	}
	facts, err := repo.CommitFacts(ctx, s.StartCommit)
	if err != nil {
		return nil, fmt.Errorf("event chain: %w", err)
	}
	var pin CommitFact
	for _, f := range facts { // newest first
		if f.SessionID == s.ID && f.Events != "" {
			pin = f
			break
		}
	}
	if pin.SHA == "" {
		return nil, nil
	}
	n, ok := snapshot.ParseEventChain(pin.Events)
	if !ok {
		return e.eventsRewritten(ctx, s, pin, fmt.Sprintf("its %s trailer %q is not a chain head", TrailerEventsKey, pin.Events))
	}
	refs, evs, err := e.eventRefs(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	got, ok := snapshot.EventChain(refs, n)
	switch {
	case !ok:
		return e.eventsRewritten(ctx, s, pin, fmt.Sprintf("it held %d events, the database has %d from seq %d", n, len(refs), firstSeq(refs)))
	case got != pin.Events:
		return e.eventsRewritten(ctx, s, pin, fmt.Sprintf("its first %d events differ from what the commit held", n))
	}
	if n > 0 {
		// Events are appended in time order: one after the pinned ones
		// dated before the last of them was inserted, not appended.
		last := evs[n-1].CreatedAt
		for _, ev := range evs[n:] {
			if ev.CreatedAt.Before(last.Add(-backdateSlack)) {
				return e.eventsRewritten(ctx, s, pin, fmt.Sprintf("event %d (%s) is dated %s, before the events that commit held", ev.Seq, ev.Token, ev.CreatedAt.UTC().Format(time.RFC3339)))
			}
		}
	}
	return nil, nil
}

func firstSeq(refs []snapshot.EventRef) int64 {
	if len(refs) == 0 {
		return 0
	}
	return refs[0].Seq
}

func (e *Engine) eventsRewritten(ctx context.Context, s *Session, pin CommitFact, why string) (*Violation, error) {
	v := &Violation{SessionID: s.ID, RepoID: s.RepoID, Phase: s.Phase, Requirement: "session events as committed",
		Severity: SeverityCritical, Code: CodeEventsRewritten, Window: WindowSession, CreatedAt: e.now(),
		Message: fmt.Sprintf("the session's events were rewritten after commit %s: %s (the database was written by hand; gate events re-sealed with event.key included)", short(pin.SHA), why)}
	// Once per pinned commit: the next pre-commit would find it again.
	tok := "events:rewritten:" + pin.SHA
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
