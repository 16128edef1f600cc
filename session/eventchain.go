package session

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/eventpin"
	"github.com/sessiongate/sessiongate/snapshot"
)

// The gate events are sealed with event.key (eventseal/), which the
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

// TrailerEventsKey names the chain head of the session's events in a
// commit (eventpin/; kept here for callers of session).
const TrailerEventsKey = eventpin.TrailerEventsKey

// CodeEventsRewritten is a session whose events differ from what a commit
// of it recorded.
const CodeEventsRewritten = "EVENTS_REWRITTEN"

// TrailerPinKey names the records commit a session's pre-commit left
// (eventpin/; kept here for callers of session).
const TrailerPinKey = eventpin.TrailerPinKey

// CodeRecordsRewound is a records ref that no longer holds a records
// commit a commit of the session names in its Session-Pin trailer.
const CodeRecordsRewound = "RECORDS_REWOUND"

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
// (eventpin.Repo); gitrepo.Repo has it.
type EventPinRepo = eventpin.Repo

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
// stays as the proof and EVENTS_REWRITTEN is recorded. It returns the
// records commit that holds the pin ("" when none was written).
func (e *Engine) pinEvents(ctx context.Context, s *Session, repo Repo, commit, tree string, checked bool) string {
	pr, ok := repo.(EventPinRepo)
	if !ok || !IsRecordRef(e.Config.SessionRecord) || commit == "" && tree == "" {
		return ""
	}
	refs, evs, err := e.eventRefs(ctx, s.ID)
	if err != nil {
		e.Logger.Warn("pin the session's events on the records ref", "session", s.ID, "err", err)
		return ""
	}
	if !checked {
		old, err := pr.EventPin(ctx, e.Config.SessionRecord, s.ID)
		if err != nil {
			e.Logger.Warn("read the session's event pin on the records ref", "session", s.ID, "err", err)
			return ""
		}
		if old != nil {
			if why := chainDiffers(eventPin{At: eventpin.Label(*old), Events: old.Events, Where: "its pin on " + e.Config.SessionRecord}, refs, evs); why != "" {
				if _, err := e.eventsRewritten(ctx, s, eventpin.Label(*old), why); err != nil {
					e.Logger.Warn("record "+CodeEventsRewritten, "session", s.ID, "err", err)
				}
				return ""
			}
		}
	}
	c, ok := snapshot.EventChain(refs, len(refs))
	if !ok {
		return ""
	}
	p := snapshot.EventPin{Version: 1, SessionID: s.ID, Commit: commit, Tree: tree, Events: c, At: stamp(e.now())}
	at, err := pr.PutEventPin(ctx, e.Config.SessionRecord, p)
	if err != nil {
		e.Logger.Warn("pin the session's events on the records ref", "session", s.ID, "err", err)
		return ""
	}
	return at
}

// pinTrailer is the Session-Pin trailer for a commit made now: pinned,
// the records commit this pre-commit wrote, or else the ref's tip (the
// commit-msg hook, a process of its own); "" without a records ref.
func (e *Engine) pinTrailer(ctx context.Context, repo Repo, pinned string) (string, error) {
	pr, ok := repo.(EventPinRepo)
	if !ok || !IsRecordRef(e.Config.SessionRecord) {
		return "", nil
	}
	if pinned == "" {
		var err error
		if pinned, err = pr.RecordsTip(ctx, e.Config.SessionRecord); err != nil {
			return "", fmt.Errorf("read the records ref for the %s trailer: %w", TrailerPinKey, err)
		}
	}
	if pinned == "" {
		return "", nil
	}
	return TrailerPinKey + ": " + pinned, nil
}

