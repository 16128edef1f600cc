package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/redact"
	"github.com/sessiongate/sessiongate/session"
)

const evidenceCols = `id, session_id, phase, step, kind, sha256, ref, size, body, body IS NULL, created_at,
	origin, requirement, source, command, exit_code, duration_ns, change`

const evidenceSQL = `SELECT ` + evidenceCols + ` FROM evidence WHERE session_id = +? ORDER BY id`

// ListEvidence returns a session's evidence in the order it was recorded.
func (r reader) ListEvidence(ctx context.Context, sessionID string) ([]session.Evidence, error) {
	return r.queryEvidence(ctx, sessionID, evidenceSQL, sessionID)
}

// gateEvidenceSQL is GateEvidence's query: two index searches (the
// phase's rows on evidence_phase, content hashes of other phases on the
// partial index evidence_content_hash, whose condition is written as a
// literal so SQLite uses it) merged in id order, never the whole session.
const gateEvidenceSQL = `SELECT ` + evidenceCols + ` FROM evidence WHERE session_id = +? AND phase = +? AND created_at <= ` + endedBound + `
	UNION ALL
	SELECT ` + evidenceCols + ` FROM evidence WHERE session_id = +? AND kind = '` + session.EvidenceContentHash + `' AND phase <> +? AND created_at <= ` + endedBound + `
	ORDER BY id`

// endedBound is the last time evidence of session ?1 counts for a gate:
// its ended_at once it ended. Nothing recorded after a session's end is
// judged as its evidence, whatever wrote it (issue 25 leftovers). One
// primary-key read per statement.
const endedBound = `(SELECT CASE WHEN ended_at > 0 THEN ended_at ELSE 9223372036854775807 END FROM sessions WHERE id = ?1)`

// gateFileEvidenceSQL is GateAndFileEvidence's query: gateEvidenceSQL and
// the file_path evidence of the other phases (on evidence_session, the
// session's rows only), in id order. Disjoint branches: no row twice.
const gateFileEvidenceSQL = `SELECT ` + evidenceCols + ` FROM evidence WHERE session_id = +? AND phase = +? AND created_at <= ` + endedBound + `
	UNION ALL
	SELECT ` + evidenceCols + ` FROM evidence WHERE session_id = +? AND kind = '` + session.EvidenceContentHash + `' AND phase <> +? AND created_at <= ` + endedBound + `
	UNION ALL
	SELECT ` + evidenceCols + ` FROM evidence WHERE session_id = +? AND kind = '` + session.EvidenceFilePath + `' AND phase <> +? AND created_at <= ` + endedBound + `
	ORDER BY id`

// GateAndFileEvidence returns what a phase's gate reads and the path
// evidence of every phase in one statement (session.GateFileReader).
func (r reader) GateAndFileEvidence(ctx context.Context, sessionID, phase string) ([]session.Evidence, error) {
	return r.queryEvidence(ctx, sessionID, gateFileEvidenceSQL, sessionID, phase, sessionID, phase, sessionID, phase)
}

// GateEvidence returns what a phase's gate reads (session.Reader): the
// evidence of the phase and content_hash evidence of any phase, in the
// order it was recorded.
func (r reader) GateEvidence(ctx context.Context, sessionID, phase string) ([]session.Evidence, error) {
	return r.queryEvidence(ctx, sessionID, gateEvidenceSQL, sessionID, phase, sessionID, phase)
}

