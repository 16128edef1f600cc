package store

import (
	"context"
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

var (
	_ session.ActorWriter = (*Tx)(nil)
	_ session.ActorReader = reader{}
)

// AddCommitActor records who made a commit outside any session; a second
// record of the same commit replaces the first (an amend re-runs nothing,
// but a hook may run twice).
func (tx *Tx) AddCommitActor(ctx context.Context, repoID int64, a snapshot.CommitActor) error {
	at := tx.stamp(time.Time{})
	if t, err := time.Parse(time.RFC3339Nano, a.At); err == nil {
		at = t
	}
	_, err := tx.q.ExecContext(ctx, `INSERT INTO commit_actors (repo_id, sha, actor, agent, kind, author, via, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (repo_id, sha) DO UPDATE SET actor = excluded.actor, agent = excluded.agent, kind = excluded.kind,
			author = excluded.author, via = excluded.via`,
		repoID, a.Commit, a.Actor, a.Agent, a.Kind, a.Author, a.Via, nanos(at))
	if err != nil {
		return fmt.Errorf("record commit actor: %w", err)
	}
	return nil
}

// CommitActors lists recorded commit actors since a time, newest first.
func (r reader) CommitActors(ctx context.Context, since time.Time, limit int) ([]session.CommitActorRow, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT c.repo_id, `+teamRepoKey+`, c.sha, c.actor, c.agent, c.kind, c.author, c.via, c.created_at
		FROM commit_actors c JOIN repositories r ON r.id = c.repo_id
		WHERE c.created_at >= ? ORDER BY c.created_at DESC, c.sha LIMIT ?`, nanos(since), limitOr(limit))
	if err != nil {
		return nil, fmt.Errorf("list commit actors: %w", err)
	}
	defer rows.Close()
	var out []session.CommitActorRow
	for rows.Next() {
		var c session.CommitActorRow
		var at int64
		if err := rows.Scan(&c.RepoID, &c.Repo, &c.Commit, &c.Actor, &c.Agent, &c.Kind, &c.Author, &c.Via, &at); err != nil {
			return nil, fmt.Errorf("list commit actors: %w", err)
		}
		c.CreatedAt = fromNanos(at)
		c.At = c.CreatedAt.UTC().Format(time.RFC3339Nano)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list commit actors: %w", err)
	}
	return out, nil
}