// eventPins are the chain heads the session's commits left: its newest
// pin on the records ref, which every allowed pre-commit rewrites and
// which survives HEAD moving past the commit, and, when HEAD is a commit
// of the session, HEAD's Session-Events trailer and the pin at the
// records commit its Session-Pin names. A pin at the tip alone could be
// forged over rewritten events (plumbing, before anything was pushed);
// HEAD's trailers could not without moving HEAD too, and a ref moved back
// past the records commit HEAD names is RECORDS_REWOUND (the violation).
// Without any of these, the newest Session-Events trailer among the
// commits HEAD reaches. The witness is one cat-file; the walk since the
// start (a git log and a rev-list) cost a quarter of the whole pre-commit
// hook (docs/benchmarks.md, BenchmarkPreCommitEventChain).
func (e *Engine) eventPins(ctx context.Context, s *Session, repo Repo) ([]eventPin, *Violation, error) {
	if pr, ok := repo.(EventPinRepo); ok && IsRecordRef(e.Config.SessionRecord) {
		ref := e.Config.SessionRecord
		w, err := pr.PinWitness(ctx, ref, s.ID)
		if err != nil {
			return nil, nil, fmt.Errorf("read the session's event pin on %s: %w", ref, err)
		}
		var pins []eventPin
		if w.TipPin != nil {
			pins = append(pins, eventPin{At: eventpin.Label(*w.TipPin), Events: w.TipPin.Events, Where: "its pin on " + ref})
		}
		if w.HeadSession == s.ID {
			if w.HeadEvents != "" {
				pins = append(pins, eventPin{At: "commit " + short(w.Head), Events: w.HeadEvents, Where: "its " + TrailerEventsKey + " trailer"})
			}
			if w.HeadPin != "" && w.HeadPin != w.Tip {
				p, held, err := pr.PinAt(ctx, w.Tip, w.HeadPin, s.ID)
				if err != nil {
					return nil, nil, fmt.Errorf("read the pin HEAD's %s names: %w", TrailerPinKey, err)
				}
				if !held {
					v, err := e.recordsRewound(ctx, s, w)
					return nil, v, err
				}
				if p != nil {
					pins = append(pins, eventPin{At: eventpin.Label(*p), Events: p.Events, Where: "its pin at records commit " + short(w.HeadPin)})
				}
			}
		}
		if len(pins) > 0 {
			return pins, nil, nil
		}
	}
	facts, err := repo.CommitFacts(ctx, s.StartCommit)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range facts { // newest first
		if f.SessionID == s.ID && f.Events != "" {
			return []eventPin{{At: "commit " + short(f.SHA), Events: f.Events, Where: "its " + TrailerEventsKey + " trailer"}}, nil, nil
		}
	}
	return nil, nil, nil
}

// recordsRewound records RECORDS_REWOUND (once per records commit): HEAD's
// commit names a records commit the ref no longer holds.
func (e *Engine) recordsRewound(ctx context.Context, s *Session, w snapshot.PinWitness) (*Violation, error) {
	now := "was deleted"
	if w.Tip != "" {
		now = "is at " + short(w.Tip)
	}
	v := &Violation{SessionID: s.ID, RepoID: s.RepoID, Phase: s.Phase, Requirement: "records ref only moves forward",
		Severity: SeverityCritical, Code: CodeRecordsRewound, Window: WindowSession, CreatedAt: e.now(),
		Message: fmt.Sprintf("%s: the records ref %s no longer holds records commit %s that commit %s names (%s): the ref %s, so the pins and violations written since are gone (git update-ref by hand)",
			CodeRecordsRewound, e.Config.SessionRecord, short(w.HeadPin), short(w.Head), TrailerPinKey, now)}
	tok := "records:rewound:" + short(w.HeadPin)
	if seen, err := e.Store.LastEvents(ctx, s.ID, 1, tok); err != nil {
		return nil, err
	} else if len(seen) > 0 {
		return v, nil
	}
	if err := e.Store.Update(ctx, func(wr Writer) error {
		if err := wr.AddViolation(ctx, v); err != nil {
			return err
		}
		return wr.AppendEvent(ctx, &Event{SessionID: s.ID, Token: tok, CreatedAt: e.now()})
	}); err != nil {
		return nil, fmt.Errorf("record %s: %w", CodeRecordsRewound, err)
	}
	e.publishViolations(ctx, s.ID, v)
	return v, nil
}

// checkEventChain compares the session's events with the chain heads its
// commits pinned (eventPins). It returns the violation (recorded and
// published) when they differ, nil when they agree or nothing is pinned.
func (e *Engine) checkEventChain(ctx context.Context, s *Session, repo Repo) (*Violation, error) {
	if repo == nil {
		return nil, nil
	}
	pins, v, err := e.eventPins(ctx, s, repo)
	if err != nil || v != nil || len(pins) == 0 {
		if err != nil {
			return nil, fmt.Errorf("event chain: %w", err)
		}
		return v, nil
	}
	refs, evs, err := e.eventRefs(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	for _, pin := range pins {
		if why := chainDiffers(pin, refs, evs); why != "" {
			return e.eventsRewritten(ctx, s, pin.At, why)
		}
	}
	return nil, nil
}

// chainDiffers says how the events differ from a pin ("" when they agree).
func chainDiffers(pin eventPin, refs []snapshot.EventRef, evs []Event) string {
	created := make([]time.Time, len(evs))
	for i, ev := range evs {
		created[i] = ev.CreatedAt
	}
	return eventpin.Differs(pin, refs, created)
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

// eventPin is one pinned chain head (eventpin.Pin).
type eventPin = eventpin.Pin

func short(sha string) string { return eventpin.Short(sha) }
