package postgres

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sessiongate/sessiongate/session"
)

// The dashboard's aggregate reads (the SQLite store's store/dashboard.go),
// found by the server through a type assertion.

const dayNanos = int64(24 * time.Hour)

const violationCountsSQL = `SELECT id, violation_count FROM sessions WHERE id = ANY($1)`

// ComplianceByDay returns, for each UTC day in [from, to) on which at least
// one session ended, the ended and compliant counts, oldest first. A session
// is compliant when it ended COMPLETE with no violation.
func (r reader) ComplianceByDay(ctx context.Context, from, to time.Time) ([]session.DayCompliance, error) {
	const what = "compliance by day"
	if f, t := nanos(from), nanos(to); f%dayNanos == 0 && t%dayNanos == 0 && f > 0 {
		// Whole days: the counts migrations 0004 and 0005 keep.
		return r.dayCounts(ctx, f/dayNanos, t/dayNanos)
	}
	rows, err := r.q.Query(ctx, `SELECT ended_at / $1, count(*),
		count(*) FILTER (WHERE state = $4 AND violation_count = 0)
		FROM sessions WHERE ended_at > 0 AND ended_at >= $2 AND ended_at < $3
		GROUP BY 1 ORDER BY 1`, dayNanos, nanos(from), nanos(to), string(session.StateComplete))
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

// dayCounts reads the days [from, to) from the counts and their deltas.
func (r reader) dayCounts(ctx context.Context, from, to int64) ([]session.DayCompliance, error) {
	const what = "compliance by day"
	counts, err := r.counts(ctx, "ended:", "compliant:")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	days := map[int64]*session.DayCompliance{}
	for key, n := range counts {
		kind, num, _ := strings.Cut(key, ":")
		day, err := strconv.ParseInt(num, 10, 64)
		if err != nil || day < from || day >= to {
			continue
		}
		d := days[day]
		if d == nil {
			d = &session.DayCompliance{Day: time.Unix(0, day*dayNanos).UTC()}
			days[day] = d
		}
		if kind == "ended" {
			d.Ended = n
		} else {
			d.Compliant = n
		}
	}
	var out []session.DayCompliance
	for _, d := range days {
		if d.Ended > 0 {
			out = append(out, *d)
		}
	}
	slices.SortFunc(out, func(a, b session.DayCompliance) int { return a.Day.Compare(b.Day) })
	return out, nil
}

// CountSessionsByState counts sessions per state, sessions with at least one
// violation and violations, from the kept counts (counts).
func (r reader) CountSessionsByState(ctx context.Context) (*session.SessionCounts, error) {
	const what = "count sessions by state"
	counts, err := r.counts(ctx, "state:", "with_violations", "violations")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	c := &session.SessionCounts{ByState: map[string]int{}}
	for key, n := range counts {
		switch state, ok := strings.CutPrefix(key, "state:"); {
		case ok && n != 0:
			c.ByState[state] = n
			c.Total += n
		case key == "with_violations":
			c.WithViolations = n
		case key == "violations":
			c.Violations = n
		}
	}
	return c, nil
}

// counts returns the kept counts whose keys start with one of prefixes:
// dashboard_counts plus the deltas the triggers appended since the last
// fold (migrations 0004, 0005). Past foldAfter deltas it folds them first.
func (r reader) counts(ctx context.Context, prefixes ...string) (map[string]int, error) {
	var pending int
	if err := r.q.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM dashboard_count_deltas LIMIT $1) AS d`, foldAfter+1).Scan(&pending); err != nil {
		return nil, err
	}
	if pending > foldAfter {
		// One folder at a time (a try-lock: the others read base plus
		// deltas); deltas other transactions have not committed yet are
		// not visible, so not deleted, and fold next time.
		var deleted int
		err := r.q.QueryRow(ctx, `WITH lock AS (SELECT pg_try_advisory_xact_lock($1) AS ok),
			d AS (DELETE FROM dashboard_count_deltas WHERE (SELECT ok FROM lock) RETURNING key, d),
			s AS (SELECT key, sum(d) AS n FROM d GROUP BY key),
			i AS (INSERT INTO dashboard_counts (key, n) SELECT key, n FROM s
				ON CONFLICT (key) DO UPDATE SET n = dashboard_counts.n + excluded.n)
			SELECT count(*) FROM d`, foldLockKey).Scan(&deleted)
		if err != nil {
			return nil, fmt.Errorf("fold: %w", err)
		}
		// After a large fold (a big import), clear the dead rows now
		// rather than reading through them until autovacuum comes; not
		// possible inside a transaction (Update's reads).
		if p, ok := driverQ(r.q).(*pgxpool.Pool); ok && deleted > 100*foldAfter {
			if _, err := p.Exec(ctx, `VACUUM dashboard_count_deltas`); err != nil {
				return nil, fmt.Errorf("vacuum the folded deltas: %w", err)
			}
		}
	}
	var like []string
	for _, p := range prefixes {
		like = append(like, strings.NewReplacer("%", `\%`, "_", `\_`).Replace(p)+"%")
	}
	rows, err := r.q.Query(ctx, `SELECT key, sum(n) FROM (SELECT key, n FROM dashboard_counts
		UNION ALL SELECT key, d FROM dashboard_count_deltas) AS c WHERE key LIKE ANY ($1) GROUP BY key`, like)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var key string
		var n int
		if err := rows.Scan(&key, &n); err != nil {
			return nil, err
		}
		out[key] = n
	}
	return out, rows.Err()
}

// foldAfter is how many count deltas a read leaves unfolded.
const foldAfter = 1000

// ViolationCounts returns the violation count of each of the given
// sessions; unknown ids are absent.
func (r reader) ViolationCounts(ctx context.Context, ids []string) (map[string]int, error) {
	out := make(map[string]int, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := r.q.Query(ctx, violationCountsSQL, ids)
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
// none.
func (r reader) LastEventSeq(ctx context.Context, sessionID string) (int64, error) {
	var seq int64
	if err := r.q.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM events WHERE session_id = $1`, sessionID).Scan(&seq); err != nil {
		return 0, fmt.Errorf("last event of session %s: %w", sessionID, err)
	}
	return seq, nil
}

