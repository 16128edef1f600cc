// Package snapshot builds ADR-029 state snapshots: a privacy-safe payload
// of a session's state, canonicalised with RFC 8785 (JCS) and addressed by
// "sha256:" + hex(sha256(canonical bytes)). The payload holds no
// timestamps, paths, host names or random values, so the same state gives
// the same id on any machine, in any process.
package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"sync"

	"github.com/gowebpki/jcs"
)

// Versions of the formats written here.
const (
	PayloadSchema = "sessiongate.snapshot.v1"
	EnvelopeKind  = "session_state_window_v1"
	ServerID      = "sessiongate"
)

// Key identifies a session across sources (ADR-029).
type Key struct {
	EventSource string `json:"event_source"` // "sessiongate://<repository name>"
	ServerID    string `json:"server_id"`
	SessionID   string `json:"session_id"` // opaque
}

// Window says how long a state stays relevant.
type Window struct {
	Kind      string `json:"window_kind"`          // session or cross_session_decay
	DecayRuns int    `json:"decay_runs,omitempty"` // >= 1, only for cross_session_decay
}

// Privacy asserts what the store keeps.
type Privacy struct {
	StoresRawToolArgs       bool   `json:"stores_raw_tool_args"`
	StoresRawPromptBodies   bool   `json:"stores_raw_prompt_bodies"`
	StoresRawDocumentBodies bool   `json:"stores_raw_document_bodies"`
	Notes                   string `json:"notes,omitempty"`
}

// Phase is one phase's outcome in a snapshot.
type Phase struct {
	ID       string `json:"id"`
	Gate     string `json:"gate"`
	Status   string `json:"status"`
	Decision string `json:"decision,omitempty"`
}

// EvidenceRef is evidence by kind and hash only.
type EvidenceRef struct {
	Phase  string `json:"phase"`
	Kind   string `json:"kind"`
	SHA256 string `json:"sha256"`
	// Requirement and Origin are omitted when empty so that snapshots of
	// claimed, unbound evidence keep the ids they had before they existed.
	Requirement string `json:"requirement,omitempty"`
	Origin      string `json:"origin,omitempty"` // "observed", "transcript" (the agent's own transcript), or "" for claimed
	ExitCode    *int   `json:"exit_code,omitempty"`
	// NotApplicable marks a not-applicable record: "checked" (a machine
	// saw it does not apply), "optional" (on a phase the protocol makes
	// optional) or "pending" (a person has to accept it before verify
	// passes the session's commits).
	NotApplicable string `json:"not_applicable,omitempty"`
	// Change: a gated commit's change fingerprint (gitrepo/changeprint.go),
	// so CI can pass a platform's rewrite of it (verify/rewrites.go).
	// Omitted when empty: older records keep their snapshot ids.
	Change string `json:"change,omitempty"`
}

// State is the session state a snapshot covers.
type State struct {
	ProtocolSHA256 string        `json:"protocol_sha256"`
	State          string        `json:"state"`
	Phase          string        `json:"phase"`
	Phases         []Phase       `json:"phases"`
	Evidence       []EvidenceRef `json:"evidence"`
	Violations     []string      `json:"violations"` // "CODE:PHASE", sorted
}

// Payload is what the snapshot id is computed over.
type Payload struct {
	Schema  string  `json:"schema"`
	Session Key     `json:"session"`
	Window  Window  `json:"window"`
	Privacy Privacy `json:"privacy"`
	State   State   `json:"state"`
}

