package store

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sessiongate/sessiongate/session"
)

// The dashboard's aggregate reads. They live outside session.Reader because
// only the dashboard needs them; main passes the store as the server's ReadModel.
// Their result types are in package session (both stores return them).

type (
	DayCompliance   = session.DayCompliance
	SessionCounts   = session.SessionCounts
	ProtocolVersion = session.ProtocolVersion
	SessionPage     = session.SessionPage
)

const dayNanos = int64(24 * time.Hour)

// ComplianceByDay returns, for each UTC day in [from, to) on which at least
// one session ended, the ended and compliant counts, oldest first. A session
// is compliant when it ended COMPLETE with no violation; abandoned and
// terminated sessions count as ended and not compliant.
func (r reader) ComplianceByDay(ctx context.Context, from, to time.Time) ([]DayCompliance, error) {
	const what = "compliance by day"
	if f, t := nanos(from), nanos(to); f%dayNanos == 0 && t%dayNanos == 0 && f > 0 {
		// Whole days: the counts migration 0009's triggers keep.
		return r.dayCounts(ctx, f/dayNanos, t/dayNanos)
	}
	// "ended_at > 0" is written out so the planner can use the partial index
	// sessions_ended_compliance, which covers the whole query.
	rows, err := r.q.QueryContext(ctx, `SELECT ended_at / ?, count(*),
		sum(state = '`+string(session.StateComplete)+`' AND violation_count = 0)
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

const dayCountsSQL = `SELECT day, ended, compliant FROM session_day_counts
	WHERE day >= ? AND day < ? AND ended > 0 ORDER BY day`

// dayCounts reads session_day_counts for the days [from, to).
func (r reader) dayCounts(ctx context.Context, from, to int64) ([]session.DayCompliance, error) {
	const what = "compliance by day"
	rows, err := r.q.QueryContext(ctx, dayCountsSQL, from, to)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []session.DayCompliance
	for rows.Next() {
		var day int64
		var d session.DayCompliance
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

// CountSessionsByState counts sessions per state, sessions with at least one
// violation and violations from counts triggers keep (migrations 0003 and
// 0014), without reading the sessions or violations tables.
func (r reader) CountSessionsByState(ctx context.Context) (*SessionCounts, error) {
	const what = "count sessions by state"
	// session_state_counts is kept by triggers (migration 0003); counting
	// the index instead takes ~15 ms at 100k sessions.
	rows, err := r.q.QueryContext(ctx, `SELECT state, n FROM session_state_counts WHERE n <> 0`)
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
	// overview_counts (migration 0014): counting the violated sessions and
	// the violations grew with the database.
	rows, err = r.q.QueryContext(ctx, `SELECT key, n FROM overview_counts`)
	if err != nil {
		return nil, fmt.Errorf("%s: violations: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var n int
		if err := rows.Scan(&key, &n); err != nil {
			return nil, fmt.Errorf("%s: violations: %w", what, err)
		}
		switch key {
		case "with_violations":
			c.WithViolations = n
		case "violations":
			c.Violations = n
		}
	}
	if err := rows.Err(); err != nil {
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
	rows, err := r.q.QueryContext(ctx, violationCountsSQL(len(ids)), args...)
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

func violationCountsSQL(n int) string {
	return `SELECT id, violation_count FROM sessions WHERE id IN (` + placeholders(n) + `)`
}

const lastEventSeqSQL = `SELECT coalesce(max(seq), 0) FROM events WHERE session_id = ?`

// LastEventSeq returns the highest event Seq of a session, 0 when it has
// none: with the session row it tells a polling page whether anything
// changed.
func (r reader) LastEventSeq(ctx context.Context, sessionID string) (int64, error) {
	var seq int64
	if err := r.q.QueryRowContext(ctx, lastEventSeqSQL, sessionID).Scan(&seq); err != nil {
		return 0, fmt.Errorf("last event of session %s: %w", sessionID, err)
	}
	return seq, nil
}

// ListProtocols returns the stored protocol versions, newest first, at most
// limit, each with the number of sessions that pinned it.
func (r reader) ListProtocols(ctx context.Context, limit int) ([]ProtocolVersion, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT p.sha256, p.name, p.created_at,
		coalesce((SELECT n FROM protocol_session_counts c WHERE c.sha256 = p.sha256), 0)
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

// searchProbe is how many matches of an objective search are worth
// listing through the trigram index; beyond it the matches are dense and
// walking the newest sessions finds a page sooner.
const searchProbe = 500

// DashboardSessions is ListSessions plus the total, with both answered from
// indexes at 100k sessions:
//   - no search: the page as ListSessions; the total from
//     session_state_counts when only states are filtered, else CountSessions;
//   - a search of 3+ characters: the trigram index (sessions_fts) bounds the
//     matches; up to searchProbe of them are listed and counted exactly
//     through it, more are listed by walking created_at (they are dense, so
//     a page fills fast) and the total is "at least searchProbe";
//   - a shorter search: LIKE over created_at, total unknown.
//
// The LIKE condition is kept on every path, so results are exactly
// ListSessions' (the trigram index folds case beyond ASCII; LIKE does not).
func (r reader) DashboardSessions(ctx context.Context, f session.SessionFilter) (*SessionPage, error) {
	q := f.Query
	if q != "" && utf8.RuneCountInString(q) >= 3 {
		n, err := r.countSearch(ctx, f, searchProbe+1)
		if err != nil {
			return nil, err
		}
		if n <= searchProbe {
			list, err := r.listSearch(ctx, f)
			if err != nil {
				return nil, err
			}
			return &SessionPage{Sessions: list, Total: n, TotalExact: true}, nil
		}
		list, err := r.ListSessions(ctx, f)
		if err != nil {
			return nil, err
		}
		return &SessionPage{Sessions: list, Total: searchProbe, TotalExact: false}, nil
	}
	list, err := r.ListSessions(ctx, f)
	if err != nil {
		return nil, err
	}
	page := &SessionPage{Sessions: list, Total: -1}
	switch {
	case q != "":
		// A one- or two-character search: counting it means reading every
		// objective; the page itself is enough.
	case onlyStates(f):
		page.Total, err = r.countByStates(ctx, f.States)
		page.TotalExact = true
	default:
		page.Total, err = r.CountSessions(ctx, f)
		page.TotalExact = true
	}
	if err != nil {
		return nil, err
	}
	return page, nil
}

func onlyStates(f session.SessionFilter) bool {
	f.States, f.BeforeTime, f.BeforeID, f.Limit = nil, time.Time{}, "", 0
	return f.RepoID == 0 && f.Branch == "" && f.Worktree == "" && f.HasViolations == nil && f.Severity == "" &&
		f.User == "" && f.Host == "" && f.Repo == "" &&
		f.From.IsZero() && f.To.IsZero() && f.Query == ""
}

// countByStates sums session_state_counts (kept by triggers) for the given
// states, or all of them.
func (r reader) countByStates(ctx context.Context, states []session.State) (int, error) {
	query := `SELECT coalesce(sum(n), 0) FROM session_state_counts`
	args := make([]any, len(states))
	if len(states) > 0 {
		query += ` WHERE state IN (` + placeholders(len(states)) + `)`
		for i, s := range states {
			args[i] = s
		}
	}
	var n int
	if err := r.q.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count sessions by state: %w", err)
	}
	return n, nil
}

// qualifiedSessionCols is sessionCols with the "s." alias, for joins.
var qualifiedSessionCols = func() string {
	cols := strings.Split(sessionCols, ",")
	for i, c := range cols {
		cols[i] = "s." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}()

// searchFrom is the join of a search: the trigram index drives (CROSS JOIN
// keeps it the outer loop, so a LIMIT stops the index walk early), the
// session's other filters and the exact LIKE apply to each match. The
// arguments are the MATCH phrase and the LIKE pattern, then the filter's.
func searchFrom(f session.SessionFilter, keyset bool) (string, []any) {
	q := f.Query
	f.Query = ""
	if !keyset {
		f.BeforeTime, f.BeforeID = time.Time{}, ""
	}
	where, args := sessionWhere(f, false)
	conds := `sessions_fts MATCH ? AND s.objective LIKE ? ESCAPE '\'`
	if where != "" {
		conds += " AND " + strings.TrimPrefix(where, " WHERE ")
	}
	if keyset && !f.BeforeTime.IsZero() {
		conds += " AND (s.created_at, s.id) < (?, ?)"
		args = append(args, nanos(f.BeforeTime), f.BeforeID)
	}
	phrase := `"` + strings.ReplaceAll(q, `"`, `""`) + `"`
	return ` FROM sessions_fts CROSS JOIN sessions s ON s.rowid = sessions_fts.rowid WHERE ` + conds,
		append([]any{phrase, "%" + likeEscaper.Replace(q) + "%"}, args...)
}

func (r reader) countSearch(ctx context.Context, f session.SessionFilter, limit int) (int, error) {
	from, args := searchFrom(f, false)
	var n int
	if err := r.q.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1`+from+` LIMIT ?)`, append(args, limit)...).Scan(&n); err != nil {
		return 0, fmt.Errorf("search sessions: %w", err)
	}
	return n, nil
}

func (r reader) listSearch(ctx context.Context, f session.SessionFilter) ([]*session.Session, error) {
	from, args := searchFrom(f, true)
	return r.querySessions(ctx, "search sessions", `SELECT `+qualifiedSessionCols+from+
		` ORDER BY s.created_at DESC, s.id DESC LIMIT ?`, append(args, limitOr(f.Limit))...)
}
