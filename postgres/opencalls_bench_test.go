package postgres

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sessiongate/sessiongate/session"
)

// seedCalls fills one session of a fresh database with n events shaped as
// a long agent session, as the SQLite store's benchmark does: calls of four
// events each (the call, its judgment, a tool record, its report), then
// three calls of which two stay open (one never reported, one settled by a
// prompt) and one was named missing. It returns the database and the
// session; statistics are taken (VACUUM ANALYZE), as autovacuum would.
func seedCalls(tb testing.TB, n int) (*DB, string, string) {
	tb.Helper()
	ctx := context.Background()
	u := newURL(tb)
	db := openURL(tb, u)
	var s *session.Session
	if err := db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		s = &session.Session{RepoID: repo.ID, Worktree: "/r", Branch: "main", State: session.StateWorking}
		return w.CreateSession(ctx, s)
	}); err != nil {
		tb.Fatal(err)
	}
	var rows [][]any
	seq := int64(1000)
	add := func(token, detail string) {
		seq++
		rows = append(rows, []any{s.ID, seq, token, detail, int64(0)})
	}
	for i := range (n - 6) / 4 {
		id := fmt.Sprintf("toolu_%07d", i)
		add(session.TokenAgentCall, id+" Bash d")
		add(session.TokenJudgedInput, id+" Bash d")
		add("tool:Bash", "x")
		add(session.TokenToolResult, "claude "+id)
	}
	add(session.TokenJudgedInput, "toolu_open Bash d")
	add(session.TokenJudgedInput, "toolu_int Bash d")
	add(session.TokenToolUnreported, "claude toolu_int interrupted")
	add(session.TokenJudgedInput, "toolu_miss Bash d")
	add(session.TokenToolUnreported, "claude toolu_miss missing")
	add(session.TokenToolResult, "claude toolu_miss x") // no call's report
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"events"}, []string{"session_id", "seq", "token", "detail", "created_at"}, pgx.CopyFromRows(rows)); err != nil {
		tb.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "VACUUM ANALYZE events"); err != nil {
		tb.Fatal(err)
	}
	return db, s.ID, u
}

// openCallEventsProbeSQL is OpenCallEvents before the counts (round 24):
// every judged id grouped, then two searches of its reports. It is the
// walk a gate still reads (walkOpenCallEventsSQL), named here for the
// comparisons.
const openCallEventsProbeSQL = walkOpenCallEventsSQL

// openCallEventsWalkSQL is SQLite's openCallEventsWalkSQL: the reports and
// missing-settlements counted by one grouped walk of their range of
// events_calls, joined to the calls, instead of two probes per judged id.
const openCallEventsWalkSQL = `WITH calls(id, n) AS (
	SELECT split_part(detail, ' ', 1), count(*) FROM events
	WHERE session_id = $1 AND ` + callTokens + ` AND token = $2 AND position(' ' in detail) > 1
	GROUP BY 1
), done(id, d) AS (
	SELECT CASE token WHEN 'agent:result' THEN substr(detail, length($3) + 2)
		ELSE substr(detail, length($3) + 2, length(detail) - length($3) - 9) END, count(*) FROM events
	WHERE session_id = $1 AND ` + callTokens + ` AND token IN ('agent:result', 'agent:unreported')
		AND detail COLLATE "C" > $3 || ' ' AND detail COLLATE "C" < $3 || '!'
		AND (token = 'agent:result' OR right(detail, 8) = ' missing')
	GROUP BY 1
), open(id, k) AS (
	SELECT calls.id, calls.n - coalesce(done.d, 0) FROM calls LEFT JOIN done ON done.id = calls.id
	WHERE calls.n - coalesce(done.d, 0) > 0
), judged AS (
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

// BenchmarkOpenCallEvents is the SQLite store's BenchmarkOpenCallEvents
// on PostgreSQL: "probe" (round 24), "walk" (the reports' range read once,
// grouped) and "counted" (OpenCallEvents now, from open_calls), alternated
// iteration by iteration on one session of 1,000, 100,000 and 1,000,000
// events.
//
//	go test ./postgres -run '^$' -bench OpenCallEvents -benchtime 10x
func BenchmarkOpenCallEvents(b *testing.B) {
	ctx := context.Background()
	queries := []struct{ name, sql string }{{"probe", openCallEventsProbeSQL}, {"walk", openCallEventsWalkSQL}, {"counted", openCallEventsSQL}}
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		db, sid, _ := seedCalls(b, n)
		read := func(q string) ([]session.Event, time.Duration) {
			t0 := time.Now()
			got, err := db.queryEvents(ctx, sid, q, sid, session.TokenJudgedInput, "claude")
			if err != nil || len(got) != 3 {
				b.Fatalf("at %d events: %v, %v; want the two open calls and a settlement", n, got, err)
			}
			return got, time.Since(t0)
		}
		p, _ := read(openCallEventsProbeSQL)
		for _, q := range queries[1:] {
			if got, _ := read(q.sql); !reflect.DeepEqual(got, p) {
				b.Fatalf("at %d events: %s %v, probe %v", n, q.name, got, p)
			}
		}
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			sum := make([]time.Duration, len(queries))
			for b.Loop() {
				for i, q := range queries {
					_, d := read(q.sql)
					sum[i] += d
				}
			}
			for i, q := range queries {
				b.ReportMetric(float64(sum[i].Nanoseconds())/float64(b.N), q.name+"-ns/read")
				if i > 0 {
					b.ReportMetric(float64(sum[i])/float64(sum[0]), q.name+"/probe")
				}
			}
		})
	}
}