// queryEvidence runs a constant query of evidenceCols through the statement cache.
func (r reader) queryEvidence(ctx context.Context, sessionID, query string, args ...any) ([]session.Evidence, error) {
	const what = "evidence of session "
	rows, err := r.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []session.Evidence
	for rows.Next() {
		var e session.Evidence
		var created int64
		var null bool
		var exit sql.NullInt64
		var dur int64
		if err := rows.Scan(&e.ID, &e.SessionID, &e.Phase, &e.Step, &e.Kind, &e.SHA256, &e.Ref, &e.Size,
			&e.Body, &null, &created, &e.Origin, &e.Requirement, &e.Source, &e.Command, &exit, &dur, &e.Change); err != nil {
			return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
		}
		if e.Body == nil && !null {
			e.Body = []byte{} // an empty body was stored; nil means none was
		}
		e.CreatedAt = fromNanos(created)
		e.Duration = time.Duration(dur)
		if exit.Valid {
			code := int(exit.Int64)
			e.ExitCode = &code
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	return out, nil
}

// AddEvidence inserts e and sets its ID. Body is stored only when non-nil
// (the caller decides whether raw bodies are kept); a zero CreatedAt gets
// the transaction's time.
func (tx *Tx) AddEvidence(ctx context.Context, e *session.Evidence) error {
	if len(e.Body) > session.MaxEvidenceBytes {
		return fmt.Errorf("add evidence to session %s: body is %d bytes, limit %d", e.SessionID, len(e.Body), session.MaxEvidenceBytes)
	}
	e.CreatedAt = tx.stamp(e.CreatedAt)
	// Values that look like secrets are never stored (redact.Secrets).
	e.Ref, e.Command, e.Source = redact.Secrets(e.Ref), redact.Secrets(e.Command), redact.Secrets(e.Source)
	var body any // NULL unless a body was given
	if e.Body != nil {
		e.Body = []byte(redact.Secrets(string(e.Body)))
		body = e.Body
	}
	if e.Origin == "" {
		e.Origin = session.OriginClaimed
	}
	var exit any // NULL: no exit code (claimed evidence)
	if e.ExitCode != nil {
		exit = *e.ExitCode
	}
	err := tx.queryRow(ctx, `INSERT INTO evidence (session_id, phase, step, kind, sha256, ref, size, body, created_at,
		origin, requirement, source, command, exit_code, duration_ns, change)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		e.SessionID, e.Phase, e.Step, e.Kind, e.SHA256, e.Ref, e.Size, body, nanos(e.CreatedAt),
		e.Origin, e.Requirement, e.Source, e.Command, exit, int64(e.Duration), e.Change).Scan(&e.ID)
	if err != nil {
		return fmt.Errorf("add evidence to session %s: %w", e.SessionID, err)
	}
	return nil
}

// CommitsRecordedElsewhere returns which of shas another session recorded
// as observed commit evidence (session.Reader), with that session's id.
func (r reader) CommitsRecordedElsewhere(ctx context.Context, sessionID string, shas ...string) (map[string]string, error) {
	out := map[string]string{}
	if len(shas) == 0 {
		return out, nil
	}
	args := []any{sessionID}
	for _, c := range shas {
		args = append(args, c)
	}
	rows, err := r.query(ctx, `SELECT ref, session_id FROM evidence WHERE session_id <> ? AND `+commitEvidence+
		` AND ref IN (`+placeholders(len(shas))+`) ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("commits other sessions recorded: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var ref, id string
		if err := rows.Scan(&ref, &id); err != nil {
			return nil, fmt.Errorf("commits other sessions recorded: %w", err)
		}
		if _, ok := out[ref]; !ok {
			out[ref] = id
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("commits other sessions recorded: %w", err)
	}
	return out, nil
}

// commitEvidence is the condition of observed commit evidence, with the
// values written out so the partial index evidence_commits (migration 0010)
// applies; SQLite matches a partial index only against literals.
const commitEvidence = `kind IN ('` + session.EvidenceCommitSHA + `', '` + session.EvidenceBypassCommit + `') AND origin = '` + string(session.OriginObserved) + `'`

// RecordedCommits returns the commits the session recorded as observed
// commit evidence (session.Reader): all of them, or which of shas.
func (r reader) RecordedCommits(ctx context.Context, sessionID string, shas ...string) (map[string]bool, error) {
	query := `SELECT ref FROM evidence WHERE session_id = ? AND ` + commitEvidence
	args := []any{sessionID}
	if len(shas) > 0 {
		query += ` AND ref IN (` + placeholders(len(shas)) + `)`
		for _, c := range shas {
			args = append(args, c)
		}
	}
	rows, err := r.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("recorded commits of session %s: %w", sessionID, err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var ref string
		if err := rows.Scan(&ref); err != nil {
			return nil, fmt.Errorf("recorded commits of session %s: %w", sessionID, err)
		}
		out[ref] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("recorded commits of session %s: %w", sessionID, err)
	}
	return out, nil
}
