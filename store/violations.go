package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/redact"
	"github.com/sessiongate/sessiongate/session"
)

// ListViolations returns the violations matching f, newest first, one keyset
// page: rows strictly before (f.BeforeTime, f.BeforeID) when BeforeTime is
// set, at most f.Limit (DefaultLimit when 0). From is inclusive, To
// exclusive. Branch matches the violation's session's branch.
func (r reader) ListViolations(ctx context.Context, f session.ViolationFilter) ([]session.Violation, error) {
	const what = "list violations"
	query, args := listViolationsQuery(f)
	rows, err := r.q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []session.Violation
	for rows.Next() {
		var v session.Violation
		var created int64
		if err := rows.Scan(&v.ID, &v.SessionID, &v.RepoID, &v.Phase, &v.Requirement, &v.Severity, &v.Code,
			&v.Message, &v.Window, &v.DecayRuns, &created); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		v.CreatedAt = fromNanos(created)
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

func listViolationsQuery(f session.ViolationFilter) (string, []any) {
	var conds []string
	var args []any
	add := func(cond string, a ...any) {
		conds = append(conds, cond)
		args = append(args, a...)
	}
	from := "violations v"
	if f.Branch != "" || f.User != "" || f.Host != "" {
		from += " JOIN sessions s ON s.id = v.session_id"
	}
	if f.Branch != "" {
		add("s.branch = ?", f.Branch)
	}
	if f.User != "" {
		add("(s.user_email = ? OR s.user_name = ?)", f.User, f.User)
	}
	if f.Host != "" {
		add("s.host = ?", f.Host)
	}
	if f.Repo != "" {
		add("v.repo_id IN (SELECT id FROM repositories WHERE origin = ? OR (origin = '' AND root = ?))", f.Repo, f.Repo)
	}
	if f.RepoID != 0 {
		add("v.repo_id = ?", f.RepoID)
	}
	if f.SessionID != "" {
		add("v.session_id = ?", f.SessionID)
	}
	if len(f.Severities) > 0 {
		a := make([]any, len(f.Severities))
		for i, s := range f.Severities {
			a[i] = s
		}
		add("v.severity IN ("+placeholders(len(a))+")", a...)
	}
	if f.Code != "" {
		add("v.code = ?", f.Code)
	}
	if f.Phase != "" {
		add("v.phase = ?", f.Phase)
	}
	if f.Window != "" {
		add("v.state_window = ?", f.Window)
	}
	if !f.From.IsZero() {
		add("v.created_at >= ?", nanos(f.From))
	}
	if !f.To.IsZero() {
		add("v.created_at < ?", nanos(f.To))
	}
	if !f.BeforeTime.IsZero() {
		add("(v.created_at, v.id) < (?, ?)", nanos(f.BeforeTime), f.BeforeID)
	}
	where := ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	args = append(args, limitOr(f.Limit))
	return `SELECT v.id, coalesce(v.session_id, ''), coalesce(v.repo_id, 0), v.phase,
		v.requirement, v.severity, v.code, v.message, v.state_window, v.decay_runs, v.created_at
		FROM ` + from + where + ` ORDER BY v.created_at DESC, v.id DESC LIMIT ?`, args
}

// AddViolation inserts v, sets its ID and bumps the session's
// violation_count. A zero RepoID is taken from the session; an empty
// SessionID records a violation outside any session. A zero CreatedAt gets
// the transaction's time.
func (tx *Tx) AddViolation(ctx context.Context, v *session.Violation) error {
	v.CreatedAt = tx.stamp(v.CreatedAt)
	v.Message, v.Requirement = redact.Secrets(v.Message), redact.Secrets(v.Requirement)
	sessionID := sql.NullString{String: v.SessionID, Valid: v.SessionID != ""}
	var repoID sql.NullInt64
	err := tx.queryRow(ctx, `INSERT INTO violations (session_id, repo_id, phase, requirement, severity,
		code, message, state_window, decay_runs, created_at)
		VALUES (?1, coalesce(nullif(?2, 0), (SELECT repo_id FROM sessions WHERE id = ?1)), ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
		RETURNING id, repo_id`,
		sessionID, v.RepoID, v.Phase, v.Requirement, v.Severity, v.Code, v.Message, v.Window, v.DecayRuns,
		nanos(v.CreatedAt)).Scan(&v.ID, &repoID)
	if err != nil {
		return fmt.Errorf("add violation %s to session %s: %w", v.Code, v.SessionID, err)
	}
	v.RepoID = repoID.Int64
	if v.SessionID != "" {
		if _, err := tx.exec(ctx, `UPDATE sessions SET violation_count = violation_count + 1 WHERE id = ?`,
			v.SessionID); err != nil {
			return fmt.Errorf("add violation %s to session %s: count: %w", v.Code, v.SessionID, err)
		}
	}
	return nil
}
