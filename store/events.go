package store

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/redact"
	"github.com/sessiongate/sessiongate/session"
)

// queryEvents runs a constant query through the statement cache.
func (r reader) queryEvents(ctx context.Context, sessionID, query string, args ...any) ([]session.Event, error) {
	rows, err := r.query(ctx, query, args...)
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

const (
	eventCols      = `session_id, seq, token, detail, created_at`
	eventsAfterSQL = `SELECT ` + eventCols + ` FROM events WHERE session_id = +? AND seq > +? ORDER BY seq LIMIT +?`
	lastEventsSQL  = `SELECT ` + eventCols + ` FROM events WHERE session_id = +? ORDER BY seq DESC LIMIT +?`
)

// lastEventsWithSQL is lastEventsSQL keeping the events that carry one of
// n tokens, oldest first.
func lastEventsWithSQL(n int) string {
	return `SELECT ` + eventCols + ` FROM (` + lastEventsSQL + `) WHERE token IN (` + plusPlaceholders(n) + `) ORDER BY seq`
}

// ListEvents returns the session's events with Seq > afterSeq in order, at
// most limit of them (all when limit is 0 or less).
func (r reader) ListEvents(ctx context.Context, sessionID string, afterSeq int64, limit int) ([]session.Event, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	return r.queryEvents(ctx, sessionID, eventsAfterSQL, sessionID, afterSeq, limit)
}

// LastEvents returns the session's last n events, oldest first; with
// tokens, only those of the n that carry one of them (the rest are left in
// SQLite, not sent through the driver).
func (r reader) LastEvents(ctx context.Context, sessionID string, n int, tokens ...string) ([]session.Event, error) {
	if n <= 0 {
		return nil, nil
	}
	if len(tokens) > 0 {
		args := []any{sessionID, n}
		for _, t := range tokens {
			args = append(args, t)
		}
		return r.queryEvents(ctx, sessionID, lastEventsWithSQL(len(tokens)), args...)
	}
	evs, err := r.queryEvents(ctx, sessionID, lastEventsSQL, sessionID, n)
	slices.Reverse(evs)
	return evs, err
}

// eventsWithSQL selects the session's events that carry one of n tokens,
// oldest first: one search of the primary key, in its order, no sort.
func eventsWithSQL(n int) string {
	return `SELECT ` + eventCols + ` FROM events WHERE session_id = +? AND token IN (` + plusPlaceholders(n) + `) ORDER BY seq`
}

// EventsWith returns the session's events that carry one of tokens, in
// order; none without tokens. The rest stay in SQLite, not sent through
// the driver.
func (r reader) EventsWith(ctx context.Context, sessionID string, tokens ...string) ([]session.Event, error) {
	if len(tokens) == 0 {
		return nil, nil
	}
	args := make([]any, 0, 1+len(tokens))
	args = append(args, sessionID)
	for _, t := range tokens {
		args = append(args, t)
	}
	return r.queryEvents(ctx, sessionID, eventsWithSQL(len(tokens)), args...)
}

// eventsWithPrefixSQL is eventsWithSQL keeping the details that start
// with a prefix (the last two arguments, compared byte for byte: no LIKE
// wildcards, no case folding).
func eventsWithPrefixSQL(n int) string {
	return `SELECT ` + eventCols + ` FROM events WHERE session_id = +? AND token IN (` + plusPlaceholders(n) + `) AND substr(detail, 1, length(?)) = ? ORDER BY seq`
}

// EventsWithPrefix returns the session's events that carry one of tokens
// and whose detail starts with prefix, in order; only those go through
// the driver.
func (r reader) EventsWithPrefix(ctx context.Context, sessionID, prefix string, tokens ...string) ([]session.Event, error) {
	if len(tokens) == 0 {
		return nil, nil
	}
	args := make([]any, 0, 3+len(tokens))
	args = append(args, sessionID)
	for _, t := range tokens {
		args = append(args, t)
	}
	args = append(args, prefix, prefix)
	return r.queryEvents(ctx, sessionID, eventsWithPrefixSQL(len(tokens)), args...)
}

// AppendEvent inserts e with Seq = the session's highest Seq + 1 and sets
// e.Seq. The transaction holds the write lock (BEGIN IMMEDIATE), so no other
// writer can take the same Seq. A zero CreatedAt gets the transaction's time.
//
// Two plain statements rather than INSERT ... SELECT max(seq) ... RETURNING:
// that form makes SQLite build two temporary tables per event (one because
// it reads the table it inserts into, one for RETURNING), a third of its
// cost, and every tool call appends events.
func (tx *Tx) AppendEvent(ctx context.Context, e *session.Event) error {
	e.CreatedAt = tx.stamp(e.CreatedAt)
	e.Detail = redact.Secrets(e.Detail)
	// One statement finds the next seq and inserts: the transaction holds
	// the write lock, so nothing runs between the two.
	var seq int64
	if err := tx.queryRow(ctx, `INSERT INTO events (session_id, seq, token, detail, created_at)
		SELECT ?1, coalesce(max(seq), 0) + 1, ?2, ?3, ?4 FROM events WHERE session_id = ?1 RETURNING seq`,
		e.SessionID, e.Token, e.Detail, nanos(e.CreatedAt)).Scan(&seq); err != nil {
		return fmt.Errorf("append event %q to session %s: %w", e.Token, e.SessionID, err)
	}
	e.Seq = seq
	return nil
}

// maxEventsPerInsert bounds AppendEvents' statement: its bound variables,
// and the number of statement texts prepared.
const maxEventsPerInsert = 32

// AppendEvents appends events as AppendEvent does one by one (session.Writer),
// with one max(seq) read and one INSERT for a run of one session's events:
// a tool call records two or three, and each statement is a trip through
// the driver.
func (tx *Tx) AppendEvents(ctx context.Context, evs ...*session.Event) error {
	if len(evs) == 0 {
		return nil
	}
	if len(evs) > maxEventsPerInsert {
		if err := tx.AppendEvents(ctx, evs[:maxEventsPerInsert]...); err != nil {
			return err
		}
		return tx.AppendEvents(ctx, evs[maxEventsPerInsert:]...)
	}
	id := evs[0].SessionID
	for _, e := range evs[1:] {
		if e.SessionID != id { // several sessions: one by one
			for _, e := range evs {
				if err := tx.AppendEvent(ctx, e); err != nil {
					return err
				}
			}
			return nil
		}
	}
	// One statement: the next seq is read by the insert itself (the CTE is
	// computed once, before any row goes in: SQLite materializes a SELECT
	// that reads the table it inserts into), so a gate call's write is one
	// statement shorter. The text depends only on the count: prepared once.
	args := make([]any, 0, 1+4*len(evs))
	args = append(args, id)
	var q strings.Builder
	q.WriteString(`WITH n(s) AS MATERIALIZED (SELECT coalesce(max(seq), 0) FROM events WHERE session_id = ?)
	INSERT INTO events (session_id, seq, token, detail, created_at) `)
	for i, e := range evs {
		e.CreatedAt = tx.stamp(e.CreatedAt)
		e.Detail = redact.Secrets(e.Detail)
		args = append(args, id, e.Token, e.Detail, nanos(e.CreatedAt))
		if i > 0 {
			q.WriteString(" UNION ALL ")
		}
		fmt.Fprintf(&q, "SELECT ?, s+%d, ?, ?, ? FROM n", i+1)
	}
	q.WriteString(" RETURNING seq")
	rows, err := tx.query(ctx, q.String(), args...)
	if err != nil {
		return fmt.Errorf("append %d events to session %s: %w", len(evs), id, err)
	}
	defer rows.Close()
	var seq int64 // the first row's: the others follow it
	for first := true; rows.Next(); first = false {
		var n int64
		if err := rows.Scan(&n); err != nil {
			return fmt.Errorf("append %d events to session %s: %w", len(evs), id, err)
		}
		if first || n < seq {
			seq = n
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("append %d events to session %s: %w", len(evs), id, err)
	}
	seq-- // the first inserted row is seq+1
	for i, e := range evs {
		e.Seq = seq + int64(i) + 1
	}
	return nil
}

// callTokens is the condition of the partial index events_calls (migration
// 0019), written as the queries' literal: SQLite uses a partial index only
// for a query whose WHERE holds its condition term for term. It names every
// token session.CallTokens lists (TestCallTokensMatchSession).
const callTokens = `token IN ('agent:claude:judged', 'agent:codex:judged', 'agent:gemini:judged', 'agent:cursor:judged', 'agent:copilot:judged', 'agent:result', 'agent:unreported')`

// openCallEventsSQL selects what decides the calls still open (?1 the
// session, ?2 the judged token, ?3 the agent): for each id judged more
// times (n) than it has a report ("<agent> <id>") or a missing-settlement
// ("<agent> <id> missing") (d), its newest n-d judgments (reports pair
// with the oldest: session pendingCalls) and its other settlements
// ("<agent> <id> interrupted"), in order. n-d is kept per call as the
// events are written (open_calls, migration 0020), so the open calls are
// one search of open_calls' key: a session's closed calls are neither
// walked nor sent (the walk over every judged call and its reports it
// replaced grew with the session: BenchmarkOpenCallEvents). A detail's id
// is its first word: ids hold no space (session KeepJudgedInput,
// RecordToolResult), and "id " to "id!" is exactly the details that start
// with "id ". CROSS JOIN keeps the open calls outside (SQLite's planner
// does not reorder it): left to the planner, it walked the session's
// every event by the primary key.
const openCallEventsSQL = `WITH open(id, k) AS MATERIALIZED (
	SELECT id, n FROM open_calls WHERE session_id = ?1 AND token = ?2 AND n > 0
)` + openCallsOfOpenSQL

// walkOpenCallEventsSQL is openCallEventsSQL with the open calls computed
// from the events themselves, not their kept counts: per judged id, its
// judgments less its reports and missing-settlements (the grouped walk
// open_calls replaced on the hook path). A gate reads this: open_calls is
// kept beside the events, unsealed, so a lazy agent with the sqlite3 CLI
// can delete its rows without writing an event
// (session.TestOpenCallsTamperedStillMissingAtGate).
const walkOpenCallEventsSQL = `WITH calls(id, n) AS (
	SELECT substr(detail, 1, instr(detail, ' ') - 1), count(*) FROM events
	WHERE session_id = ?1 AND ` + callTokens + ` AND token = ?2 AND instr(detail, ' ') > 1
	GROUP BY 1
), open(id, k) AS MATERIALIZED (
	SELECT id, k FROM (SELECT id, n - (
		SELECT count(*) FROM events r WHERE r.session_id = ?1 AND r.` + callTokens + ` AND r.token = 'agent:result' AND r.detail = ?3 || ' ' || calls.id) - (
		SELECT count(*) FROM events r WHERE r.session_id = ?1 AND r.` + callTokens + ` AND r.token = 'agent:unreported' AND r.detail = ?3 || ' ' || calls.id || ' missing') AS k
		FROM calls) WHERE k > 0
)` + openCallsOfOpenSQL

// openCallsOfOpenSQL is the rest of both: given the open calls (id, k),
// each one's newest k judgments and its other settlements, in order.
const openCallsOfOpenSQL = `, judged AS (
	SELECT e.session_id, e.seq, e.token, e.detail, e.created_at, row_number() OVER (PARTITION BY open.id ORDER BY e.seq DESC) AS rn, open.k
	FROM open CROSS JOIN events e
		ON e.session_id = ?1 AND e.` + callTokens + ` AND e.token = ?2 AND e.detail > open.id || ' ' AND e.detail < open.id || '!'
)
SELECT session_id, seq, token, detail, created_at FROM judged WHERE rn <= k
UNION ALL
SELECT e.session_id, e.seq, e.token, e.detail, e.created_at FROM open CROSS JOIN events e
	ON e.session_id = ?1 AND e.` + callTokens + ` AND e.token = 'agent:unreported' AND e.detail > ?3 || ' ' || open.id || ' ' AND e.detail < ?3 || ' ' || open.id || '!'
	AND e.detail <> ?3 || ' ' || open.id || ' missing'
ORDER BY 2`

// OpenCallEvents returns, in order, the judged calls (token judged) of
// agent that have fewer reports and missing-settlements than judgments,
// with those calls' reports and settlements: what a prompt or a Stop
// decides on, whatever the session's length.
func (r reader) OpenCallEvents(ctx context.Context, sessionID, judged, agent string) ([]session.Event, error) {
	return r.queryEvents(ctx, sessionID, openCallEventsSQL, sessionID, judged, agent)
}

// WalkOpenCallEvents is OpenCallEvents from the events alone (session.Store).
func (r reader) WalkOpenCallEvents(ctx context.Context, sessionID, judged, agent string) ([]session.Event, error) {
	return r.queryEvents(ctx, sessionID, walkOpenCallEventsSQL, sessionID, judged, agent)
}

// hasJudgedCallSQL is HasJudgedCall's search (?1 the session, ?2 the judged
// token, ?3 the id prefix, ?4 the prefix's successor, ?5 the tool): the
// prefix's range of events_calls, the tool the detail's second word.
const hasJudgedCallSQL = `SELECT EXISTS (SELECT 1 FROM events WHERE session_id = ?1 AND ` + callTokens + ` AND token = ?2
	AND detail >= ?3 AND detail < ?4 AND substr(detail, 1, length(?3)) = ?3
	AND substr(detail, instr(detail, ' ') + 1, length(?5) + 1) IN (?5 || ' ', ?5))`

// HasJudgedCall reports whether the session holds a judged call of tool
// whose id starts with idPrefix (session.Reader).
func (r reader) HasJudgedCall(ctx context.Context, sessionID, judged, idPrefix, tool string) (bool, error) {
	var ok bool
	if err := r.queryRow(ctx, hasJudgedCallSQL, sessionID, judged, idPrefix, prefixEnd(idPrefix), tool).Scan(&ok); err != nil {
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

// cliVanishedCallsSQL selects the settlements of calls an agent CLI was
// running when it vanished (session.SettledCLIVanished) of n sessions:
// one range of events_calls per session, the rest of their events unread
// (left to itself, the planner walked each session's every event by the
// primary key, for its order).
func cliVanishedCallsSQL(n int) string {
	return `SELECT ` + eventCols + ` FROM events INDEXED BY events_calls WHERE session_id IN (` + plusPlaceholders(n) + `) AND ` + callTokens +
		` AND token = 'agent:unreported' AND substr(detail, -length(' ` + session.SettledCLIVanished + `')) = ' ` + session.SettledCLIVanished + `' ORDER BY session_id, seq`
}

// CLIVanishedCalls returns, for a page of sessions in one statement, the
// settlements of the calls their agent CLIs were running when they
// vanished (killed, crashed), by session and in order: what the
// dashboard's session list shows (round 30, c11).
func (r reader) CLIVanishedCalls(ctx context.Context, ids []string) ([]session.Event, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return r.queryEvents(ctx, "page", cliVanishedCallsSQL(len(ids)), args...)
}