// Normalize sorts the order-free lists so equal states give equal bytes
// whatever order the store returned rows in. Phases keep protocol order.
func (p *Payload) Normalize() {
	sort.Slice(p.State.Evidence, func(i, j int) bool {
		a, b := p.State.Evidence[i], p.State.Evidence[j]
		if a.Phase != b.Phase {
			return a.Phase < b.Phase
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.SHA256 < b.SHA256
	})
	sort.Strings(p.State.Violations)
	if p.State.Phases == nil {
		p.State.Phases = []Phase{}
	}
	if p.State.Evidence == nil {
		p.State.Evidence = []EvidenceRef{}
	}
	if p.State.Violations == nil {
		p.State.Violations = []string{}
	}
}

// Canonical returns the RFC 8785 canonical form of any JSON text.
func Canonical(js []byte) ([]byte, error) {
	out, err := jcs.Transform(js)
	if err != nil {
		return nil, fmt.Errorf("canonicalize JSON: %w", err)
	}
	return out, nil
}

// IDOf returns the content-addressed id of any JSON text.
func IDOf(js []byte) (string, []byte, error) {
	c, err := Canonical(js)
	if err != nil {
		return "", nil, err
	}
	sum := sha256.Sum256(c)
	return "sha256:" + hex.EncodeToString(sum[:]), c, nil
}

// ID returns the payload's id and canonical bytes.
func (p *Payload) ID() (string, []byte, error) {
	p.Normalize()
	js, err := json.Marshal(p)
	if err != nil {
		return "", nil, fmt.Errorf("encode snapshot: %w", err)
	}
	return IDOf(js)
}

// Envelope is the session_state_window_v1 document.
type Envelope struct {
	SchemaVersion string       `json:"schema_version"`
	ReportVersion string       `json:"report_version"`
	Session       Key          `json:"session"`
	Window        Window       `json:"window"`
	Snapshot      EnvelopeSnap `json:"snapshot"`
	Privacy       Privacy      `json:"privacy"`
}

// EnvelopeSnap names the snapshot and how it was addressed.
type EnvelopeSnap struct {
	StateSnapshotID  string        `json:"state_snapshot_id"`
	Canonicalization Canonicalizer `json:"canonicalization"`
	ContentsRef      string        `json:"contents_ref,omitempty"`
}

// Canonicalizer names the method.
type Canonicalizer struct {
	Method string `json:"method"`
}

// Envelope wraps a payload whose id is known.
func (p *Payload) Envelope(id, reportVersion string) Envelope {
	return Envelope{
		SchemaVersion: EnvelopeKind,
		ReportVersion: reportVersion,
		Session:       p.Session,
		Window:        p.Window,
		Snapshot:      EnvelopeSnap{StateSnapshotID: id, Canonicalization: Canonicalizer{Method: "canonical_json_sha256"}},
		Privacy:       p.Privacy,
	}
}

var idRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^sha256:[0-9a-f]{64}$`) })

// ValidID reports whether s looks like a snapshot id.
func ValidID(s string) bool { return idRE().MatchString(s) }

// Record is the session record file an agent commits (.sessiongate/records/<id>.json by default):
// every snapshot payload of the session, oldest first, and the final envelope.
// It holds only what snapshots hold, so it is as privacy-safe as they are.
type Record struct {
	Schema    string    `json:"schema"`
	SessionID string    `json:"session_id"`
	Envelope  Envelope  `json:"envelope"`
	Snapshots []Payload `json:"snapshots"`

	// Records on a records ref (docs/team.md) also carry what a team index
	// needs beyond the snapshots: no bodies, no messages, no local paths.
	Session    *SessionMeta   `json:"session,omitempty"`
	Events     []EventRef     `json:"events,omitempty"`
	Violations []ViolationRef `json:"violations,omitempty"`

	// FileRefs name the files behind file_path and content_hash evidence
	// by repository-relative path and sha256 (never their bodies), so
	// verify can read them again from git instead of taking the gate's
	// word. FileRefsVersion is 1 when the writer listed them (an empty
	// list then means the session had no file evidence) and 0 in records
	// written before.
	FileRefs        []FileRef `json:"file_refs,omitempty"`
	FileRefsVersion int       `json:"file_refs_version,omitempty"`

	// ClockVersion is 1 when the writer kept every event within the
	// session's started_at..ended_at (written since evidence is refused
	// while a session ends, so nothing honest is dated after its end);
	// verify then fails an event outside. 0 in records written before.
	ClockVersion int `json:"clock_version,omitempty"`

	// ContinuesVersion is 1 when the writer records, at a session's start,
	// a session:continues:ID event for each ABANDONED session it continues
	// (round 22); 0 in records written before. verify requires the event
	// only of records that say they carry it (verify/continued.go).
	ContinuesVersion int `json:"continues_version,omitempty"`
}

// ContinuesVersion is the ContinuesVersion records carry now.
const ContinuesVersion = 1

// ClockVersion is the ClockVersion records carry now.
const ClockVersion = 1

// FileRef is one file evidence: where the file is in the repository and
// the sha256 of the bytes the session saw.
type FileRef struct {
	Phase       string `json:"phase"`
	Requirement string `json:"requirement,omitempty"`
	Kind        string `json:"kind"` // file_path or content_hash
	Path        string `json:"path"` // repository-relative, slash-separated
	SHA256      string `json:"sha256"`
}

// FileRefsVersion is the FileRefs format records carry now.
const FileRefsVersion = 1

// SessionMeta describes a session in a record on a records ref.
type SessionMeta struct {
	Repository  string `json:"repository"`       // the repository's short name (Key.EventSource without the scheme)
	Origin      string `json:"origin,omitempty"` // normalized origin URL, when known
	Branch      string `json:"branch,omitempty"`
	StartCommit string `json:"start_commit,omitempty"`
	// HeadAtStart is HEAD when the session started, set only when the
	// caller's --starting-commit (StartCommit) was an earlier commit.
	HeadAtStart string `json:"head_at_start,omitempty"`
	EndCommit   string `json:"end_commit,omitempty"`
	State       string `json:"state"`
	StartedAt   string `json:"started_at"` // RFC 3339, UTC
	EndedAt     string `json:"ended_at,omitempty"`
	UserName    string `json:"user_name,omitempty"`
	UserEmail   string `json:"user_email,omitempty"`
	Host        string `json:"host,omitempty"`
	// Place is a hash of the host and the worktree's path (PlaceOf): which
	// checkout the session ran in, without naming it. verify ties an open
	// session to a range's session of the same place whatever their
	// branches (a rewind and a renamed branch in one worktree).
	Place string `json:"place,omitempty"`
	// Conversations are the agent conversations the session was bound to.
	Conversations []ConversationRef `json:"conversations,omitempty"`
}

// EventRef is one session event: its token and time, never its detail.
type EventRef struct {
	Seq   int64  `json:"seq"`
	Token string `json:"token"`
	At    string `json:"at"` // RFC 3339, UTC
}

// ViolationRef is one violation without its message (which may quote
// paths or commands).
type ViolationRef struct {
	Code        string `json:"code"`
	Phase       string `json:"phase,omitempty"`
	Requirement string `json:"requirement,omitempty"`
	Severity    string `json:"severity"`
	At          string `json:"at"`
}

// MaxRecordBytes bounds one record on a records ref: readers skip a larger
// one, writers shed events to stay under it.
const MaxRecordBytes = 4 << 20

// RecordSchema is the Record format version. v2 records always carry
// file_refs_version (and a reference for every file evidence): verify
// fails one that does not. v1 records (RecordSchemaV1) were written before
// file references, or while they were new, and may lack them.
const RecordSchema = "sessiongate.session-record.v2"

// RecordSchemaV1 is the format before file references were required.
const RecordSchemaV1 = "sessiongate.session-record.v1"

// PlaceOf is SessionMeta.Place for a host and a worktree's absolute path
// ("" when the path is unknown).
func PlaceOf(host, worktree string) string {
	if worktree == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(host + "\x00" + worktree))
	return hex.EncodeToString(sum[:16])
}
