package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

var (
	_ session.AgentReader        = reader{}
	_ session.SessionAgentReader = reader{}
	_ session.AgentWriter        = (*Tx)(nil)
)

// GetAgentBinding returns the sessiongate session an agent's own session id
// is bound to, or an error wrapping session.ErrNotFound.
func (r reader) GetAgentBinding(ctx context.Context, agent, agentSession string) (*session.AgentBinding, error) {
	var b session.AgentBinding
	var created, updated int64
	err := r.q.QueryRowContext(ctx, `SELECT agent, agent_session, session_id, worktree, stop_blocks, turn_mark, created_at, updated_at
		FROM agent_bindings WHERE agent = ? AND agent_session = ?`, agent, agentSession).
		Scan(&b.Agent, &b.AgentSession, &b.SessionID, &b.Worktree, &b.StopBlocks, &b.TurnMark, &created, &updated)
	if err != nil {
		return nil, notFound(err, "agent binding "+agent+" "+agentSession)
	}
	b.CreatedAt, b.UpdatedAt = fromNanos(created), fromNanos(updated)
	return &b, nil
}

// sessionBoundSQL is SessionBoundTo's query (TestHookQueriesStayInTheWorktree).
const sessionBoundSQL = `SELECT 1 FROM agent_bindings WHERE session_id = ? AND agent = ? LIMIT 1`

// SessionBoundTo reports whether agent's hooks bound the session (any of
// its agent sessions), on the agent_bindings_session index.
func (r reader) SessionBoundTo(ctx context.Context, sessionID, agent string) (bool, error) {
	var one int
	err := r.q.QueryRowContext(ctx, sessionBoundSQL, sessionID, agent).Scan(&one)
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
	created := tx.stamp(b.CreatedAt)
	updated := tx.stamp(b.UpdatedAt)
	_, err := tx.q.ExecContext(ctx, `INSERT INTO agent_bindings (agent, agent_session, session_id, worktree, stop_blocks, turn_mark, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (agent, agent_session) DO UPDATE SET session_id = excluded.session_id, worktree = excluded.worktree,
			stop_blocks = excluded.stop_blocks, turn_mark = excluded.turn_mark, updated_at = excluded.updated_at`,
		b.Agent, b.AgentSession, b.SessionID, b.Worktree, b.StopBlocks, b.TurnMark, nanos(created), nanos(updated))
	if err != nil {
		return fmt.Errorf("put agent binding: %w", err)
	}
	return nil
}

// PutToolStart records when an agent's tool call started.
func (tx *Tx) PutToolStart(ctx context.Context, agent, toolID string, at time.Time) error {
	_, err := tx.q.ExecContext(ctx, `INSERT OR REPLACE INTO agent_tool_starts (agent, tool_id, started_at) VALUES (?, ?, ?)`,
		agent, toolID, nanos(at))
	if err != nil {
		return fmt.Errorf("put tool start: %w", err)
	}
	return nil
}

// TakeToolStart returns and forgets when a tool call started; the zero time
// when it was never recorded.
func (tx *Tx) TakeToolStart(ctx context.Context, agent, toolID string) (time.Time, error) {
	var n int64
	err := tx.q.QueryRowContext(ctx, `DELETE FROM agent_tool_starts WHERE agent = ? AND tool_id = ? RETURNING started_at`, agent, toolID).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("take tool start: %w", err)
	}
	return fromNanos(n), nil
}
