package session

import "time"

// The dashboard's aggregate reads are not part of Reader (only the
// dashboard needs them); both stores implement them, and main passes the
// store to the server as its ReadModel. These are their result types.

// DayCompliance is one UTC day of the compliance chart: how many sessions
// ended that day and how many of them completed without a violation.
type DayCompliance struct {
	Day       time.Time `json:"day"` // midnight UTC
	Ended     int       `json:"ended"`
	Compliant int       `json:"compliant"`
}

// SessionCounts are the overview's totals.
type SessionCounts struct {
	ByState        map[string]int `json:"by_state"`
	Total          int            `json:"total"`
	WithViolations int            `json:"with_violations"`
	Violations     int            `json:"violations"`
}

// ProtocolVersion is a stored protocol without its bytes.
type ProtocolVersion struct {
	SHA256    string    `json:"sha256"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	Sessions  int       `json:"sessions"`
}

// SessionPage is one page of the dashboard's session list and the number
// of sessions matching its filter over all pages.
type SessionPage struct {
	Sessions []*Session
	// Total counts the matches. When TotalExact is false the search was
	// broad: at least Total sessions match (Total is -1 when unknown).
	Total      int
	TotalExact bool
}
