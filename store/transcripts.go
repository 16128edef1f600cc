package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sessiongate/sessiongate/session"
)

var (
	_ session.TranscriptReader = reader{}
	_ session.TranscriptWriter = (*Tx)(nil)
)

// SessionTranscripts lists the agent transcripts bound to a session, oldest first.
func (r reader) SessionTranscripts(ctx context.Context, sessionID string) ([]session.AgentTranscript, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT session_id, path, agent, agent_session, state, broken, created_at, updated_at
		FROM agent_transcripts WHERE session_id = ? ORDER BY created_at, path`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("list transcripts: %w", err)
	}
	defer rows.Close()
	var out []session.AgentTranscript
	for rows.Next() {
		var t session.AgentTranscript
		var state string
		var created, updated int64
		if err := rows.Scan(&t.SessionID, &t.Path, &t.Agent, &t.AgentSession, &state, &t.Broken, &created, &updated); err != nil {
			return nil, fmt.Errorf("scan transcript: %w", err)
		}
		if err := json.Unmarshal([]byte(state), &t.State); err != nil {
			return nil, fmt.Errorf("transcript %s state: %w", t.Path, err)
		}
		t.CreatedAt, t.UpdatedAt = fromNanos(created), fromNanos(updated)
		out = append(out, t)
	}
	return out, rows.Err()
}

// PutTranscript inserts or replaces a session's transcript row.
func (tx *Tx) PutTranscript(ctx context.Context, t *session.AgentTranscript) error {
	state, err := json.Marshal(t.State)
	if err != nil {
		return fmt.Errorf("transcript state: %w", err)
	}
	created, updated := tx.stamp(t.CreatedAt), tx.stamp(t.UpdatedAt)
	_, err = tx.q.ExecContext(ctx, `INSERT INTO agent_transcripts (session_id, path, agent, agent_session, state, broken, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (session_id, path) DO UPDATE SET agent = excluded.agent, agent_session = excluded.agent_session,
			state = excluded.state, broken = excluded.broken, updated_at = excluded.updated_at`,
		t.SessionID, t.Path, t.Agent, t.AgentSession, string(state), t.Broken, nanos(created), nanos(updated))
	if err != nil {
		return fmt.Errorf("put transcript: %w", err)
	}
	return nil
}
