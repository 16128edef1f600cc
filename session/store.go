package session

import (
	"context"
	"time"

	"github.com/sessiongate/sessiongate/gaterepeat"
)

// Reader is the read side of the store.
type Reader interface {
	GetSession(ctx context.Context, id string) (*Session, error) // ErrNotFound
	// ActiveSession returns the newest active (INIT/WORKING/ENDING) session of
	// a worktree, or ErrNotFound.
	ActiveSession(ctx context.Context, repoID int64, worktree string) (*Session, error)
	ListSessions(ctx context.Context, f SessionFilter) ([]*Session, error)
	CountSessions(ctx context.Context, f SessionFilter) (int, error)
	// RecentEnded returns the last n ended sessions of a repository, newest first.
	RecentEnded(ctx context.Context, repoID int64, n int) ([]*Session, error)
	PhaseResults(ctx context.Context, sessionID string) ([]PhaseResult, error)
	ListEvidence(ctx context.Context, sessionID string) ([]Evidence, error)
	// SessionVerdictInputs reads what the verdicts of a page of sessions
	// need (VerdictInputs), for every id in one batch: a listing's cost
	// is then a few index searches a page, not three reads a row. An id
	// with nothing recorded has an empty entry; an unknown id is absent
	// or empty, never an error.
	SessionVerdictInputs(ctx context.Context, ids []string) (map[string]*VerdictInputs, error)
	// GateEvidence returns what a phase's gate reads, in recorded order:
	// the phase's evidence and content_hash evidence of any phase (a
	// content-hash check matches a file's hash whichever phase recorded
	// it). Not the rest: agent hooks record every shell command, and a
	// gate check must not cost more as a session goes on.
	GateEvidence(ctx context.Context, sessionID, phase string) ([]Evidence, error)
	// RecordedCommits returns the commits a session has recorded as observed
	// commit_sha or bypass_commit evidence, or with shas which of those it
	// has: what reconciliation and post-commit ask on every commit, without
	// reading any other evidence (a session with agent hooks gathers one per
	// shell command).
	RecordedCommits(ctx context.Context, sessionID string, shas ...string) (map[string]bool, error)
	// CommitsRecordedElsewhere returns which of shas a session other than
	// sessionID recorded as observed commit_sha or bypass_commit evidence,
	// with that session's id: two worktrees on one branch share the
	// database and see each other's commits land (reconcile.go).
	CommitsRecordedElsewhere(ctx context.Context, sessionID string, shas ...string) (map[string]string, error)
	// ListEvents returns events with Seq > afterSeq in order, at most limit (0: all).
	ListEvents(ctx context.Context, sessionID string, afterSeq int64, limit int) ([]Event, error)
	// LastEvents returns the last n events of a session in order (oldest
	// first); with tokens, only those of the n that carry one of them.
	LastEvents(ctx context.Context, sessionID string, n int, tokens ...string) ([]Event, error)
	// EventsWith returns the session's events that carry one of tokens, in
	// order (none without tokens), in one search of the session's events:
	// the agent hooks ask a few tokens' events on every tool call, and a
	// long session holds thousands of others.
	EventsWith(ctx context.Context, sessionID string, tokens ...string) ([]Event, error)
	// EventsWithPrefix is EventsWith keeping the events whose detail starts
	// with prefix: the post-tool hook asks one call's events ("<id> ..."),
	// and a long session holds thousands of other calls' under the same
	// tokens.
	EventsWithPrefix(ctx context.Context, sessionID, prefix string, tokens ...string) ([]Event, error)
	// OpenCallEvents returns, in order, agent's judged calls (token judged,
	// detail "<id> <tool> ...") judged more times than they have a report
	// (TokenToolResult "<agent> <id>") or a missing-settlement
	// (TokenToolUnreported "<agent> <id> missing"), and every report and
	// settlement of those ids: what a new prompt and a Stop decide on. A
	// long session holds thousands of closed calls; they are not read
	// (an index of the call events, migration 0019).
	OpenCallEvents(ctx context.Context, sessionID, judged, agent string) ([]Event, error)
	// WalkOpenCallEvents is OpenCallEvents computed from the events alone,
	// not from the open calls' counts the store keeps beside them: what a
	// gate decides on. The counts are not sealed with the events, so an
	// agent with the database's CLI can delete them without a trace; the
	// walk grows with the session's call events (BenchmarkUnreportedAtGate).
	WalkOpenCallEvents(ctx context.Context, sessionID, judged, agent string) ([]Event, error)
	// HasJudgedCall reports whether the session holds a judged call (token
	// judged, detail "<id> <tool> ...") of tool whose id starts with
	// idPrefix, in one search of the call events' index: Copilot's post
	// asks it when no open call of the tool matches.
	HasJudgedCall(ctx context.Context, sessionID, judged, idPrefix, tool string) (bool, error)
	ListViolations(ctx context.Context, f ViolationFilter) ([]Violation, error)
	ListSnapshots(ctx context.Context, sessionID string) ([]Snapshot, error)
	// LatestSnapshotID returns the SnapshotID of the session's newest
	// snapshot, "" when it has none, without reading any payload.
	LatestSnapshotID(ctx context.Context, sessionID string) (string, error)
	GetProtocol(ctx context.Context, sha256 string) (*Protocol, error) // ErrNotFound
	GetRepository(ctx context.Context, id int64) (*Repository, error)
	// RepositoryByRoot returns ErrNotFound when the root is unknown.
	RepositoryByRoot(ctx context.Context, root string) (*Repository, error)
	// SessionsStartedAfter lists sessions of a repository created after t, oldest first
	// (used to count how many sessions a decaying violation has lived through).
	SessionsStartedAfter(ctx context.Context, repoID int64, t time.Time) ([]*Session, error)
	// TrustedFiles returns every accepted content of a repository's
	// protected files, oldest first.
	TrustedFiles(ctx context.Context, repoID int64) ([]TrustedFile, error)
}

