package web

import (
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// The view models the server fills and the components render. They hold
// stored data as is; escaping is the components' job (templ escapes every
// string it writes).

// Page is what the layout needs on every page.
type Page struct {
	Title   string
	Nav     string // "overview", "sessions", "violations", "protocol"
	Version string
}

// BlockKind names what blocks a session now.
type BlockKind string

const (
	BlockGate   BlockKind = "gate"   // a failing BLOCKING or REQUIRED gate
	BlockPolicy BlockKind = "policy" // a sequence rule refused the last call
)

// Position says where an active session stands and what keeps it there.
type Position struct {
	Phase   string // phase id, "WORKING" or "" when every end phase is done
	Title   string
	Gate    protocolspec.GateLevel
	Blocked bool      // something stands between the session and its next step
	Block   BlockKind // what, when Blocked
	// BlockedBy names the gate for BlockGate: "BLOCKING gate QA".
	BlockedBy string
	Reason    string // one line: what blocks it, or what the gate needs
	// Carried are violations of earlier sessions still active in this
	// one: while there is one, force is refused (docs/policy.md).
	Carried []session.Violation
}

// BlockLabel names the kind of block in words.
func (p Position) BlockLabel() string {
	switch p.Block {
	case BlockPolicy:
		return "Blocked by a sequence rule:"
	case BlockGate:
		if p.BlockedBy != "" {
			return "Blocked by " + p.BlockedBy + ":"
		}
		return "Blocked by a gate:"
	}
	return "Blocked:"
}

// ActiveSession is a row of the overview's "running now" table.
type ActiveSession struct {
	Session  *session.Session
	Position Position
	Expired  bool
	Now      time.Time
	// NAPending counts not-applicable marks waiting for a person's acceptance.
	NAPending int
}

// Counts are the overview's totals.
type Counts struct {
	Total, Active, Complete, Abandoned, Terminated int
	WithViolations, Violations                     int
}

// ChartDay is one day of the compliance chart.
type ChartDay struct {
	Day       time.Time
	Ended     int
	Compliant int
}

// Chart is the compliance chart: one entry per day from From to To
// inclusive, days without ended sessions included with zero counts.
type Chart struct {
	Days []ChartDay
}

// Overview is the / page.
type Overview struct {
	Counts     Counts
	Active     []ActiveSession
	MoreActive bool
	Chart      Chart
	Violations []session.Violation
	Version    string // changes whenever anything shown changes; the poll sends it back
}

// SessionFilterForm is the /sessions filter as the user typed it, to
// refill the form.
type SessionFilterForm struct {
	States     []session.State
	Branch     string
	Worktree   string
	Violations string // "", "yes", "no"
	Severity   string // "", "CRITICAL", "HIGH", "MEDIUM", "LOW": with a violation of it
	Now        string // "", "blocked", "idle": running sessions in that condition
	From, To   string // YYYY-MM-DD
	Q          string
	// Identity (issue 13.3): user email or name, host, repository key
	// (normalized origin URL, or root without one).
	User, Host, Repo string
}

// Active reports whether any filter is set.
func (f SessionFilterForm) Active() bool {
	return f.Now != "" || len(f.States) > 0 || f.Branch != "" || f.Worktree != "" || f.Violations != "" || f.Severity != "" || f.From != "" || f.To != "" || f.Q != "" ||
		f.User != "" || f.Host != "" || f.Repo != ""
}

// SessionRow is one row of the sessions table.
type SessionRow struct {
	Session    *session.Session
	Violations int
	Severities SeverityCounts // by severity; nil when the store cannot say
	Blocked    bool           // running and blocked now (computed for the now filter)
	Idle       time.Duration  // running and idle this long (computed for the now filter)
	// NotClean names the phases that keep an ended session from being
	// clean, "LINT (BLOCKING/REQUIRED gate(s) that checked nothing)"
	// (session.PhaseNotClean): which sessions skipped what, at a glance.
	NotClean []string
	// Clean is an ended session's verdict (session.Clean), nil while it
	// runs; VerdictLine the line `session status` prints for it.
	Clean       *bool
	VerdictLine string
	// CLIVanished are the calls an agent CLI was running when it vanished
	// (killed, crashed: session.VanishedShown): a chip on the row.
	CLIVanished []session.CLIVanishedShown
}

// Verdict is the row's outcome in words.
func (r SessionRow) Verdict() Verdict {
	c := r.Severities
	if c == nil && r.Violations > 0 {
		c = SeverityCounts{"": r.Violations}
	}
	return VerdictOf(r.Session.State, c)
}

// Sessions is the /sessions page.
type Sessions struct {
	Filter     SessionFilterForm
	Rows       []SessionRow
	Total      int    // sessions matching the filter, all pages; -1 when unknown
	TotalExact bool   // false: at least Total match (a broad search is not counted to the end)
	NextURL    string // the next (older) page, "" on the last
	PrevURL    string // the previous (newer) page, "" on the first or when unknown
	FirstURL   string // the first page of this filter, "" when on it
	PageStart  int    // 1-based index of the first row when known, 0 otherwise
	Empty      bool   // the database has no sessions at all
	Notice     string // a filter value left out (a half-typed date)
	// ExportCSV and ExportJSON download every row of the current filter.
	ExportCSV, ExportJSON string
}

// TimelineEntry is one phase of a session: the protocol's phase with the
// session's latest result for it.
type TimelineEntry struct {
	Phase      protocolspec.Phase
	Known      bool // the phase is in the pinned protocol (false: only a stored result names it)
	Result     *session.PhaseResult
	Status     session.PhaseStatus // PhasePending when there is no result
	Current    bool
	Evidence   []session.Evidence // the phase's evidence not tied to one of Reqs
	WorkingGap bool               // a "work happens here" marker, not a phase
	// Unreached: the session ended before this phase was decided (shown
	// as NOT REACHED, never PENDING).
	Unreached bool
	// Waited is how long the session stood in this phase: from when it
	// was entered (the previous phase settled, or the session started) to
	// when its gate settled; 0 when unknown.
	Waited time.Duration
	Reqs   []ReqRow // the phase's requirements with their evidence
}

// Open says whether the phase is shown expanded: failures, forced gates,
// the current phase and phases with open requirements.
func (t TimelineEntry) Open() bool {
	if t.Current || t.Status == session.PhaseFailed || t.Status == session.PhaseForced {
		return true
	}
	return false
}

// ReqRow is one requirement of a phase on the session page.
type ReqRow struct {
	Req      protocolspec.Requirement
	Evidence []session.Evidence // evidence recorded for this requirement
	Open     string             // why the last gate check left it open, "" otherwise
	NA       bool               // recorded as not applicable
	// NAPending: the mark waits for a person's acceptance (no condition a
	// machine could check).
	NAPending bool
}

// SessionDetail is the /sessions/{id} page.
type SessionDetail struct {
	Session    *session.Session
	Expired    bool
	Position   Position
	Timeline   []TimelineEntry
	SpecError  string // the pinned protocol could not be loaded
	Violations []session.Violation
	Commits    []session.Evidence
	Evidence   []session.Evidence // every piece
	// OtherEvidence is evidence for a phase the timeline does not show.
	OtherEvidence []session.Evidence
	// Fixes are CLI commands that move a blocked session on.
	Fixes []Fix
	// NotApplicable are the session's not-applicable marks and their standing.
	NotApplicable []session.NAMark
	// Supersedes are the sessions this one replaced when it started.
	Supersedes []string
	Events     []session.Event
	EventsFrom int64 // seq of the first listed event; > 1 when older ones are left out
	EventCount int64
	Snapshots  []session.Snapshot
	// CLIVanished are the agent CLIs that vanished in the session (killed,
	// crashed: no SessionEnd) as it recorded them, oldest first.
	CLIVanished []session.CLIVanishedShown
	Version     string // changes whenever anything shown changes; the poll sends it back
	Now         time.Time
}

// Fix is a copyable command with what it does.
type Fix struct {
	What    string
	Command string
}

// ViolationFilterForm is the /violations filter as typed.
type ViolationFilterForm struct {
	Severities []string
	Code       string
	Phase      string
	Branch     string
	From, To   string
	// Identity (issue 13.3), as on the sessions page.
	User, Host, Repo string
}

// Active reports whether any filter is set.
func (f ViolationFilterForm) Active() bool {
	return len(f.Severities) > 0 || f.Code != "" || f.Phase != "" || f.Branch != "" || f.From != "" || f.To != "" ||
		f.User != "" || f.Host != "" || f.Repo != ""
}

// Violations is the /violations page.
type Violations struct {
	Filter    ViolationFilterForm
	Rows      []session.Violation
	NextURL   string
	PrevURL   string
	FirstURL  string
	Notice    string                      // a filter value left out (a half-typed date)
	Phases    []string                    // the current protocol's phase ids, for the dropdown
	PageStart int                         // 1-based index of the first row
	Sessions  map[string]*session.Session // the rows' sessions, for objective and branch
	// ExportCSV and ExportJSON download every row of the current filter.
	ExportCSV, ExportJSON string
}

// ProtocolVersion is a stored protocol version in the version list.
type ProtocolVersion struct {
	SHA256    string
	Name      string
	CreatedAt time.Time
	Sessions  int
}

// Protocol is the /protocol page.
type Protocol struct {
	Spec     *protocolspec.Spec // nil when none could be loaded
	Error    string
	SHA      string // the version shown
	Current  bool   // it is the protocol the server loads now
	Coverage []protocolspec.PhaseCoverage
	Lint     []protocolspec.Warning
	Versions []ProtocolVersion
}

// ErrorPage is shown for 4xx and 5xx answers.
type ErrorPage struct {
	Status  int
	Title   string
	Message string
	Hint    string
}

// Team is the cross-repository overview page (session.TeamOverview).
type Team struct {
	O     *session.TeamOverview
	Error string // the overview could not be read: why, and what to do
	// All names the one table shown whole ("repos", "people" or
	// "bypasses"); the others show their first TeamShown rows.
	All string
}

// TeamShown is how many rows each /team table shows until asked for all:
// the worst ten are what a lead reads at a glance, and a page of every
// repository, person and bypass of a large team was 180 KB.
const TeamShown = 10

// TeamTables are the names /team?all= takes.
var TeamTables = []string{"repos", "people", "bypasses"}

// shown returns the first TeamShown of n rows, or all of them when the
// table is the one asked for whole.
func (t Team) shown(table string, n int) int {
	if t.All == table {
		return n
	}
	return min(n, TeamShown)
}
