package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sessiongate/sessiongate/redact"
	"github.com/sessiongate/sessiongate/session"
)

// The team index's bookkeeping (package teamindex): where each source was
// indexed up to, and which record blob each imported session came from.

// IndexTip returns the records-ref commit a source was indexed up to, ""
// before its first index.
func (r reader) IndexTip(ctx context.Context, source string) (string, error) {
	var tip string
	err := r.q.QueryRow(ctx, `SELECT tip FROM index_sources WHERE source = $1`, source).Scan(&tip)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("index tip of %s: %w", source, err)
	}
	return tip, nil
}

// IndexedBlob returns the record blob a session was imported from, "" when
// it was not imported by the index.
func (r reader) IndexedBlob(ctx context.Context, sessionID string) (source, blob string, err error) {
	err = r.q.QueryRow(ctx, `SELECT source, blob FROM index_records WHERE session_id = $1`, sessionID).Scan(&source, &blob)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("indexed record of session %s: %w", sessionID, err)
	}
	return source, blob, nil
}

// IndexedState returns, for those of ids that are stored, the repository
// their session belongs to and the record blob it was indexed from ("" when
// it was not imported by the index): one query for a batch of records.
func (r reader) IndexedState(ctx context.Context, ids []string) (repoIDs map[string]int64, blobs map[string]string, err error) {
	repoIDs, blobs = map[string]int64{}, map[string]string{}
	rows, err := r.q.Query(ctx, `SELECT s.id, s.repo_id, coalesce(x.blob, '') FROM sessions s
		LEFT JOIN index_records x ON x.session_id = s.id WHERE s.id = ANY($1)`, ids)
	if err != nil {
		return nil, nil, fmt.Errorf("indexed state: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, blob string
		var repo int64
		if err := rows.Scan(&id, &repo, &blob); err != nil {
			return nil, nil, fmt.Errorf("indexed state: %w", err)
		}
		repoIDs[id], blobs[id] = repo, blob
	}
	return repoIDs, blobs, rows.Err()
}

// SetIndexTip records the commit a source is indexed up to.
func (tx *Tx) SetIndexTip(ctx context.Context, source, tip string) error {
	_, err := tx.q.Exec(ctx, `INSERT INTO index_sources (source, tip, updated_at) VALUES ($1, $2, $3)
		ON CONFLICT (source) DO UPDATE SET tip = excluded.tip, updated_at = excluded.updated_at`, source, tip, time.Now().UnixNano())
	if err != nil {
		return fmt.Errorf("set index tip of %s: %w", source, err)
	}
	return nil
}

// SetIndexedBlob records the record blob a session was imported from.
func (tx *Tx) SetIndexedBlob(ctx context.Context, sessionID, source, blob string) error {
	_, err := tx.q.Exec(ctx, `INSERT INTO index_records (session_id, source, blob) VALUES ($1, $2, $3)
		ON CONFLICT (session_id) DO UPDATE SET source = excluded.source, blob = excluded.blob`, sessionID, source, blob)
	if err != nil {
		return fmt.Errorf("record the indexed blob of session %s: %w", sessionID, err)
	}
	return nil
}

// ImportSession writes a session the team index read from a record, with
// its snapshots, events and violations, in one round trip (a pgx batch in
// the transaction) instead of one per row: the index imports thousands of
// sessions a run. Seqs run 1..n in the given order; the violation count is
// set with the session.
// source and blob are recorded as where the session was indexed from.
func (tx *Tx) ImportSession(ctx context.Context, s *session.Session, snaps []session.Snapshot, evs []session.Event, vs []session.Violation, source, blob string) error {
	sender, ok := driverQ(tx.q).(interface {
		SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
	})
	if !ok {
		return fmt.Errorf("import session %s: not inside a transaction", s.ID)
	}
	if err := session.ValidateID(s.ID); err != nil {
		return fmt.Errorf("import session: %w", err)
	}
	s.CreatedAt = tx.stamp(s.CreatedAt)
	redactSession(s)
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO sessions (`+sessionCols+`, violation_count)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)`,
		s.ID, s.RepoID, s.Worktree, s.Branch, s.StartCommit, s.EndCommit, s.ProtocolSHA,
		s.Objective, string(s.State), s.Phase, nanos(s.CreatedAt), nanos(s.LastActivity), nanos(s.ExpiresAt), nanos(s.EndedAt),
		s.Terminated, s.TerminateReason, s.Summary, s.NextNotes, s.UserName, s.UserEmail, s.Host, nanos(s.EndingAt), len(vs))
	for i, sn := range snaps {
		b.Queue(`INSERT INTO snapshots (session_id, seq, snapshot_id, payload, created_at) VALUES ($1, $2, $3, $4, $5)`,
			s.ID, i+1, sn.SnapshotID, sn.Payload, nanos(tx.stamp(sn.CreatedAt)))
	}
	if len(evs) > 0 {
		// One statement for all the session's events (a record carries
		// tens to thousands): a row per statement cost the server a bind
		// and an execute each.
		seqs, toks, details, ats := make([]int64, len(evs)), make([]string, len(evs)), make([]string, len(evs)), make([]int64, len(evs))
		for i, e := range evs {
			seqs[i], toks[i], details[i], ats[i] = int64(i+1), e.Token, redact.Secrets(e.Detail), nanos(tx.stamp(e.CreatedAt))
		}
		b.Queue(`INSERT INTO events (session_id, seq, token, detail, created_at)
			SELECT $1, u.seq, u.token, u.detail, u.created_at
			FROM unnest($2::bigint[], $3::text[], $4::text[], $5::bigint[]) AS u (seq, token, detail, created_at)`,
			s.ID, seqs, toks, details, ats)
	}
	for _, v := range vs {
		b.Queue(`INSERT INTO violations (session_id, repo_id, phase, requirement, severity, code, message, state_window, decay_runs, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			s.ID, s.RepoID, v.Phase, redact.Secrets(v.Requirement), v.Severity, v.Code, redact.Secrets(v.Message), v.Window, v.DecayRuns, nanos(tx.stamp(v.CreatedAt)))
	}
	b.Queue(`INSERT INTO index_records (session_id, source, blob) VALUES ($1, $2, $3)
		ON CONFLICT (session_id) DO UPDATE SET source = excluded.source, blob = excluded.blob`, s.ID, source, blob)
	if err := sender.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("import session %s: %w", s.ID, explain(err, explainHost(tx.q)))
	}
	return nil
}
