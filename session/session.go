// Package session is sessiongate's domain: sessions moving through a
// protocol's phases, gate results, evidence, events and violations, and the
// Engine that drives them. Adapters (store, gitrepo, server, hooks) depend on
// this package; it depends on none of them.
package session

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// State is where a session is. INIT covers the start phases (Session.Phase
// names the current one), WORKING is between the start and end protocols,
// ENDING covers the end phases.
type State string

// States of a session.
const (
	StateInit       State = "INIT"
	StateWorking    State = "WORKING"
	StateEnding     State = "ENDING"
	StateComplete   State = "COMPLETE"
	StateAbandoned  State = "ABANDONED"
	StateTerminated State = "TERMINATED"
)

// States lists every state, for validation and messages.
var States = []State{StateInit, StateWorking, StateEnding, StateComplete, StateAbandoned, StateTerminated}

// ParseState reads a state name in any case.
func ParseState(name string) (State, error) {
	s := State(strings.ToUpper(strings.TrimSpace(name)))
	for _, v := range States {
		if v == s {
			return s, nil
		}
	}
	return "", fmt.Errorf("unknown state %q: use one of %s", truncate(name, 40), StateNames())
}

// StateNames is States joined for messages: "INIT, WORKING, ...".
func StateNames() string {
	names := make([]string, len(States))
	for i, s := range States {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// PhaseStatus is the settled outcome of one phase in a session.
type PhaseStatus string

// Phase result statuses.
const (
	PhasePending PhaseStatus = "PENDING"
	PhasePassed  PhaseStatus = "PASSED"
	PhaseFailed  PhaseStatus = "FAILED"
	PhaseForced  PhaseStatus = "FORCED"  // failing mandatory gate skipped with force: a violation
	PhaseSkipped PhaseStatus = "SKIPPED" // optional gate skipped, or condition recorded as not holding
)

// GateStatus is the outcome of one check, or of a gate's checks combined.
type GateStatus string

// Check and gate result statuses.
const (
	StatusPass    GateStatus = "PASS"
	StatusFail    GateStatus = "FAIL"
	StatusSkipped GateStatus = "SKIPPED"
)

// GateLevel and CheckKind come from the protocol document; the engine uses
// the parser's types so a level or kind has one spelling everywhere.
type (
	GateLevel = protocolspec.GateLevel
	CheckKind = protocolspec.CheckKind
)

// Violation severities.
const (
	SeverityCritical = "CRITICAL"
	SeverityHigh     = "HIGH"
	SeverityMedium   = "MEDIUM"
	SeverityLow      = "LOW"
)

// Violation windows (ADR-029).
const (
	WindowSession           = "session"
	WindowCrossSessionDecay = "cross_session_decay"
)

// Evidence kinds (protocolspec's, where a gate names them).
const (
	EvidenceToolOutput  = protocolspec.EvidenceToolOutput
	EvidenceFilePath    = protocolspec.EvidenceFilePath
	EvidenceCommitSHA   = protocolspec.EvidenceCommitSHA
	EvidenceContentHash = protocolspec.EvidenceContentHash
	EvidenceManual      = protocolspec.EvidenceManual
)

// MaxEvidenceBytes is the size limit of one evidence body.
const MaxEvidenceBytes = 64 << 10

// Errors the adapters map to user-facing messages.
var (
	ErrNotFound   = errors.New("not found")
	ErrInvalidID  = errors.New("invalid session id: want a UUID such as 8-4-4-4-12 hex digits")
	ErrExpired    = errors.New("session expired")
	ErrTerminated = errors.New("session terminated")
	ErrEnded      = errors.New("session already ended")
	// ErrForceRefused: force while a carried violation is active.
	ErrForceRefused = errors.New("force refused")
)

// isUUID reports whether id is 8-4-4-4-12 hex digits. Hand-written: every
// hook process validates ids, and a regexp would be compiled at start-up.
func isUUID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// ValidateID checks a caller-supplied session id before it reaches the store.
func ValidateID(id string) error {
	if !isUUID(id) {
		return fmt.Errorf("%w (got %q)", ErrInvalidID, truncate(id, 64))
	}
	return nil
}

// truncate cuts stored and shown text to n bytes without splitting a rune.
func truncate(s string, n int) string { return shorten.Bytes(s, n, "...") }

// Repository is a git repository known to the store, keyed by its common dir
// so every worktree of it shares one row. Origin, when set, is what
// identifies it across clones and machines (see Key).
type Repository struct {
	ID   int64  `json:"id"`
	Root string `json:"root"` // absolute path of the git common dir's parent (main worktree)
	Name string `json:"name"`
	// Origin is the normalized URL of the origin remote (identity.NormalizeRemoteURL,
	// e.g. "github.com/o/r"), "" when the repository has no origin.
	Origin string `json:"origin,omitempty"`
}

// Key identifies the repository across clones: its normalized origin URL,
// or its local root when it has no origin. Two clones of one project in a
// team database are two rows (one per root) with one Key.
func (r *Repository) Key() string {
	if r.Origin != "" {
		return r.Origin
	}
	return r.Root
}

// Session is one agent session in one worktree.
type Session struct {
	ID           string    `json:"id"`
	RepoID       int64     `json:"repo_id"`
	Worktree     string    `json:"worktree"` // absolute path of the worktree top level
	Branch       string    `json:"branch"`
	StartCommit  string    `json:"starting_commit"` // "" on an unborn branch
	EndCommit    string    `json:"ending_commit"`
	ProtocolSHA  string    `json:"protocol_sha256"`
	Objective    string    `json:"objective"`
	State        State     `json:"state"`
	Phase        string    `json:"phase"` // current phase id while INIT or ENDING
	CreatedAt    time.Time `json:"created_at"`
	LastActivity time.Time `json:"last_activity"`
	ExpiresAt    time.Time `json:"expires_at"`
	EndedAt      time.Time `json:"ended_at,omitempty"` // zero while running
	// EndingAt is when a running `session end` began (zero: none);
	// evidence is refused while it is recent (Ending).
	EndingAt        time.Time `json:"ending_at,omitzero"`
	Terminated      bool      `json:"terminated"`
	TerminateReason string    `json:"terminate_reason"`
	Summary         string    `json:"summary"`
	NextNotes       string    `json:"next_session_notes"`
	// Who ran the session and where (see Identity): git's user.name and
	// user.email as configured, or SESSIONGATE_USER; the host name, or
	// SESSIONGATE_HOST. Empty for sessions recorded before they existed.
	UserName  string `json:"user_name"`
	UserEmail string `json:"user_email"`
	Host      string `json:"host"`
	// TrustedStamp says which accepted contents its repository had when the
	// session was read (SessionTrustedReader): the protected-file check
	// reads them again only when it changed. "" when the store gives none.
	TrustedStamp string `json:"-"`
	// EvidenceStamp says which evidence and events the session had when it
	// was read (SessionTrustedReader: its newest evidence id and event
	// seq): a gate call reads the evidence again only when it changed.
	EvidenceStamp string `json:"-"`
}

// Active reports whether the session still runs (not ended, not terminated).
func (s *Session) Active() bool {
	return s.State == StateInit || s.State == StateWorking || s.State == StateEnding
}

// EndLease bounds how long an end's mark refuses evidence: an end that
// died (killed, the machine off) leaves it set, and evidence is taken
// again once it is older.
const EndLease = 10 * time.Minute

// Ending reports whether a `session end` is running at now: evidence
// recorded then would not be judged by it.
func (s *Session) Ending(now time.Time) bool {
	return !s.EndingAt.IsZero() && now.Sub(s.EndingAt) < EndLease
}

// Expired reports whether the idle timeout has passed at now.
func (s *Session) Expired(now time.Time) bool {
	return !s.ExpiresAt.IsZero() && now.After(s.ExpiresAt)
}

// PhaseResult is the latest outcome of one phase's gate in a session.
type PhaseResult struct {
	SessionID string        `json:"session_id"`
	PhaseID   string        `json:"phase_id"`
	Status    PhaseStatus   `json:"status"`
	Level     GateLevel     `json:"level"` // gate level of the phase
	Message   string        `json:"message"`
	Decision  string        `json:"decision"` // decision code, e.g. "SKIPPED: docs-only", "CONDITION_NOT_MET"
	Checks    []CheckResult `json:"checks"`
	StartedAt time.Time     `json:"started_at"`
	EndedAt   time.Time     `json:"ended_at,omitempty"`
	Duration  time.Duration `json:"duration_ns"`
}

// CheckResult is the outcome of one machine check.
type CheckResult struct {
	Kind     CheckKind     `json:"kind"`
	Arg      string        `json:"arg,omitempty"`
	Status   GateStatus    `json:"status"`
	Message  string        `json:"message"`
	Evidence string        `json:"evidence,omitempty"` // short reference: path, sha, hash
	Duration time.Duration `json:"duration_ns"`
	// Open lists the requirements a must_evidence check still waits for.
	Open []RequirementStatus `json:"open_requirements,omitempty"`
	// Fix is what would make a failing check pass, as data: each caller
	// renders it in its own terms (CLI command, MCP tool call).
	Fix *NextStep `json:"fix,omitempty"`
	// Fixes is the fix of each open requirement when more than one is
	// open (Fix is the first), in the protocol's order.
	Fixes []NextStep `json:"fixes,omitempty"`
	// Head is the commit HEAD named when a command check ran: the end
	// compares it with HEAD (staleQA), so tests run on another checkout
	// (a detached main, a rebase stopped early, a reset and back) do not
	// answer for the commit the session ends on.
	Head string `json:"head,omitempty"`
	// Tree is the tree of the tracked files as the command saw them
	// (WorkTreeTree): HEAD alone let an uncommitted fix pass QA's gate
	// and be checked out again before the end (round 23 second review).
	Tree string `json:"tree,omitempty"`
}

// EvidenceOrigin is how sessiongate knows what a piece of evidence says.
type EvidenceOrigin string

// Evidence origins. Observed evidence outranks claimed evidence: a gate that
// demands observed evidence is not satisfied by any claim.
const (
	// OriginClaimed: an agent or a person said so (record_evidence, the CLI).
	OriginClaimed EvidenceOrigin = "claimed"
	// OriginObserved: sessiongate saw the command run (an agent hook after a
	// shell command, or `sessiongate run`) and recorded its exit code,
	// duration and output hash itself.
	OriginObserved EvidenceOrigin = "observed"
)

// Evidence is a hashed, referenced proof recorded for a phase.
type Evidence struct {
	ID        int64          `json:"id"`
	SessionID string         `json:"session_id"`
	Phase     string         `json:"phase"`
	Step      string         `json:"step"`
	Kind      string         `json:"kind"`
	SHA256    string         `json:"sha256"` // hex sha256 of the body
	Ref       string         `json:"ref"`    // short reference: repository-relative path, commit sha, decision code
	Size      int            `json:"size"`
	Body      []byte         `json:"-"` // only when the config opts in to raw bodies
	CreatedAt time.Time      `json:"created_at"`
	Origin    EvidenceOrigin `json:"origin"`
	// Requirement is the id of the requirement or checklist row this
	// evidence satisfies ("" when it names none).
	Requirement string `json:"requirement,omitempty"`
	// Source says who observed it ("claude", "codex", "copilot", "cursor", "gemini", "run");
	// "" for claimed evidence.
	Source string `json:"source,omitempty"`
	// Command is the observed command line (short, never its output).
	Command  string        `json:"command,omitempty"`
	ExitCode *int          `json:"exit_code,omitempty"` // observed commands only
	Duration time.Duration `json:"duration_ns,omitempty"`
	// Change is, for commit_sha evidence of a commit the session's
	// pre-commit passed, its change fingerprint (changeprint.go); "" for
	// others and for commits recorded before fingerprints.
	Change string `json:"change,omitempty"`
	// Warnings from sequence rules that let the recording call through;
	// returned to the caller, never stored.
	Warnings []string `json:"warnings,omitempty"`
}

// Observed reports whether sessiongate saw the evidence happen.
func (e *Evidence) Observed() bool { return e.Origin == OriginObserved }

// Succeeded reports whether observed evidence is of a command that exited 0.
func (e *Evidence) Succeeded() bool { return e.Observed() && e.ExitCode != nil && *e.ExitCode == 0 }

// Event is one append-only entry of a session's history.
type Event struct {
	SessionID string    `json:"session_id"`
	Seq       int64     `json:"seq"` // per-session, monotonically increasing, assigned by the store
	Token     string    `json:"token"`
	Detail    string    `json:"detail"` // short JSON or text, never raw evidence bodies
	CreatedAt time.Time `json:"created_at"`
	// Repeated, on a gate result event as History reads it: how many more
	// times, first and last, the same gate was asked with the same answer
	// (GateRepeater; not part of the event chain).
	Repeated *GateRepeat `json:"repeated,omitempty"`
}

// Violation is a recorded breach of the protocol.
type Violation struct {
	ID          int64     `json:"id"`
	SessionID   string    `json:"session_id"`
	RepoID      int64     `json:"repo_id"`
	Phase       string    `json:"phase"`
	Requirement string    `json:"requirement"`
	Severity    string    `json:"severity"`
	Code        string    `json:"code"` // e.g. FORCED_ADVANCE, BYPASS, SEQUENCE_RULE
	Message     string    `json:"message"`
	Window      string    `json:"window"` // WindowSession or WindowCrossSessionDecay
	DecayRuns   int       `json:"decay_runs"`
	CreatedAt   time.Time `json:"created_at"`
}

// Snapshot is a content-addressed state snapshot (ADR-029).
type Snapshot struct {
	SessionID  string    `json:"session_id"`
	Seq        int64     `json:"seq"`
	SnapshotID string    `json:"snapshot_id"` // "sha256:..."
	Payload    []byte    `json:"payload"`     // canonical JSON
	CreatedAt  time.Time `json:"created_at"`
}

// Protocol is a stored protocol version, keyed by the sha256 of its bytes.
type Protocol struct {
	SHA256    string    `json:"sha256"`
	Name      string    `json:"name"`
	Content   []byte    `json:"-"`
	SpecJSON  []byte    `json:"-"` // cached parse result
	CreatedAt time.Time `json:"created_at"`
}

// SessionFilter selects sessions for lists and the dashboard. Pagination is
// keyset on (CreatedAt desc, ID desc): pass the last row's values as Before*.
type SessionFilter struct {
	RepoID        int64
	States        []State
	Branch        string
	Worktree      string
	HasViolations *bool
	// Severity keeps sessions with at least one violation of this severity
	// (SeverityCritical, ...); "" any.
	Severity string
	From, To time.Time // on CreatedAt; zero means open
	Query    string    // substring of objective
	// User matches the session's user email or user name exactly; Host its
	// host; Repo its repository's Key (normalized origin URL, else root).
	User, Host, Repo string
	BeforeTime       time.Time
	BeforeID         string
	Limit            int
}

// ViolationFilter selects violations. Keyset on (CreatedAt desc, ID desc).
type ViolationFilter struct {
	RepoID     int64
	SessionID  string
	Severities []string
	Code       string
	Phase      string
	Window     string // WindowSession or WindowCrossSessionDecay; "" any
	Branch     string
	// User and Host match the violation's session (as SessionFilter's);
	// Repo its repository's Key. A violation outside any session has no
	// user or host.
	User, Host, Repo string
	From, To         time.Time
	BeforeTime       time.Time
	BeforeID         int64
	Limit            int
}
