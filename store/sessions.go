package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/sessiongate/sessiongate/redact"
	"github.com/sessiongate/sessiongate/session"
)

// DefaultLimit is the page size of ListSessions and ListViolations when the
// filter's Limit is 0 or less.
const DefaultLimit = 50

const sessionCols = `id, repo_id, worktree, branch, start_commit, end_commit, protocol_sha256,
	objective, state, phase, created_at, last_activity, expires_at, ended_at,
	terminated, terminate_reason, summary, next_notes, user_name, user_email, host, ending_at`

// activeStates is session.Session.Active as SQL.
const activeStates = `('` + string(session.StateInit) + `', '` + string(session.StateWorking) + `', '` + string(session.StateEnding) + `')`

// activeRow is session.Session.Active as a test of one row: SQLite builds
// a temporary table for each run of a statement with "state IN (three
// constants)" unless an index searches it, and every tool call touches
// its session; comparisons need none.
const activeRow = `(state = '` + string(session.StateInit) + `' OR state = '` + string(session.StateWorking) + `' OR state = '` + string(session.StateEnding) + `')`

type scanner interface{ Scan(dest ...any) error }

func scanSession(sc scanner) (*session.Session, error) {
	var s session.Session
	var created, last, expires, ended, ending int64
	var terminated int
	err := sc.Scan(&s.ID, &s.RepoID, &s.Worktree, &s.Branch, &s.StartCommit, &s.EndCommit, &s.ProtocolSHA,
		&s.Objective, &s.State, &s.Phase, &created, &last, &expires, &ended,
		&terminated, &s.TerminateReason, &s.Summary, &s.NextNotes, &s.UserName, &s.UserEmail, &s.Host, &ending)
	if err != nil {
		return nil, err
	}
	s.CreatedAt, s.LastActivity, s.ExpiresAt, s.EndedAt = fromNanos(created), fromNanos(last), fromNanos(expires), fromNanos(ended)
	s.EndingAt = fromNanos(ending)
	s.Terminated = terminated != 0
	return &s, nil
}

// querySessions runs a constant query through the statement cache.
func (r reader) querySessions(ctx context.Context, what, query string, args ...any) ([]*session.Session, error) {
	rows, err := r.query(ctx, query, args...)
	return scanSessions(what, rows, err)
}

