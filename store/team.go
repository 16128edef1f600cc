package store

import (
	"context"
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

const weekNanos = 7 * dayNanos

// teamKeys are the SQL for a session's repository key and person key
// (session.TeamByRepo, session.TeamByPerson).
const (
	teamRepoKey   = `CASE WHEN r.origin <> '' THEN r.origin ELSE r.root END`
	teamPersonKey = `CASE WHEN s.user_email <> '' THEN s.user_email ELSE s.user_name END`
)

// The team overview's statements: the ended sessions per repository and
// person and week; the bypasses per repository and person, and listed.
const (
	teamCompliant = `sum(CASE WHEN s.state = '` + string(session.StateComplete) + `' AND s.violation_count = 0 THEN 1 ELSE 0 END)`
	teamCountsSQL = `SELECT 'repo', ` + teamRepoKey + `, (s.ended_at - ?) / ?, count(*), ` + teamCompliant + `, sum(s.violation_count)
		FROM sessions s JOIN repositories r ON r.id = s.repo_id
		WHERE s.ended_at > 0 AND s.ended_at >= ? AND s.ended_at < ? GROUP BY 2, 3
		UNION ALL
		SELECT 'person', ` + teamPersonKey + `, (s.ended_at - ?) / ?, count(*), ` + teamCompliant + `, sum(s.violation_count)
		FROM sessions s
		WHERE s.ended_at > 0 AND s.ended_at >= ? AND s.ended_at < ? GROUP BY 2, 3`
	teamBypassFrom = ` FROM violations v LEFT JOIN repositories r ON r.id = v.repo_id LEFT JOIN sessions s ON s.id = v.session_id
		WHERE v.code IN (?, ?) AND v.created_at >= ?`
	teamBypassCountsSQL = `SELECT 'repo', coalesce(` + teamRepoKey + `, ''), count(*)` + teamBypassFrom + ` GROUP BY 2
		UNION ALL SELECT 'person', coalesce(` + teamPersonKey + `, ''), count(*)` + teamBypassFrom + ` GROUP BY 2`
	teamBypassesSQL = `SELECT v.id, coalesce(v.session_id, ''), coalesce(v.repo_id, 0), v.phase, v.requirement,
		v.severity, v.code, v.message, v.state_window, v.decay_runs, v.created_at,
		coalesce(` + teamRepoKey + `, ''), coalesce(` + teamPersonKey + `, '')` + teamBypassFrom + `
		ORDER BY v.created_at DESC, v.id DESC LIMIT ?`
)

// TeamActivity answers the team overview (session.NewTeamOverview): the
// sessions that ended in [from, to), per repository and per person and
// week, and the bypasses since lastWeek (at most limit listed). It reads
// the sessions that ended in the period through sessions_ended_compliance,
// and the violations of the last week.
func (r reader) TeamActivity(ctx context.Context, from, to, lastWeek time.Time, limit int) (*session.TeamActivity, error) {
	const what = "team overview"
	a := &session.TeamActivity{}
	rows, err := r.q.QueryContext(ctx, teamCountsSQL,
		nanos(from), weekNanos, nanos(from), nanos(to), nanos(from), weekNanos, nanos(from), nanos(to))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	for rows.Next() {
		var c session.TeamCount
		if err := rows.Scan(&c.Group, &c.Key, &c.Week, &c.Ended, &c.Compliant, &c.Violations); err != nil {
			rows.Close()
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		a.Counts = append(a.Counts, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}

	codes := []any{session.CodeBypass, session.CodeEscapeHatch, nanos(lastWeek)}
	rows, err = r.q.QueryContext(ctx, teamBypassCountsSQL, append(codes, codes...)...)
	if err != nil {
		return nil, fmt.Errorf("%s: bypass counts: %w", what, err)
	}
	for rows.Next() {
		var c session.TeamBypassCount
		if err := rows.Scan(&c.Group, &c.Key, &c.N); err != nil {
			rows.Close()
			return nil, fmt.Errorf("%s: bypass counts: %w", what, err)
		}
		a.BypassCounts = append(a.BypassCounts, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: bypass counts: %w", what, err)
	}

	rows, err = r.q.QueryContext(ctx, teamBypassesSQL, append(codes, limitOr(limit))...)
	if err != nil {
		return nil, fmt.Errorf("%s: bypasses: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		var b session.TeamBypass
		var created int64
		if err := rows.Scan(&b.ID, &b.SessionID, &b.RepoID, &b.Phase, &b.Requirement, &b.Severity, &b.Code,
			&b.Message, &b.Window, &b.DecayRuns, &created, &b.Repo, &b.Person); err != nil {
			return nil, fmt.Errorf("%s: bypasses: %w", what, err)
		}
		b.CreatedAt = fromNanos(created)
		a.Bypasses = append(a.Bypasses, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: bypasses: %w", what, err)
	}
	return a, nil
}
