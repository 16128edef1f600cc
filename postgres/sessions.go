package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/sessiongate/sessiongate/redact"
	"github.com/sessiongate/sessiongate/session"
)

const sessionCols = `id, repo_id, worktree, branch, start_commit, end_commit, protocol_sha256,
	objective, state, phase, created_at, last_activity, expires_at, ended_at,
	terminated, terminate_reason, summary, next_notes, user_name, user_email, host, ending_at`

func scanSession(row pgx.Row) (*session.Session, error) {
	var s session.Session
	var created, last, expires, ended, ending int64
	var state string
	err := row.Scan(&s.ID, &s.RepoID, &s.Worktree, &s.Branch, &s.StartCommit, &s.EndCommit, &s.ProtocolSHA,
		&s.Objective, &state, &s.Phase, &created, &last, &expires, &ended,
		&s.Terminated, &s.TerminateReason, &s.Summary, &s.NextNotes, &s.UserName, &s.UserEmail, &s.Host, &ending)
	if err != nil {
		return nil, err
	}
	s.EndingAt = fromNanos(ending)
	s.State = session.State(state)
	s.CreatedAt, s.LastActivity, s.ExpiresAt, s.EndedAt = fromNanos(created), fromNanos(last), fromNanos(expires), fromNanos(ended)
	return &s, nil
}

