package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sessiongate/sessiongate/redact"
	"github.com/sessiongate/sessiongate/session"
)

// ListEvents returns the session's events with Seq > afterSeq in order, at
// most limit of them (all when limit is 0 or less).
func (r reader) ListEvents(ctx context.Context, sessionID string, afterSeq int64, limit int) ([]session.Event, error) {
	n := int64(limit)
	if limit <= 0 {
		n = math.MaxInt64
	}
	return r.queryEvents(ctx, sessionID, `SELECT session_id, seq, token, detail, created_at FROM events
		WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, sessionID, afterSeq, n)
}

// LastEvents returns the session's last n events, oldest first; with
// tokens, only those of the n that carry one of them.
func (r reader) LastEvents(ctx context.Context, sessionID string, n int, tokens ...string) ([]session.Event, error) {
	if n <= 0 {
		return nil, nil
	}
	if len(tokens) > 0 {
		return r.queryEvents(ctx, sessionID, `SELECT session_id, seq, token, detail, created_at FROM (
			SELECT session_id, seq, token, detail, created_at FROM events WHERE session_id = $1 ORDER BY seq DESC LIMIT $2) last
			WHERE token = ANY($3) ORDER BY seq`, sessionID, n, tokens)
	}
	evs, err := r.queryEvents(ctx, sessionID, `SELECT session_id, seq, token, detail, created_at FROM events
		WHERE session_id = $1 ORDER BY seq DESC LIMIT $2`, sessionID, n)
	slices.Reverse(evs)
	return evs, err
}

// EventsWith returns the session's events that carry one of tokens, in
// order; none without tokens.
func (r reader) EventsWith(ctx context.Context, sessionID string, tokens ...string) ([]session.Event, error) {
	if len(tokens) == 0 {
		return nil, nil
	}
	return r.queryEvents(ctx, sessionID, `SELECT session_id, seq, token, detail, created_at FROM events
		WHERE session_id = $1 AND token = ANY($2) ORDER BY seq`, sessionID, tokens)
}

// EventsWithPrefix returns the session's events that carry one of tokens
// and whose detail starts with prefix, in order.
func (r reader) EventsWithPrefix(ctx context.Context, sessionID, prefix string, tokens ...string) ([]session.Event, error) {
	if len(tokens) == 0 {
		return nil, nil
	}
	return r.queryEvents(ctx, sessionID, `SELECT session_id, seq, token, detail, created_at FROM events
		WHERE session_id = $1 AND token = ANY($2) AND left(detail, length($3)) = $3 ORDER BY seq`, sessionID, tokens, prefix)
}

func (r reader) queryEvents(ctx context.Context, sessionID, query string, a ...any) ([]session.Event, error) {
	rows, err := r.q.Query(ctx, query, a...)
	if err != nil {
		return nil, fmt.Errorf("events of session %s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []session.Event
	for rows.Next() {
		var e session.Event
		var created int64
		if err := rows.Scan(&e.SessionID, &e.Seq, &e.Token, &e.Detail, &created); err != nil {
			return nil, fmt.Errorf("events of session %s: %w", sessionID, err)
		}
		e.CreatedAt = fromNanos(created)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("events of session %s: %w", sessionID, err)
	}
	return out, nil
}

// AppendEvent inserts e with Seq = the session's highest Seq + 1 and sets
// e.Seq. The transaction holds the write lock, so no other writer computes
// the same Seq; the primary key (session_id, seq) would refuse it anyway.
func (tx *Tx) AppendEvent(ctx context.Context, e *session.Event) error {
	e.CreatedAt = tx.stamp(e.CreatedAt)
	e.Detail = redact.Secrets(e.Detail)
	err := tx.q.QueryRow(ctx, `INSERT INTO events (session_id, seq, token, detail, created_at)
		SELECT $1, coalesce(max(seq), 0) + 1, $2, $3, $4 FROM events WHERE session_id = $1
		RETURNING seq`, e.SessionID, e.Token, e.Detail, nanos(e.CreatedAt)).Scan(&e.Seq)
	if err != nil {
		return fmt.Errorf("append event %q to session %s: %w", e.Token, e.SessionID, err)
	}
	return nil
}

const evidenceCols = `id, session_id, phase, step, kind, sha256, ref, size, body, body IS NULL, created_at,
	origin, requirement, source, command, exit_code, duration_ns, change`

// AppendEvents appends events as AppendEvent does, one by one
// (session.Writer).
func (tx *Tx) AppendEvents(ctx context.Context, evs ...*session.Event) error {
	for _, e := range evs {
		if err := tx.AppendEvent(ctx, e); err != nil {
			return err
		}
	}
	return nil
}

// ListEvidence returns a session's evidence in the order it was recorded.
func (r reader) ListEvidence(ctx context.Context, sessionID string) ([]session.Evidence, error) {
	return r.queryEvidence(ctx, sessionID, `SELECT `+evidenceCols+` FROM evidence WHERE session_id = $1 ORDER BY id`, sessionID)
}

// GateEvidence returns what a phase's gate reads (session.Reader): the
// evidence of the phase and content_hash evidence of any phase, in the
// order it was recorded; from the indexes evidence_phase and the partial
// evidence_content_hash (migration 0008), never the whole session.
func (r reader) GateEvidence(ctx context.Context, sessionID, phase string) ([]session.Evidence, error) {
	// Nothing recorded after the session's end counts for a gate, as in
	// the SQLite store (store/evidence.go endedBound).
	return r.queryEvidence(ctx, sessionID, `SELECT `+evidenceCols+` FROM evidence WHERE session_id = $1 AND phase = $2 AND created_at <= `+endedBound+`
		UNION ALL
		SELECT `+evidenceCols+` FROM evidence WHERE session_id = $1 AND kind = '`+session.EvidenceContentHash+`' AND phase <> $2 AND created_at <= `+endedBound+`
		ORDER BY id`, sessionID, phase)
}

// endedBound is the last time evidence of session $1 counts: its ended_at
// once it ended.
const endedBound = `(SELECT CASE WHEN ended_at > 0 THEN ended_at ELSE 9223372036854775807 END FROM sessions WHERE id = $1)`

// queryEvidence runs a query of evidenceCols.
func (r reader) queryEvidence(ctx context.Context, sessionID, query string, args ...any) ([]session.Evidence, error) {
	const what = "evidence of session "
	rows, err := r.q.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []session.Evidence
	for rows.Next() {
		var e session.Evidence
		var created, dur int64
		var null bool
		var exit *int32
		var kind, origin string
		if err := rows.Scan(&e.ID, &e.SessionID, &e.Phase, &e.Step, &kind, &e.SHA256, &e.Ref, &e.Size,
			&e.Body, &null, &created, &origin, &e.Requirement, &e.Source, &e.Command, &exit, &dur, &e.Change); err != nil {
			return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
		}
		e.Kind, e.Origin = kind, session.EvidenceOrigin(origin)
		if null {
			e.Body = nil
		} else if e.Body == nil {
			e.Body = []byte{} // an empty body was stored; nil means none was
		}
		e.CreatedAt = fromNanos(created)
		e.Duration = time.Duration(dur)
		if exit != nil {
			code := int(*exit)
			e.ExitCode = &code
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	return out, nil
}

// AddEvidence inserts e and sets its ID. Body is stored only when non-nil; a
// zero CreatedAt gets the transaction's time.
func (tx *Tx) AddEvidence(ctx context.Context, e *session.Evidence) error {
	if len(e.Body) > session.MaxEvidenceBytes {
		return fmt.Errorf("add evidence to session %s: body is %d bytes, limit %d", e.SessionID, len(e.Body), session.MaxEvidenceBytes)
	}
	e.CreatedAt = tx.stamp(e.CreatedAt)
	e.Ref, e.Command, e.Source = redact.Secrets(e.Ref), redact.Secrets(e.Command), redact.Secrets(e.Source)
	var body []byte // nil: NULL
	if e.Body != nil {
		e.Body = []byte(redact.Secrets(string(e.Body)))
		body = e.Body
	}
	if e.Origin == "" {
		e.Origin = session.OriginClaimed
	}
	var exit *int32 // nil: NULL, no exit code (claimed evidence)
	if e.ExitCode != nil {
		c := int32(*e.ExitCode)
		exit = &c
	}
	err := tx.q.QueryRow(ctx, `INSERT INTO evidence (session_id, phase, step, kind, sha256, ref, size, body, created_at,
		origin, requirement, source, command, exit_code, duration_ns, change)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id`,
		e.SessionID, e.Phase, e.Step, e.Kind, e.SHA256, e.Ref, e.Size, body, nanos(e.CreatedAt),
		string(e.Origin), e.Requirement, e.Source, e.Command, exit, int64(e.Duration), e.Change).Scan(&e.ID)
	if err != nil {
		return fmt.Errorf("add evidence to session %s: %w", e.SessionID, err)
	}
	return nil
}

// PhaseResults returns a session's phase results in the order their phases
// were first recorded.
func (r reader) PhaseResults(ctx context.Context, sessionID string) ([]session.PhaseResult, error) {
	const what = "phase results of session "
	rows, err := r.q.Query(ctx, `SELECT session_id, phase_id, status, level, message, decision,
		checks_json, started_at, ended_at, duration_ns FROM phase_results WHERE session_id = $1 ORDER BY ord`, sessionID)
	if err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []session.PhaseResult
	for rows.Next() {
		var p session.PhaseResult
		var checks *string
		var status, level string
		var started, ended, dur int64
		if err := rows.Scan(&p.SessionID, &p.PhaseID, &status, &level, &p.Message, &p.Decision,
			&checks, &started, &ended, &dur); err != nil {
			return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
		}
		p.Status, p.Level = session.PhaseStatus(status), session.GateLevel(level)
		if checks != nil {
			if err := json.Unmarshal([]byte(*checks), &p.Checks); err != nil {
				return nil, fmt.Errorf(what+"%s: phase %s: decode checks: %w", sessionID, p.PhaseID, err)
			}
		}
		p.StartedAt, p.EndedAt, p.Duration = fromNanos(started), fromNanos(ended), time.Duration(dur)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	return out, nil
}

// PutPhaseResult inserts or replaces the result of (SessionID, PhaseID). A
// replaced result keeps its place in PhaseResults' order.
func (tx *Tx) PutPhaseResult(ctx context.Context, p session.PhaseResult) error {
	return tx.putPhaseResult(ctx, p, "")
}

// PutPhaseResultUnlessSettled is PutPhaseResult when the stored result of
// (SessionID, PhaseID) is missing, PENDING or FAILED, and nothing otherwise:
// one statement, instead of reading the session's results first.
func (tx *Tx) PutPhaseResultUnlessSettled(ctx context.Context, p session.PhaseResult) error {
	return tx.putPhaseResult(ctx, p, unsettled)
}

// unsettled limits the upsert's update to a result not yet settled.
const unsettled = ` WHERE phase_results.status IN ('` + string(session.PhasePending) + `', '` + string(session.PhaseFailed) + `')`

func (tx *Tx) putPhaseResult(ctx context.Context, p session.PhaseResult, where string) error {
	var checks *string // NULL when there are none
	if len(p.Checks) > 0 {
		b, err := json.Marshal(p.Checks)
		if err != nil {
			return fmt.Errorf("put phase result %s/%s: encode checks: %w", p.SessionID, p.PhaseID, err)
		}
		s := string(b)
		checks = &s
	}
	_, err := tx.q.Exec(ctx, `INSERT INTO phase_results (session_id, phase_id, status, level,
		message, decision, checks_json, started_at, ended_at, duration_ns)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (session_id, phase_id) DO UPDATE SET status = excluded.status, level = excluded.level,
		message = excluded.message, decision = excluded.decision, checks_json = excluded.checks_json,
		started_at = excluded.started_at, ended_at = excluded.ended_at, duration_ns = excluded.duration_ns`+where,
		p.SessionID, p.PhaseID, string(p.Status), string(p.Level), p.Message, p.Decision, checks,
		nanos(p.StartedAt), nanos(p.EndedAt), int64(p.Duration))
	if err != nil {
		return fmt.Errorf("put phase result %s/%s: %w", p.SessionID, p.PhaseID, err)
	}
	return nil
}

// GetProtocol returns the stored protocol with the given content hash, or an
// error wrapping session.ErrNotFound.
func (r reader) GetProtocol(ctx context.Context, sha256 string) (*session.Protocol, error) {
	var p session.Protocol
	var created int64
	err := r.q.QueryRow(ctx, `SELECT sha256, name, content, spec_json, created_at
		FROM protocols WHERE sha256 = $1`, sha256).Scan(&p.SHA256, &p.Name, &p.Content, &p.SpecJSON, &created)
	if err != nil {
		return nil, notFound(err, "protocol "+sha256)
	}
	p.CreatedAt = fromNanos(created)
	return &p, nil
}

// PutProtocol stores p unless a protocol with its hash exists. A zero
// CreatedAt gets the transaction's time.
func (tx *Tx) PutProtocol(ctx context.Context, p *session.Protocol) error {
	p.CreatedAt = tx.stamp(p.CreatedAt)
	content := p.Content
	if content == nil {
		content = []byte{}
	}
	_, err := tx.q.Exec(ctx, `INSERT INTO protocols (sha256, name, content, spec_json, created_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (sha256) DO NOTHING`,
		p.SHA256, p.Name, content, p.SpecJSON, nanos(p.CreatedAt))
	if err != nil {
		return fmt.Errorf("put protocol %s: %w", p.SHA256, err)
	}
	return nil
}

// LatestSnapshotID returns the id of the session's newest snapshot, "" when
// it has none (session.Reader), without reading any payload.
func (r reader) LatestSnapshotID(ctx context.Context, sessionID string) (string, error) {
	var id string
	err := r.q.QueryRow(ctx, `SELECT snapshot_id FROM snapshots WHERE session_id = $1 ORDER BY seq DESC LIMIT 1`, sessionID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("latest snapshot of session %s: %w", sessionID, err)
	}
	return id, nil
}

// ListSnapshots returns a session's snapshots in Seq order.
func (r reader) ListSnapshots(ctx context.Context, sessionID string) ([]session.Snapshot, error) {
	const what = "snapshots of session "
	rows, err := r.q.Query(ctx, `SELECT session_id, seq, snapshot_id, payload, created_at
		FROM snapshots WHERE session_id = $1 ORDER BY seq`, sessionID)
	if err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []session.Snapshot
	for rows.Next() {
		var s session.Snapshot
		var created int64
		if err := rows.Scan(&s.SessionID, &s.Seq, &s.SnapshotID, &s.Payload, &created); err != nil {
			return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
		}
		s.CreatedAt = fromNanos(created)
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf(what+"%s: %w", sessionID, err)
	}
	return out, nil
}

// AddSnapshot inserts s with Seq = the session's highest snapshot Seq + 1
// and sets s.Seq. A zero CreatedAt gets the transaction's time.
func (tx *Tx) AddSnapshot(ctx context.Context, s *session.Snapshot) error {
	s.CreatedAt = tx.stamp(s.CreatedAt)
	payload := s.Payload
	if payload == nil {
		payload = []byte{}
	}
	err := tx.q.QueryRow(ctx, `INSERT INTO snapshots (session_id, seq, snapshot_id, payload, created_at)
		SELECT $1, coalesce(max(seq), 0) + 1, $2, $3, $4 FROM snapshots WHERE session_id = $1
		RETURNING seq`, s.SessionID, s.SnapshotID, payload, nanos(s.CreatedAt)).Scan(&s.Seq)
	if err != nil {
		return fmt.Errorf("add snapshot %s to session %s: %w", s.SnapshotID, s.SessionID, err)
	}
	return nil
}

// TrustedFiles returns every accepted content of a repository's protected
// files, oldest first.
func (r reader) TrustedFiles(ctx context.Context, repoID int64) ([]session.TrustedFile, error) {
	const what = "trusted files of repository"
	rows, err := r.q.Query(ctx, `SELECT id, repo_id, path, sha256, source, who, reason, via, session_id, created_at
		FROM trusted_files WHERE repo_id = $1 ORDER BY id`, repoID)
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

// AddTrustedFile records one accepted content and sets f.ID.
func (tx *Tx) AddTrustedFile(ctx context.Context, f *session.TrustedFile) error {
	f.CreatedAt = tx.stamp(f.CreatedAt)
	f.Reason = redact.Secrets(f.Reason)
	err := tx.q.QueryRow(ctx, `INSERT INTO trusted_files (repo_id, path, sha256, source, who, reason, via, session_id, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
		f.RepoID, f.Path, f.SHA256, f.Source, f.Who, f.Reason, f.Via, f.SessionID, nanos(f.CreatedAt)).Scan(&f.ID)
	if err != nil {
		return fmt.Errorf("add trusted file %s: %w", f.Path, err)
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
	rows, err := r.q.Query(ctx, `SELECT ref, session_id FROM evidence WHERE session_id <> $1 AND `+commitEvidence+` AND ref = ANY($2) ORDER BY id`, sessionID, shas)
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

// commitEvidence names observed commit evidence with its values written
// out, so the planner can use the partial index evidence_commits (0007).
const commitEvidence = `kind IN ('` + session.EvidenceCommitSHA + `', '` + session.EvidenceBypassCommit + `') AND origin = '` + string(session.OriginObserved) + `'`

// RecordedCommits returns the commits the session recorded as observed
// commit evidence (session.Reader): all of them, or which of shas.
func (r reader) RecordedCommits(ctx context.Context, sessionID string, shas ...string) (map[string]bool, error) {
	query := `SELECT ref FROM evidence WHERE session_id = $1 AND ` + commitEvidence
	args := []any{sessionID}
	if len(shas) > 0 {
		query += ` AND ref = ANY($2)`
		args = append(args, shas)
	}
	rows, err := r.q.Query(ctx, query, args...)
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

// callTokens is the condition of the partial index events_calls (migration
// 0013), as SQLite's.
const callTokens = `token IN ('agent:claude:judged', 'agent:codex:judged', 'agent:gemini:judged', 'agent:cursor:judged', 'agent:copilot:judged', 'agent:result', 'agent:unreported')`

// openCallEventsSQL is SQLite's openCallEventsSQL (store/events.go): $1 the
// session, $2 the judged token, $3 the agent; the open calls from their
// kept counts (open_calls, migration 0014); detail compared in the "C"
// collation, as events_calls holds it (bytes, not a locale's order).
const openCallEventsSQL = `WITH open(id, k) AS (
	SELECT id, n FROM open_calls WHERE session_id = $1 AND token = $2 AND n > 0
)` + openCallsOfOpenSQL

// walkOpenCallEventsSQL is SQLite's walkOpenCallEventsSQL: the open calls
// from the events themselves, not the counts open_calls keeps (a gate's
// read).
const walkOpenCallEventsSQL = `WITH calls(id, n) AS (
	SELECT split_part(detail, ' ', 1), count(*) FROM events
	WHERE session_id = $1 AND ` + callTokens + ` AND token = $2 AND position(' ' in detail) > 1
	GROUP BY 1
), open(id, k) AS (
	SELECT id, k FROM (SELECT id, n - (
		SELECT count(*) FROM events r WHERE r.session_id = $1 AND r.` + callTokens + ` AND r.token = 'agent:result' AND r.detail COLLATE "C" = $3 || ' ' || calls.id) - (
		SELECT count(*) FROM events r WHERE r.session_id = $1 AND r.` + callTokens + ` AND r.token = 'agent:unreported' AND r.detail COLLATE "C" = $3 || ' ' || calls.id || ' missing') AS k
		FROM calls) c WHERE k > 0
)` + openCallsOfOpenSQL

// openCallsOfOpenSQL is the rest of both: given the open calls (id, k),
// each one's newest k judgments and its other settlements, in order.
const openCallsOfOpenSQL = `, judged AS (
	SELECT e.session_id, e.seq, e.token, e.detail, e.created_at, row_number() OVER (PARTITION BY open.id ORDER BY e.seq DESC) AS rn, open.k
	FROM open JOIN events e
		ON e.session_id = $1 AND e.` + callTokens + ` AND e.token = $2 AND e.detail COLLATE "C" > open.id || ' ' AND e.detail COLLATE "C" < open.id || '!'
)
SELECT session_id, seq, token, detail, created_at FROM judged WHERE rn <= k
UNION ALL
SELECT e.session_id, e.seq, e.token, e.detail, e.created_at FROM open JOIN events e
	ON e.session_id = $1 AND e.` + callTokens + ` AND e.token = 'agent:unreported' AND e.detail COLLATE "C" > $3 || ' ' || open.id || ' ' AND e.detail COLLATE "C" < $3 || ' ' || open.id || '!'
	AND e.detail <> $3 || ' ' || open.id || ' missing'
ORDER BY 2`

// OpenCallEvents returns the events of agent's calls still open, in order
// (session.Store).
func (r reader) OpenCallEvents(ctx context.Context, sessionID, judged, agent string) ([]session.Event, error) {
	return r.queryEvents(ctx, sessionID, openCallEventsSQL, sessionID, judged, agent)
}

// WalkOpenCallEvents is OpenCallEvents from the events alone (session.Store).
func (r reader) WalkOpenCallEvents(ctx context.Context, sessionID, judged, agent string) ([]session.Event, error) {
	return r.queryEvents(ctx, sessionID, walkOpenCallEventsSQL, sessionID, judged, agent)
}

// hasJudgedCallSQL is SQLite's: the prefix's range of events_calls in its
// "C" order, the tool the detail's second word.
const hasJudgedCallSQL = `SELECT EXISTS (SELECT 1 FROM events WHERE session_id = $1 AND ` + callTokens + ` AND token = $2
	AND detail COLLATE "C" >= $3 AND detail COLLATE "C" < $4 AND left(detail, length($3)) = $3
	AND substr(detail, position(' ' in detail) + 1, length($5) + 1) IN ($5 || ' ', $5))`

// HasJudgedCall reports whether the session holds a judged call of tool
// whose id starts with idPrefix (session.Reader).
func (r reader) HasJudgedCall(ctx context.Context, sessionID, judged, idPrefix, tool string) (bool, error) {
	var ok bool
	if err := r.q.QueryRow(ctx, hasJudgedCallSQL, sessionID, judged, idPrefix, prefixEnd(idPrefix), tool).Scan(&ok); err != nil {
		return false, fmt.Errorf("judged calls of %s in session %s: %w", tool, sessionID, err)
	}
	return ok, nil
}

// prefixEnd is the least string above every string that starts with p, for
// an index range (its last ASCII byte incremented; the callers' prefixes
// end in one). Without one, a bound above any text: the query's own prefix
// test keeps the range exact.
func prefixEnd(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] < 0x7f {
			return p[:i] + string(p[i]+1)
		}
	}
	return "\U0010FFFF"
}

// CLIVanishedCalls returns, for a page of sessions in one statement, the
// settlements of the calls their agent CLIs were running when they
// vanished (session.SettledCLIVanished), by session and in order.
func (r reader) CLIVanishedCalls(ctx context.Context, ids []string) ([]session.Event, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return r.queryEvents(ctx, "page", `SELECT session_id, seq, token, detail, created_at FROM events
		WHERE session_id = ANY($1) AND token = 'agent:unreported' AND right(detail, $2) = $3 ORDER BY session_id, seq`,
		ids, len(session.SettledCLIVanished)+1, " "+session.SettledCLIVanished)
}
