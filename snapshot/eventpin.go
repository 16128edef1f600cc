package snapshot

// EventPin is the chain head of a session's events as one of its commits
// left them, written onto the records ref by the post-commit hook
// (pins/<first two hex>/<session id>.json, one file per session, rewritten
// at each commit; the ref's history keeps every earlier pin). A commit's
// own Session-Events trailer leaves with the commit when HEAD moves past
// it (reset --soft, amend, checkout -B, rebase); the pin does not, so a
// database rewritten before such a move is still caught, by the next
// pre-commit from the tip and by verify in CI from the pin's history.
type EventPin struct {
	Version   int    `json:"version"`
	SessionID string `json:"session_id"`
	// Commit is the commit the chain was taken after (post-commit), or
	// Tree the tree about to be committed (pre-commit, which knows no
	// commit id yet; the commit's later hooks usually do not start the
	// binary). One of the two is set.
	Commit string `json:"commit,omitempty"`
	Tree   string `json:"tree,omitempty"`
	Events string `json:"events"` // EventChain's "N:HEX"
	At     string `json:"at"`     // RFC 3339
}

// MaxPinBytes bounds one pin (a few short fields).
const MaxPinBytes = 4 << 10

// PinWitness is what a session's pre-commit reads about its pins in one
// git process: the records ref's tip and the session's pin there, and the
// trailers of the commit at HEAD (its session, Session-Events and the
// records commit it names in Session-Pin). A pin at the tip can be
// forged; HEAD's trailers and the pin at the records commit they name
// cannot without rewriting HEAD too.
type PinWitness struct {
	Tip    string    // the records ref's commit ("" when the ref is missing)
	TipPin *EventPin // the session's pin at Tip (nil when none)
	// HEAD's commit ("" when unborn) and its last Session-Id,
	// Session-Events and Session-Pin trailers.
	Head, HeadSession, HeadEvents, HeadPin string
}
