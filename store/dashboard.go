package store

import (
	"context"
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// The dashboard's aggregate reads. They live outside session.Reader because
// only the dashboard needs them; the server finds them by type assertion.

// DayCompliance is one UTC day of the compliance chart: how many sessions
// ended that day and how many of them completed without a violation.
type DayCompliance struct {
	Day       time.Time `json:"day"` // midnight UTC
	Ended     int       `json:"ended"`
	Compliant int       `json:"compliant"`
}

const dayNanos = int64(24 * time.Hour)

// ComplianceByDay returns, for each UTC day in [from, to) on which at least
// one session ended, the ended and compliant counts, oldest first. A session
// is compliant when it ended COMPLETE with no violation; abandoned and
// terminated sessions count as ended and not compliant.
func (r reader) ComplianceByDay(ctx context.Context, from, to time.Time) ([]DayCompliance, error) {
	const what = "compliance by day"
	// "ended_at > 0" is written out so the planner can use the partial index
	// sessions_ended_compliance, which covers the whole query.
	rows, err := r.q.QueryContext(ctx, `SELECT ended_at / ?, count(*),
		sum(state = '`+session.StateComplete+`' AND violation_count = 0)
		FROM sessions WHERE ended_at > 0 AND ended_at >= ? AND ended_at < ?
		GROUP BY 1 ORDER BY 1`, dayNanos, nanos(from), nanos(to))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []DayCompliance
	for rows.Next() {
		var day int64
		var d DayCompliance
		if err := rows.Scan(&day, &d.Ended, &d.Compliant); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		d.Day = time.Unix(0, day*dayNanos).UTC()
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// SessionCounts are the overview's totals.
type SessionCounts struct {
	ByState        map[string]int `json:"by_state"`
	Total          int            `json:"total"`
	WithViolations int            `json:"with_violations"`
	Violations     int            `json:"violations"`
}

// CountSessionsByState counts sessions per state, sessions with at least one
// violation and violations, each from an index alone.
func (r reader) CountSessionsByState(ctx context.Context) (*SessionCounts, error) {
	const what = "count sessions by state"
	rows, err := r.q.QueryContext(ctx, `SELECT state, count(*) FROM sessions GROUP BY state`)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	c := &SessionCounts{ByState: map[string]int{}}
	for rows.Next() {
		var state string
		var n int
		if err := rows.Scan(&state, &n); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		c.ByState[state] = n
		c.Total += n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if err := r.q.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE violation_count > 0`).Scan(&c.WithViolations); err != nil {
		return nil, fmt.Errorf("%s: with violations: %w", what, err)
	}
	if err := r.q.QueryRowContext(ctx, `SELECT count(*) FROM violations`).Scan(&c.Violations); err != nil {
		return nil, fmt.Errorf("%s: violations: %w", what, err)
	}
	return c, nil
}

// ViolationCounts returns the violation count of each of the given sessions
// (the column AddViolation maintains); unknown ids are absent.
func (r reader) ViolationCounts(ctx context.Context, ids []string) (map[string]int, error) {
	out := make(map[string]int, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := r.q.QueryContext(ctx, `SELECT id, violation_count FROM sessions WHERE id IN (`+placeholders(len(ids))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("violation counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("violation counts: %w", err)
		}
		out[id] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("violation counts: %w", err)
	}
	return out, nil
}

// LastEventSeq returns the highest event Seq of a session, 0 when it has
// none: with the session row it tells a polling page whether anything
// changed.
func (r reader) LastEventSeq(ctx context.Context, sessionID string) (int64, error) {
	var seq int64
	if err := r.q.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM events WHERE session_id = ?`, sessionID).Scan(&seq); err != nil {
		return 0, fmt.Errorf("last event of session %s: %w", sessionID, err)
	}
	return seq, nil
}

// ProtocolVersion is a stored protocol without its bytes.
type ProtocolVersion struct {
	SHA256    string    `json:"sha256"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	Sessions  int       `json:"sessions"`
}

// ListProtocols returns the stored protocol versions, newest first, at most
// limit, each with the number of sessions that pinned it.
func (r reader) ListProtocols(ctx context.Context, limit int) ([]ProtocolVersion, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT p.sha256, p.name, p.created_at,
		(SELECT count(*) FROM sessions s WHERE s.protocol_sha256 = p.sha256)
		FROM protocols p ORDER BY p.created_at DESC, p.sha256 LIMIT ?`, limitOr(limit))
	if err != nil {
		return nil, fmt.Errorf("list protocols: %w", err)
	}
	defer rows.Close()
	var out []ProtocolVersion
	for rows.Next() {
		var p ProtocolVersion
		var created int64
		if err := rows.Scan(&p.SHA256, &p.Name, &created, &p.Sessions); err != nil {
			return nil, fmt.Errorf("list protocols: %w", err)
		}
		p.CreatedAt = fromNanos(created)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list protocols: %w", err)
	}
	return out, nil
}