// Writer is what a write transaction may do. Reads inside it see its own writes.
type Writer interface {
	Reader
	EnsureRepository(ctx context.Context, root, name string) (*Repository, error)
	CreateSession(ctx context.Context, s *Session) error
	UpdateSession(ctx context.Context, s *Session) error
	// TouchSession sets LastActivity and ExpiresAt of an active (INIT,
	// WORKING, ENDING) session, as UpdateSession would; false, and nothing
	// written, when no active session has the id.
	TouchSession(ctx context.Context, id string, lastActivity, expiresAt time.Time) (bool, error)
	// DeleteSession removes the session and every row that refers to it.
	DeleteSession(ctx context.Context, id string) error
	PutPhaseResult(ctx context.Context, r PhaseResult) error // upsert on (session, phase)
	// PutPhaseResultUnlessSettled is PutPhaseResult when the stored result
	// is missing, PENDING or FAILED; a settled one (PASSED, FORCED,
	// SKIPPED) is left as it is.
	PutPhaseResultUnlessSettled(ctx context.Context, r PhaseResult) error
	AddEvidence(ctx context.Context, e *Evidence) error // sets ID
	AppendEvent(ctx context.Context, e *Event) error    // sets Seq (max+1 per session)
	// AppendEvents is AppendEvent for each of evs, in order.
	AppendEvents(ctx context.Context, evs ...*Event) error
	AddViolation(ctx context.Context, v *Violation) error     // sets ID
	AddSnapshot(ctx context.Context, s *Snapshot) error       // sets Seq
	PutProtocol(ctx context.Context, p *Protocol) error       // insert or ignore by sha256
	AddTrustedFile(ctx context.Context, f *TrustedFile) error // sets ID
	// SetRepositoryOrigin records a repository's normalized origin URL
	// ("" when it has none); ErrNotFound for an unknown id.
	SetRepositoryOrigin(ctx context.Context, repoID int64, origin string) error
}

// Store persists sessions. Update runs fn in one write transaction that no
// other writer, in this process or another, interleaves with (SQLite: BEGIN
// IMMEDIATE; PostgreSQL: a transaction-scoped advisory lock), so
// read-modify-write is safe; fn runs once, never retried. An error from fn
// rolls everything back.
type Store interface {
	Reader
	Update(ctx context.Context, fn func(w Writer) error) error
	Close() error
}

// GroupUpdater is a store that can commit the short writes of concurrent
// callers in one transaction (group commit): each caller returns once its
// write is committed, and its fn's error reaches it alone. fn may run
// again after another caller's failure rolled the shared transaction
// back, so it must have no effect outside w. A gate call's write uses it:
// BEGIN and COMMIT were a seventh of a warm validate_gate's CPU, and the
// calls queued one by one behind the single writer.
type GroupUpdater interface {
	UpdateGrouped(ctx context.Context, fn func(w Writer) error) error
}

// GateRepeater is a store that can count a validate_gate asked again with
// the same answer in one statement (SQLite: gate_repeats, migration 0015)
// instead of appending its two events, touching the session and writing
// its phase result in a transaction. RepeatGate counts r.N repeats of the
// gate event r.Seq (the last at r.At) and moves the idle expiry to
// r.ExpiresAt, only when r.Seq is still the session's last event and the
// session is active; false means neither held and nothing was written (the
// caller then records the call in full). FlushGateRepeats writes repeats
// the engine held back (each judged a repeat when it was asked) without
// the last-event condition, never moving the session's last activity or
// expiry back; false: the session is no longer active.
type GateRepeater interface {
	RepeatGate(ctx context.Context, r RepeatWrite) (bool, error)
	FlushGateRepeats(ctx context.Context, r RepeatWrite) (bool, error)
}

// RepeatWrite is N repeats of a session's gate event Seq, the first at
// FirstAt (zero: At) and the last at At, moving the idle expiry to
// ExpiresAt (the repeat table's gaterepeat.Write).
type RepeatWrite = gaterepeat.Write

// GateRepeat is how many times, and when, an unchanged gate result (the
// event Seq) was asked for again (GateRepeater).
type GateRepeat struct {
	Seq     int64     `json:"seq"`
	Repeats int64     `json:"repeats"`
	FirstAt time.Time `json:"first_at"`
	LastAt  time.Time `json:"last_at"`
}
