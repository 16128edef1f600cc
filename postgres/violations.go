package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/redact"
	"github.com/sessiongate/sessiongate/session"
)

// ListViolations returns the violations matching f, newest first, one keyset
// page: rows strictly before (f.BeforeTime, f.BeforeID) when BeforeTime is
// set, at most f.Limit (DefaultLimit when 0). From is inclusive, To
// exclusive. Branch matches the violation's session's branch.
func (r reader) ListViolations(ctx context.Context, f session.ViolationFilter) ([]session.Violation, error) {
	const what = "list violations"
	var a args
	var conds []string
	from := "violations v"
	if f.Branch != "" || f.User != "" || f.Host != "" {
		from += " JOIN sessions s ON s.id = v.session_id"
	}
	if f.Branch != "" {
		conds = append(conds, "s.branch = "+a.add(f.Branch))
	}
	if f.User != "" {
		p := a.add(f.User)
		conds = append(conds, "(s.user_email = "+p+" OR s.user_name = "+p+")")
	}
	if f.Host != "" {
		conds = append(conds, "s.host = "+a.add(f.Host))
	}
	if f.Repo != "" {
		p := a.add(f.Repo)
		conds = append(conds, "v.repo_id IN (SELECT id FROM repositories WHERE origin = "+p+" OR (origin = '' AND root = "+p+"))")
	}
	if f.RepoID != 0 {
		conds = append(conds, "v.repo_id = "+a.add(f.RepoID))
	}
	if f.SessionID != "" {
		conds = append(conds, "v.session_id = "+a.add(f.SessionID))
	}
	if len(f.Severities) > 0 {
		conds = append(conds, "v.severity = ANY("+a.add(f.Severities)+")")
	}
	if f.Code != "" {
		conds = append(conds, "v.code = "+a.add(f.Code))
	}
	if f.Phase != "" {
		conds = append(conds, "v.phase = "+a.add(f.Phase))
	}
	if f.Window != "" {
		conds = append(conds, "v.state_window = "+a.add(f.Window))
	}
	if !f.From.IsZero() {
		conds = append(conds, "v.created_at >= "+a.add(nanos(f.From)))
	}
	if !f.To.IsZero() {
		conds = append(conds, "v.created_at < "+a.add(nanos(f.To)))
	}
	if !f.BeforeTime.IsZero() {
		conds = append(conds, "(v.created_at, v.id) < ("+a.add(nanos(f.BeforeTime))+", "+a.add(f.BeforeID)+")")
	}
	where := ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	query := `SELECT v.id, coalesce(v.session_id, ''), coalesce(v.repo_id, 0), v.phase,
		v.requirement, v.severity, v.code, v.message, v.state_window, v.decay_runs, v.created_at
		FROM ` + from + where + ` ORDER BY v.created_at DESC, v.id DESC LIMIT ` + a.add(limitOr(f.Limit))
	rows, err := r.q.Query(ctx, query, a...)
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

// AddViolation inserts v, sets its ID and bumps the session's
// violation_count. A zero RepoID is taken from the session; an empty
// SessionID records a violation outside any session.
func (tx *Tx) AddViolation(ctx context.Context, v *session.Violation) error {
	v.CreatedAt = tx.stamp(v.CreatedAt)
	v.Message, v.Requirement = redact.Secrets(v.Message), redact.Secrets(v.Requirement)
	var sessionID *string // NULL outside a session
	if v.SessionID != "" {
		sessionID = &v.SessionID
	}
	var repoID *int64
	err := tx.q.QueryRow(ctx, `INSERT INTO violations (session_id, repo_id, phase, requirement, severity,
		code, message, state_window, decay_runs, created_at)
		VALUES ($1::text, coalesce(nullif($2::bigint, 0), (SELECT repo_id FROM sessions WHERE id = $1::text)), $3, $4, $5, $6, $7, $8, $9, $10)
		RETURNING id, repo_id`,
		sessionID, v.RepoID, v.Phase, v.Requirement, v.Severity, v.Code, v.Message, v.Window, v.DecayRuns,
		nanos(v.CreatedAt)).Scan(&v.ID, &repoID)
	if err != nil {
		return fmt.Errorf("add violation %s to session %s: %w", v.Code, v.SessionID, err)
	}
	v.RepoID = 0
	if repoID != nil {
		v.RepoID = *repoID
	}
	if v.SessionID != "" {
		if _, err := tx.q.Exec(ctx, `UPDATE sessions SET violation_count = violation_count + 1 WHERE id = $1`,
			v.SessionID); err != nil {
			return fmt.Errorf("add violation %s to session %s: count: %w", v.Code, v.SessionID, err)
		}
	}
	return nil
}

// GetAgentBinding returns the sessiongate session an agent's own session id
// is bound to, or an error wrapping session.ErrNotFound.
func (r reader) GetAgentBinding(ctx context.Context, agent, agentSession string) (*session.AgentBinding, error) {
	var b session.AgentBinding
	var created, updated int64
	err := r.q.QueryRow(ctx, `SELECT agent, agent_session, session_id, worktree, stop_blocks, turn_mark, created_at, updated_at
		FROM agent_bindings WHERE agent = $1 AND agent_session = $2`, agent, agentSession).
		Scan(&b.Agent, &b.AgentSession, &b.SessionID, &b.Worktree, &b.StopBlocks, &b.TurnMark, &created, &updated)
	if err != nil {
		return nil, notFound(err, "agent binding "+agent+" "+agentSession)
	}
	b.CreatedAt, b.UpdatedAt = fromNanos(created), fromNanos(updated)
	return &b, nil
}

// SessionBoundTo reports whether agent's hooks bound the session (any of
// its agent sessions), on the agent_bindings_session index.
func (r reader) SessionBoundTo(ctx context.Context, sessionID, agent string) (bool, error) {
	var one int
	err := r.q.QueryRow(ctx, `SELECT 1 FROM agent_bindings WHERE session_id = $1 AND agent = $2 LIMIT 1`, sessionID, agent).Scan(&one)
	if err != nil {
		if errors.Is(notFound(err, ""), session.ErrNotFound) {
			return false, nil
		}
		return false, fmt.Errorf("read the agent bindings of session %s: %w", sessionID, err)
	}
	return true, nil
}

// PutAgentBinding inserts or replaces a binding.
func (tx *Tx) PutAgentBinding(ctx context.Context, b *session.AgentBinding) error {
	_, err := tx.q.Exec(ctx, `INSERT INTO agent_bindings (agent, agent_session, session_id, worktree, stop_blocks, turn_mark, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (agent, agent_session) DO UPDATE SET session_id = excluded.session_id, worktree = excluded.worktree,
			stop_blocks = excluded.stop_blocks, turn_mark = excluded.turn_mark, updated_at = excluded.updated_at`,
		b.Agent, b.AgentSession, b.SessionID, b.Worktree, b.StopBlocks, b.TurnMark, nanos(tx.stamp(b.CreatedAt)), nanos(tx.stamp(b.UpdatedAt)))
	if err != nil {
		return fmt.Errorf("put agent binding: %w", err)
	}
	return nil
}

// PutToolStart records when an agent's tool call started.
func (tx *Tx) PutToolStart(ctx context.Context, agent, toolID string, at time.Time) error {
	_, err := tx.q.Exec(ctx, `INSERT INTO agent_tool_starts (agent, tool_id, started_at) VALUES ($1, $2, $3)
		ON CONFLICT (agent, tool_id) DO UPDATE SET started_at = excluded.started_at`, agent, toolID, nanos(at))
	if err != nil {
		return fmt.Errorf("put tool start: %w", err)
	}
	return nil
}

// TakeToolStart returns and forgets when a tool call started; the zero time
// when it was never recorded.
func (tx *Tx) TakeToolStart(ctx context.Context, agent, toolID string) (time.Time, error) {
	rows, err := tx.q.Query(ctx, `DELETE FROM agent_tool_starts WHERE agent = $1 AND tool_id = $2 RETURNING started_at`, agent, toolID)
	if err != nil {
		return time.Time{}, fmt.Errorf("take tool start: %w", err)
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return time.Time{}, fmt.Errorf("take tool start: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return time.Time{}, fmt.Errorf("take tool start: %w", err)
	}
	return fromNanos(n), nil
}