// ListProtocols returns the stored protocol versions, newest first, at most
// limit, each with the number of sessions that pinned it.
func (r reader) ListProtocols(ctx context.Context, limit int) ([]session.ProtocolVersion, error) {
	rows, err := r.q.Query(ctx, `SELECT p.sha256, p.name, p.created_at,
		(SELECT count(*) FROM sessions s WHERE s.protocol_sha256 = p.sha256)
		FROM protocols p ORDER BY p.created_at DESC, p.sha256 LIMIT $1`, limitOr(limit))
	if err != nil {
		return nil, fmt.Errorf("list protocols: %w", err)
	}
	defer rows.Close()
	var out []session.ProtocolVersion
	for rows.Next() {
		var p session.ProtocolVersion
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

// DashboardSessions is ListSessions plus the exact number of matches.
func (r reader) DashboardSessions(ctx context.Context, f session.SessionFilter) (*session.SessionPage, error) {
	list, err := r.ListSessions(ctx, f)
	if err != nil {
		return nil, err
	}
	// Counted up to dashboardCountCap, then "at least": counting a million
	// matches costs tens of milliseconds on every page of a team database,
	// and past a thousand a person narrows the filter, not counts pages.
	var a args
	where := sessionWhere(f, &a)
	var n int
	if err := r.q.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM sessions`+where+` LIMIT `+a.add(dashboardCountCap+1)+`) AS m`, a...).Scan(&n); err != nil {
		return nil, fmt.Errorf("count sessions: %w", err)
	}
	if n > dashboardCountCap {
		return &session.SessionPage{Sessions: list, Total: dashboardCountCap, TotalExact: false}, nil
	}
	return &session.SessionPage{Sessions: list, Total: n, TotalExact: true}, nil
}

// dashboardCountCap is how far the dashboard's session list counts.
const dashboardCountCap = 1_000
