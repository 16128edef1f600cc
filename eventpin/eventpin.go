// Package eventpin reads the event chain's pins: the chain heads of a
// session's events that its commits left in trailers (Session-Events,
// Session-Pin) and on the records ref (snapshot.EventPin), what a pin was
// taken at, and how a session's events differ from one. It needs no
// session or store: the events are snapshot.EventRef with their times,
// and the records ref is read through Repo (gitrepo.Repo has it).
// session/eventchain.go decides when to pin and records EVENTS_REWRITTEN
// and RECORDS_REWOUND; verify/ re-checks the same pins in CI.
package eventpin

import (
	"context"
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/snapshot"
)

// TrailerEventsKey names the chain head of the session's events in a commit.
const TrailerEventsKey = "Session-Events"

// TrailerPinKey names, in a commit of a session with records on a ref,
// the records commit its pre-commit left (the pin written): the ref must
// hold it from then on, so a ref moved back or deleted before it was
// pushed (pins and violations lost) shows against the commit itself.
const TrailerPinKey = "Session-Pin"

// backdateSlack is how far before the last pinned event a later event's
// time may lie (processes on one machine, one wall clock; a small step of
// it is no forgery).
const backdateSlack = 2 * time.Second

// Repo writes and reads the event-chain pins on a records ref
// (snapshot.EventPin); gitrepo.Repo has it.
type Repo interface {
	// PutEventPin writes p and returns the records commit that holds it.
	PutEventPin(ctx context.Context, ref string, p snapshot.EventPin) (string, error)
	// EventPin is the session's newest pin on ref (nil when none).
	EventPin(ctx context.Context, ref, id string) (*snapshot.EventPin, error)
	// PinWitness reads ref's tip, the session's pin there and HEAD's
	// trailers in one git process.
	PinWitness(ctx context.Context, ref, id string) (snapshot.PinWitness, error)
	// PinAt reads the session's pin at records commit at (nil when none)
	// and whether the records ref whose commit is tip holds at.
	PinAt(ctx context.Context, tip, at, id string) (*snapshot.EventPin, bool, error)
	// RecordsTip is ref's commit ("" when it is missing).
	RecordsTip(ctx context.Context, ref string) (string, error)
}

// Pin is one pinned chain head: what it was taken at ("commit X",
// Label), the chain head, and where it was read.
type Pin struct {
	At, Events, Where string
}

// Label names what a pin was taken at: "commit X", or "the commit of
// tree X" for a pin pre-commit wrote.
func Label(p snapshot.EventPin) string {
	if p.Commit != "" {
		return "commit " + Short(p.Commit)
	}
	return "the commit of tree " + Short(p.Tree)
}

// Differs says how the events differ from a pin ("" when they agree).
// created[i] is refs[i]'s time as the database has it (the same length):
// the chain hashes whole seconds, so a back-dated event after the pinned
// ones shows only against these.
func Differs(pin Pin, refs []snapshot.EventRef, created []time.Time) string {
	n, ok := snapshot.ParseEventChain(pin.Events)
	if !ok {
		return fmt.Sprintf("%s %q is not a chain head", pin.Where, pin.Events)
	}
	got, ok := snapshot.EventChain(refs, n)
	switch {
	case !ok:
		return fmt.Sprintf("%s held %d events, the database has %d from seq %d", pin.Where, n, len(refs), firstSeq(refs))
	case got != pin.Events:
		return fmt.Sprintf("its first %d events differ from what %s held", n, pin.Where)
	}
	if n > 0 {
		// Events are appended in time order: one after the pinned ones
		// dated before the last of them was inserted, not appended.
		last := created[n-1]
		for i := n; i < len(refs); i++ {
			if created[i].Before(last.Add(-backdateSlack)) {
				return fmt.Sprintf("event %d (%s) is dated %s, before the events %s held", refs[i].Seq, refs[i].Token, created[i].UTC().Format(time.RFC3339), pin.Where)
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

// Short is a commit's first 12 hex digits, as the messages name it.
func Short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