func scanSessions(what string, rows *sql.Rows, err error) ([]*session.Session, error) {
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
	row := r.queryRow(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id = ?`, id)
	s, err := scanSession(row)
	if err != nil {
		return nil, notFound(err, "session "+id)
	}
	r.remember(s)
	return s, nil
}

// sessionTrustedSQL is GetSession with the repository's accepted-contents
// stamp: the count and newest id of its trusted_files rows (append-only:
// a new acceptance moves both), on trusted_files_repo_path alone.
const sessionTrustedSQL = `SELECT ` + sessionCols + `,
	(SELECT count(*) || ':' || coalesce(max(id), 0) FROM trusted_files WHERE repo_id = sessions.repo_id),
	(SELECT coalesce(max(id), 0) FROM evidence WHERE session_id = sessions.id) || ':' ||
	(SELECT coalesce(max(seq), 0) FROM events WHERE session_id = sessions.id)
	FROM sessions WHERE id = ?`

// GetSessionTrusted is GetSession with Session.TrustedStamp and
// Session.EvidenceStamp set
// (session.SessionTrustedReader), in one statement.
func (r reader) GetSessionTrusted(ctx context.Context, id string) (*session.Session, error) {
	var stamp, evStamp string
	s, err := scanSession(withExtra{r.queryRow(ctx, sessionTrustedSQL, id), []any{&stamp, &evStamp}})
	if err != nil {
		return nil, notFound(err, "session "+id)
	}
	s.TrustedStamp, s.EvidenceStamp = stamp, evStamp
	r.remember(s)
	return s, nil
}

// withExtra scans a row's trailing columns past what the wrapped scan reads.
type withExtra struct {
	sc    scanner
	extra []any
}

func (w withExtra) Scan(dest ...any) error { return w.sc.Scan(append(dest, w.extra...)...) }

// activeSessionSQL finds the newest INIT/WORKING/ENDING session of a
// worktree. INDEXED BY: left to itself the planner walks
// sessions_repo_created backwards to skip the sort, which reads every
// session of the repository when the worktree has none active (a hook's
// common case outside a session); this index reads only the worktree's
// active ones.
const activeSessionSQL = `SELECT ` + sessionCols + ` FROM sessions INDEXED BY sessions_worktree_state
	WHERE repo_id = +? AND worktree = +? AND state IN ` + activeStates + `
	ORDER BY created_at DESC, id DESC LIMIT 1`

// ActiveSession returns the newest INIT/WORKING/ENDING session of a worktree.
func (r reader) ActiveSession(ctx context.Context, repoID int64, worktree string) (*session.Session, error) {
	row := r.queryRow(ctx, activeSessionSQL, repoID, worktree)
	s, err := scanSession(row)
	if err != nil {
		return nil, notFound(err, fmt.Sprintf("active session of repository %d worktree %s", repoID, worktree))
	}
	r.remember(s)
	return s, nil
}

// sessionWhere renders the filter's conditions, without the keyset and
// limit, as " WHERE ..." (or "") and its arguments. From is inclusive, To
// exclusive.
//
// Values are bare ?: SQLite (built with STAT4) plans with them, so
// "state IN (?, ?, ?)" of the running states reads the few running
// sessions from sessions_state_created, where +? (planned with average
// selectivities) walked every session of a million in created_at order
// (802 ms). The price is a second compilation at the first step, which a
// dashboard page does not notice. plus = true writes +? (see
// plusPlaceholders) for the hooks' worktree lookup, whose plan INDEXED BY
// fixes whatever the values.
func sessionWhere(f session.SessionFilter, plus bool) (string, []any) {
	v := "?"
	if plus {
		v = "+?"
	}
	var conds []string
	var args []any
	if f.RepoID != 0 {
		conds = append(conds, "repo_id = "+v)
		args = append(args, f.RepoID)
	}
	if len(f.States) > 0 {
		conds = append(conds, "state IN ("+strings.TrimSuffix(strings.Repeat(v+", ", len(f.States)), ", ")+")")
		for _, s := range f.States {
			args = append(args, s)
		}
	}
	if f.Branch != "" {
		conds = append(conds, "branch = "+v)
		args = append(args, f.Branch)
	}
	if f.Worktree != "" {
		conds = append(conds, "worktree = "+v)
		args = append(args, f.Worktree)
	}
	if f.User != "" {
		conds = append(conds, "(user_email = "+v+" OR user_name = "+v+")")
		args = append(args, f.User, f.User)
	}
	if f.Host != "" {
		conds = append(conds, "host = "+v)
		args = append(args, f.Host)
	}
	if f.Repo != "" {
		// The repository's Key: its origin, or its root when it has none.
		conds = append(conds, "repo_id IN (SELECT id FROM repositories WHERE origin = ? OR (origin = '' AND root = ?))")
		args = append(args, f.Repo, f.Repo)
	}
	if f.HasViolations != nil {
		// Literal "> 0" so the planner can use the partial index
		// sessions_violated_created.
		if *f.HasViolations {
			conds = append(conds, "violation_count > 0")
		} else {
			conds = append(conds, "violation_count = 0")
		}
	}
	if f.Severity != "" {
		conds = append(conds, "id IN (SELECT session_id FROM violations WHERE severity = "+v+")")
		args = append(args, f.Severity)
	}
	if !f.From.IsZero() {
		conds = append(conds, "created_at >= "+v)
		args = append(args, nanos(f.From))
	}
	if !f.To.IsZero() {
		conds = append(conds, "created_at < "+v)
		args = append(args, nanos(f.To))
	}
	if f.Query != "" {
		// LIKE is case-insensitive for ASCII letters only.
		conds = append(conds, `objective LIKE ? ESCAPE '\'`)
		args = append(args, "%"+likeEscaper.Replace(f.Query)+"%")
	}
	if len(conds) == 0 {
		return "", args
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// ListSessions returns the sessions matching f, newest first, one keyset
// page: rows strictly before (f.BeforeTime, f.BeforeID) when BeforeTime is
// set, at most f.Limit (DefaultLimit when 0).
func (r reader) ListSessions(ctx context.Context, f session.SessionFilter) ([]*session.Session, error) {
	query, args := listSessionsQuery(f)
	rows, err := r.q.QueryContext(ctx, query, args...) // built from the filter: not cached
	return scanSessions("list sessions", rows, err)
}

func listSessionsQuery(f session.SessionFilter) (string, []any) {
	if f.Worktree != "" {
		// A worktree's sessions are few; without INDEXED BY the planner
		// walks every session of the repository in created_at order (to
		// skip a sort) until one of the worktree's turns up. The plan is
		// fixed, so the values are +? and it compiles once (pre-push).
		where, args := sessionWhere(f, true)
		if !f.BeforeTime.IsZero() {
			where = andCond(where, "(created_at, id) < (+?, +?)")
			args = append(args, nanos(f.BeforeTime), f.BeforeID)
		}
		return `SELECT ` + sessionCols + ` FROM sessions INDEXED BY sessions_worktree_created` + where +
			` ORDER BY created_at DESC, id DESC LIMIT +?`, append(args, limitOr(f.Limit))
	}
	if states := distinctStates(f.States); len(states) > 1 && onlyStates(f) {
		return mergeStatesQuery(f, states)
	}
	where, args := sessionWhere(f, false)
	if !f.BeforeTime.IsZero() {
		where = andCond(where, "(created_at, id) < (?, ?)")
		args = append(args, nanos(f.BeforeTime), f.BeforeID)
	}
	from := ` FROM sessions`
	if onlyRunning(f.States) {
		// Running sessions are few whatever the database's size (idle
		// ones end as ABANDONED), so reading them all and sorting beats
		// walking a repository's or a person's every session in created_at
		// order, which is what the planner picks without statistics.
		from += ` INDEXED BY sessions_state_created`
	}
	return `SELECT ` + sessionCols + from + where + ` ORDER BY created_at DESC, id DESC LIMIT ?`,
		append(args, limitOr(f.Limit))
}

// onlyRunning says whether states is non-empty and holds only running
// states (session.Session.Active).
func onlyRunning(states []session.State) bool {
	for _, st := range states {
		if st != session.StateInit && st != session.StateWorking && st != session.StateEnding {
			return false
		}
	}
	return len(states) > 0
}

// mergeStatesQuery lists the sessions in any of several states (the
// overview's running ones, /sessions?state=A&state=B) as one ordered walk
// of sessions_state_created per state, merged: "state IN (...)" reads
// every matching row and sorts them in a temporary b-tree, which for
// COMPLETE and ABANDONED is most of the database; the merge reads a page.
func mergeStatesQuery(f session.SessionFilter, states []session.State) (string, []any) {
	var b strings.Builder
	var args []any
	for i, st := range states {
		if i > 0 {
			b.WriteString(" UNION ALL ")
		}
		b.WriteString(`SELECT ` + sessionCols + ` FROM sessions WHERE state = ?`)
		args = append(args, st)
		if !f.BeforeTime.IsZero() {
			b.WriteString(" AND (created_at, id) < (?, ?)")
			args = append(args, nanos(f.BeforeTime), f.BeforeID)
		}
	}
	b.WriteString(` ORDER BY created_at DESC, id DESC LIMIT ?`)
	return b.String(), append(args, limitOr(f.Limit))
}

// distinctStates returns states without repeats (a repeat would list its
// sessions twice in the merge), sorted.
func distinctStates(states []session.State) []session.State {
	out := slices.Clone(states)
	slices.Sort(out)
	return slices.Compact(out)
}

// CountSessions counts the sessions matching f, ignoring its keyset and
// limit (the total behind a paged list).
func (r reader) CountSessions(ctx context.Context, f session.SessionFilter) (int, error) {
	where, args := sessionWhere(f, false)
	var n int
	if err := r.q.QueryRowContext(ctx, `SELECT count(*) FROM sessions`+where, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count sessions: %w", err)
	}
	return n, nil
}

const (
	recentEndedSQL = `SELECT ` + sessionCols + ` FROM sessions WHERE repo_id = +? AND ended_at > 0
	ORDER BY ended_at DESC, id DESC LIMIT +?`
	startedAfterSQL = `SELECT ` + sessionCols + ` FROM sessions WHERE repo_id = +? AND created_at > +?
	ORDER BY created_at, id`
)

// RecentEnded returns the last n sessions of a repository with a non-zero
// EndedAt, newest end first.
func (r reader) RecentEnded(ctx context.Context, repoID int64, n int) ([]*session.Session, error) {
	if n <= 0 {
		return nil, nil
	}
	return r.querySessions(ctx, "recent ended sessions",
		recentEndedSQL, repoID, n)
}

// SessionsStartedAfter lists sessions of a repository created strictly after
// t, oldest first.
func (r reader) SessionsStartedAfter(ctx context.Context, repoID int64, t time.Time) ([]*session.Session, error) {
	return r.querySessions(ctx, "sessions started after",
		startedAfterSQL, repoID, nanos(t))
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
	_, err := tx.exec(ctx, `INSERT INTO sessions (`+sessionCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.RepoID, s.Worktree, s.Branch, s.StartCommit, s.EndCommit, s.ProtocolSHA,
		s.Objective, s.State, s.Phase, nanos(s.CreatedAt), nanos(s.LastActivity), nanos(s.ExpiresAt), nanos(s.EndedAt),
		boolInt(s.Terminated), s.TerminateReason, s.Summary, s.NextNotes, s.UserName, s.UserEmail, s.Host, nanos(s.EndingAt))
	if err != nil {
		return fmt.Errorf("create session %s (repository %d): %w", s.ID, s.RepoID, err)
	}
	tx.remember(s)
	return nil
}

// UpdateSession writes every field of s but ID and RepoID, which never
// change. When this transaction has read or written the row, only the
// columns that differ from it are set: a full-row UPDATE makes SQLite
// rewrite the entry of every index on sessions (8 pages to the WAL instead
// of 1 for a touch), and a touch is what every tool call does.
func (tx *Tx) UpdateSession(ctx context.Context, s *session.Session) error {
	what := "update session " + s.ID
	redactSession(s)
	vals := updateValues(s)
	var set strings.Builder
	args := make([]any, 0, len(vals)+1)
	old, known := tx.rows[s.ID]
	var was [len(updateCols)]any
	if known {
		was = updateValues(&old)
	}
	for i, v := range vals {
		if known && v == was[i] {
			continue
		}
		if set.Len() > 0 {
			set.WriteString(", ")
		}
		set.WriteString(updateCols[i] + " = ?")
		args = append(args, v)
	}
	if set.Len() == 0 { // unchanged, and the row is there: read in this transaction
		return nil
	}
	// The column sets that occur are few (a touch, a move, an end), so
	// each is prepared once like a constant query.
	res, err := tx.exec(ctx, `UPDATE sessions SET `+set.String()+` WHERE id = ?`, append(args, s.ID)...)
	if err := affectedOne(res, err, what); err != nil {
		return err
	}
	tx.remember(s)
	return nil
}

// TouchSession sets last_activity and expires_at of the session if it is
// active (session.Writer): one statement, where a touch through
// UpdateSession needs the row read first. The row ends up as that touch
// leaves it.
func (tx *Tx) TouchSession(ctx context.Context, id string, lastActivity, expiresAt time.Time) (bool, error) {
	res, err := tx.exec(ctx, `UPDATE sessions SET last_activity = ?, expires_at = ? WHERE id = ? AND `+activeRow,
		nanos(lastActivity), nanos(expiresAt), id)
	if err != nil {
		return false, fmt.Errorf("touch session %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return false, err
	}
	if old, ok := tx.rows[id]; ok { // keep UpdateSession's diff right
		old.LastActivity, old.ExpiresAt = fromNanos(nanos(lastActivity)), fromNanos(nanos(expiresAt))
		tx.rows[id] = old
	}
	return true, nil
}

// updateCols are the columns UpdateSession writes, in updateValues' order.
var updateCols = [...]string{"worktree", "branch", "start_commit", "end_commit", "protocol_sha256",
	"objective", "state", "phase", "created_at", "last_activity", "expires_at", "ended_at",
	"terminated", "terminate_reason", "summary", "next_notes", "user_name", "user_email", "host", "ending_at"}

// updateValues are s's values of updateCols in stored form, comparable
// with ==.
func updateValues(s *session.Session) [len(updateCols)]any {
	return [...]any{s.Worktree, s.Branch, s.StartCommit, s.EndCommit, s.ProtocolSHA,
		s.Objective, s.State, s.Phase, nanos(s.CreatedAt), nanos(s.LastActivity), nanos(s.ExpiresAt), nanos(s.EndedAt),
		boolInt(s.Terminated), s.TerminateReason, s.Summary, s.NextNotes, s.UserName, s.UserEmail, s.Host, nanos(s.EndingAt)}
}

// remember records a session row as this transaction last read or wrote
// it; outside Update it does nothing. The transaction holds the write lock,
// so the row cannot change behind it, and no statement of this package
// changes the columns of updateCols except through UpdateSession.
func (r reader) remember(s *session.Session) {
	if r.rows != nil {
		r.rows[s.ID] = *s
	}
}

// DeleteSession removes the session; foreign keys cascade to its phase
// results, evidence, events, violations and snapshots.
func (tx *Tx) DeleteSession(ctx context.Context, id string) error {
	delete(tx.rows, id)
	res, err := tx.exec(ctx, `DELETE FROM sessions WHERE id = ?`, id)
	return affectedOne(res, err, "delete session "+id)
}

// affectedOne maps "no row changed" to session.ErrNotFound.
func affectedOne(res sql.Result, err error, what string) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: %w", what, session.ErrNotFound)
	}
	return nil
}

func andCond(where, cond string) string {
	if where == "" {
		return " WHERE " + cond
	}
	return where + " AND " + cond
}

func limitOr(n int) int {
	if n <= 0 {
		return DefaultLimit
	}
	return n
}

// redactSession removes secret-looking values from a session's texts.
func redactSession(s *session.Session) {
	s.Objective, s.Summary = redact.Secrets(s.Objective), redact.Secrets(s.Summary)
	s.NextNotes, s.TerminateReason = redact.Secrets(s.NextNotes), redact.Secrets(s.TerminateReason)
}
