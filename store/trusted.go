package store

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/redact"
	"github.com/sessiongate/sessiongate/session"
)

const trustedFilesSQL = `SELECT id, repo_id, path, sha256, source, who, reason, via, session_id, created_at
	FROM trusted_files WHERE repo_id = +? ORDER BY id`

// TrustedFiles returns every accepted content of a repository's protected
// files, oldest first.
func (r reader) TrustedFiles(ctx context.Context, repoID int64) ([]session.TrustedFile, error) {
	const what = "trusted files of repository"
	rows, err := r.query(ctx, trustedFilesSQL, repoID)
	if err != nil {
		return nil, fmt.Errorf("%s %d: %w", what, repoID, err)
	}
	defer rows.Close()
	var out []session.TrustedFile
	for rows.Next() {
		var f session.TrustedFile
		var created int64
		if err := rows.Scan(&f.ID, &f.RepoID, &f.Path, &f.SHA256, &f.Source, &f.Who, &f.Reason, &f.Via, &f.SessionID, &created); err != nil {
			return nil, fmt.Errorf("%s %d: %w", what, repoID, err)
		}
		f.CreatedAt = fromNanos(created)
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s %d: %w", what, repoID, err)
	}
	return out, nil
}

// AddTrustedFile records one accepted content and sets f.ID. A zero
// CreatedAt gets the transaction's time.
func (tx *Tx) AddTrustedFile(ctx context.Context, f *session.TrustedFile) error {
	f.CreatedAt = tx.stamp(f.CreatedAt)
	f.Reason = redact.Secrets(f.Reason)
	err := tx.queryRow(ctx, `INSERT INTO trusted_files (repo_id, path, sha256, source, who, reason, via, session_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		f.RepoID, f.Path, f.SHA256, f.Source, f.Who, f.Reason, f.Via, f.SessionID, nanos(f.CreatedAt)).Scan(&f.ID)
	if err != nil {
		return fmt.Errorf("add trusted file %s: %w", f.Path, err)
	}
	return nil
}