func (r reader) querySessions(ctx context.Context, what, query string, a ...any) ([]*session.Session, error) {
	rows, err := r.q.Query(ctx, query, a...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var out []*session.Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// GetSession returns the session with id, or an error wrapping
// session.ErrNotFound.
func (r reader) GetSession(ctx context.Context, id string) (*session.Session, error) {
	s, err := scanSession(r.q.QueryRow(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id = $1`, id))
	if err != nil {
		return nil, notFound(err, "session "+id)
	}
	return s, nil
}

// activeStates is session.Session.Active as SQL.
var activeStates = []string{string(session.StateInit), string(session.StateWorking), string(session.StateEnding)}

// ActiveSession returns the newest INIT/WORKING/ENDING session of a worktree.
func (r reader) ActiveSession(ctx context.Context, repoID int64, worktree string) (*session.Session, error) {
	s, err := scanSession(r.q.QueryRow(ctx, `SELECT `+sessionCols+` FROM sessions
		WHERE repo_id = $1 AND worktree = $2 AND state = ANY($3)
		ORDER BY created_at DESC, id DESC LIMIT 1`, repoID, worktree, activeStates))
	if err != nil {
		return nil, notFound(err, fmt.Sprintf("active session of repository %d worktree %s", repoID, worktree))
	}
	return s, nil
}

// sessionWhere renders the filter's conditions, without the keyset and
// limit, as " WHERE ..." (or ""), adding their values to a.
func sessionWhere(f session.SessionFilter, a *args) string {
	var conds []string
	if f.RepoID != 0 {
		conds = append(conds, "repo_id = "+a.add(f.RepoID))
	}
	if len(f.States) > 0 {
		states := make([]string, len(f.States))
		for i, s := range f.States {
			states[i] = string(s)
		}
		conds = append(conds, "state = ANY("+a.add(states)+")")
	}
	if f.Branch != "" {
		conds = append(conds, "branch = "+a.add(f.Branch))
	}
	if f.Worktree != "" {
		conds = append(conds, "worktree = "+a.add(f.Worktree))
	}
	if f.User != "" {
		p := a.add(f.User)
		conds = append(conds, "(user_email = "+p+" OR user_name = "+p+")")
	}
	if f.Host != "" {
		conds = append(conds, "host = "+a.add(f.Host))
	}
	if f.Repo != "" {
		p := a.add(f.Repo)
		conds = append(conds, "repo_id IN (SELECT id FROM repositories WHERE origin = "+p+" OR (origin = '' AND root = "+p+"))")
	}
	if f.HasViolations != nil {
		if *f.HasViolations {
			conds = append(conds, "violation_count > 0")
		} else {
			conds = append(conds, "violation_count = 0")
		}
	}
	if f.Severity != "" {
		conds = append(conds, "id IN (SELECT session_id FROM violations WHERE severity = "+a.add(f.Severity)+")")
	}
	if !f.From.IsZero() {
		conds = append(conds, "created_at >= "+a.add(nanos(f.From)))
	}
	if !f.To.IsZero() {
		conds = append(conds, "created_at < "+a.add(nanos(f.To)))
	}
	if f.Query != "" {
		conds = append(conds, `objective ILIKE `+a.add("%"+likeEscaper.Replace(f.Query)+"%")+` ESCAPE '\'`)
	}
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// ListSessions returns the sessions matching f, newest first, one keyset
// page: rows strictly before (f.BeforeTime, f.BeforeID) when BeforeTime is
// set, at most f.Limit (DefaultLimit when 0).
func (r reader) ListSessions(ctx context.Context, f session.SessionFilter) ([]*session.Session, error) {
	query, a := listSessionsQuery(f)
	return r.querySessions(ctx, "list sessions", query, a...)
}

func listSessionsQuery(f session.SessionFilter) (string, args) {
	var a args
	where := sessionWhere(f, &a)
	if !f.BeforeTime.IsZero() {
		cond := "(created_at, id) < (" + a.add(nanos(f.BeforeTime)) + ", " + a.add(f.BeforeID) + ")"
		if where == "" {
			where = " WHERE " + cond
		} else {
			where += " AND " + cond
		}
	}
	return `SELECT ` + sessionCols + ` FROM sessions` + where + ` ORDER BY created_at DESC, id DESC LIMIT ` + a.add(limitOr(f.Limit)), a
}

// CountSessions counts the sessions matching f, ignoring its keyset and
// limit.
func (r reader) CountSessions(ctx context.Context, f session.SessionFilter) (int, error) {
	var a args
	where := sessionWhere(f, &a)
	var n int
	if err := r.q.QueryRow(ctx, `SELECT count(*) FROM sessions`+where, a...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count sessions: %w", err)
	}
	return n, nil
}

// RecentEnded returns the last n sessions of a repository with a non-zero
// EndedAt, newest end first.
func (r reader) RecentEnded(ctx context.Context, repoID int64, n int) ([]*session.Session, error) {
	if n <= 0 {
		return nil, nil
	}
	return r.querySessions(ctx, "recent ended sessions",
		`SELECT `+sessionCols+` FROM sessions WHERE repo_id = $1 AND ended_at > 0
		ORDER BY ended_at DESC, id DESC LIMIT $2`, repoID, n)
}

// SessionsStartedAfter lists sessions of a repository created strictly after
// t, oldest first.
func (r reader) SessionsStartedAfter(ctx context.Context, repoID int64, t time.Time) ([]*session.Session, error) {
	return r.querySessions(ctx, "sessions started after",
		`SELECT `+sessionCols+` FROM sessions WHERE repo_id = $1 AND created_at > $2
		ORDER BY created_at, id`, repoID, nanos(t))
}

// CreateSession inserts s. An empty ID gets a new UUID v4 and a zero
// CreatedAt the transaction's time; both are written back to s.
func (tx *Tx) CreateSession(ctx context.Context, s *session.Session) error {
	if s.ID == "" {
		id, err := uuid.NewRandom()
		if err != nil {
			return fmt.Errorf("create session: new id: %w", err)
		}
		s.ID = id.String()
	} else if err := session.ValidateID(s.ID); err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	s.CreatedAt = tx.stamp(s.CreatedAt)
	redactSession(s)
	_, err := tx.q.Exec(ctx, `INSERT INTO sessions (`+sessionCols+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
		s.ID, s.RepoID, s.Worktree, s.Branch, s.StartCommit, s.EndCommit, s.ProtocolSHA,
		s.Objective, string(s.State), s.Phase, nanos(s.CreatedAt), nanos(s.LastActivity), nanos(s.ExpiresAt), nanos(s.EndedAt),
		s.Terminated, s.TerminateReason, s.Summary, s.NextNotes, s.UserName, s.UserEmail, s.Host, nanos(s.EndingAt))
	if err != nil {
		return fmt.Errorf("create session %s (repository %d): %w", s.ID, s.RepoID, err)
	}
	return nil
}

// UpdateSession writes every field of s but ID and RepoID, which never
// change.
func (tx *Tx) UpdateSession(ctx context.Context, s *session.Session) error {
	redactSession(s)
	tag, err := tx.q.Exec(ctx, `UPDATE sessions SET worktree = $2, branch = $3, start_commit = $4, end_commit = $5,
		protocol_sha256 = $6, objective = $7, state = $8, phase = $9, created_at = $10, last_activity = $11,
		expires_at = $12, ended_at = $13, terminated = $14, terminate_reason = $15, summary = $16, next_notes = $17,
		user_name = $18, user_email = $19, host = $20, ending_at = $21
		WHERE id = $1`,
		s.ID, s.Worktree, s.Branch, s.StartCommit, s.EndCommit, s.ProtocolSHA,
		s.Objective, string(s.State), s.Phase, nanos(s.CreatedAt), nanos(s.LastActivity), nanos(s.ExpiresAt), nanos(s.EndedAt),
		s.Terminated, s.TerminateReason, s.Summary, s.NextNotes, s.UserName, s.UserEmail, s.Host, nanos(s.EndingAt))
	return affectedOne(tag, err, "update session "+s.ID)
}

// TouchSession sets last_activity and expires_at of the session if it is
// active (session.Writer).
func (tx *Tx) TouchSession(ctx context.Context, id string, lastActivity, expiresAt time.Time) (bool, error) {
	tag, err := tx.q.Exec(ctx, `UPDATE sessions SET last_activity = $2, expires_at = $3 WHERE id = $1 AND state = ANY($4)`,
		id, nanos(lastActivity), nanos(expiresAt), activeStates)
	if err != nil {
		return false, fmt.Errorf("touch session %s: %w", id, err)
	}
	return tag.RowsAffected() > 0, nil
}

// DeleteSession removes the session; foreign keys cascade to its phase
// results, evidence, events, violations and snapshots.
func (tx *Tx) DeleteSession(ctx context.Context, id string) error {
	tag, err := tx.q.Exec(ctx, `DELETE FROM sessions WHERE id = $1`, id)
	return affectedOne(tag, err, "delete session "+id)
}

// redactSession removes secret-looking values from a session's texts.
func redactSession(s *session.Session) {
	s.Objective, s.Summary = redact.Secrets(s.Objective), redact.Secrets(s.Summary)
	s.NextNotes, s.TerminateReason = redact.Secrets(s.NextNotes), redact.Secrets(s.TerminateReason)
}

// GetRepository returns the repository with id, or an error wrapping
// session.ErrNotFound.
func (r reader) GetRepository(ctx context.Context, id int64) (*session.Repository, error) {
	var repo session.Repository
	err := r.q.QueryRow(ctx, `SELECT id, root, name, origin FROM repositories WHERE id = $1`, id).
		Scan(&repo.ID, &repo.Root, &repo.Name, &repo.Origin)
	if err != nil {
		return nil, notFound(err, fmt.Sprintf("repository %d", id))
	}
	return &repo, nil
}

// RepositoryByRoot returns the repository rooted at root, or an error
// wrapping session.ErrNotFound.
func (r reader) RepositoryByRoot(ctx context.Context, root string) (*session.Repository, error) {
	var repo session.Repository
	err := r.q.QueryRow(ctx, `SELECT id, root, name, origin FROM repositories WHERE root = $1`, root).
		Scan(&repo.ID, &repo.Root, &repo.Name, &repo.Origin)
	if err != nil {
		return nil, notFound(err, "repository "+root)
	}
	return &repo, nil
}

// EnsureRepository returns the repository rooted at root, inserting it when
// new. A non-empty name replaces the stored one.
func (tx *Tx) EnsureRepository(ctx context.Context, root, name string) (*session.Repository, error) {
	var repo session.Repository
	// Read first: the usual case writes nothing (ON CONFLICT DO UPDATE
	// would write a new row version every time).
	err := tx.q.QueryRow(ctx, `SELECT id, root, name, origin FROM repositories WHERE root = $1`, root).
		Scan(&repo.ID, &repo.Root, &repo.Name, &repo.Origin)
	if err == nil && (name == "" || name == repo.Name) {
		return &repo, nil
	}
	err = tx.q.QueryRow(ctx, `INSERT INTO repositories (root, name) VALUES ($1, $2)
		ON CONFLICT (root) DO UPDATE SET name = CASE WHEN excluded.name <> '' THEN excluded.name ELSE repositories.name END
		RETURNING id, root, name, origin`, root, name).Scan(&repo.ID, &repo.Root, &repo.Name, &repo.Origin)
	if err != nil {
		return nil, fmt.Errorf("ensure repository %s: %w", root, err)
	}
	return &repo, nil
}

// SetRepositoryOrigin records a repository's normalized origin URL.
func (tx *Tx) SetRepositoryOrigin(ctx context.Context, repoID int64, origin string) error {
	tag, err := tx.q.Exec(ctx, `UPDATE repositories SET origin = $2 WHERE id = $1`, repoID, origin)
	return affectedOne(tag, err, fmt.Sprintf("set origin of repository %d", repoID))
}
