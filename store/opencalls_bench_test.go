package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// seedCalls fills one session of db with n events shaped as a long agent
// session: calls of four events each (the call, its judgment, a tool
// record, its report), then three calls of which two stay open (one never
// reported, one settled by a prompt) and one was named missing.
func seedCalls(tb testing.TB, db *DB, n int) string {
	tb.Helper()
	ctx := context.Background()
	s := newSession(tb, db, "/r")
	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Rollback()
	ins, err := tx.Prepare(`INSERT INTO events (session_id, seq, token, detail, created_at) VALUES (?, ?, ?, ?, 0)`)
	if err != nil {
		tb.Fatal(err)
	}
	seq := int64(1000) // after the session's own events
	add := func(token, detail string) {
		seq++
		if _, err := ins.Exec(s.ID, seq, token, detail); err != nil {
			tb.Fatal(err)
		}
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
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
	return s.ID
}

// openCallEventsProbeSQL is OpenCallEvents before the counts (round 24):
// every judged id grouped, then two searches of its reports. It is the
// walk a gate still reads (walkOpenCallEventsSQL), named here for the
// comparisons.
const openCallEventsProbeSQL = walkOpenCallEventsSQL

// openCallEventsWalkSQL is openCallEventsSQL with the reports and
// missing-settlements counted by one grouped walk of their index range
// ("<agent> ..."), joined to the calls, instead of two index probes per
// judged id (BenchmarkOpenCallEvents compares them). A report's id is
// what follows "<agent> "; a missing-settlement's is that without its
// trailing " missing"; an id with a space matches no call (calls' ids end
// at their first space), as the probe's equality matched none.
const openCallEventsWalkSQL = `WITH calls(id, n) AS (
	SELECT substr(detail, 1, instr(detail, ' ') - 1), count(*) FROM events
	WHERE session_id = ?1 AND ` + callTokens + ` AND token = ?2 AND instr(detail, ' ') > 1
	GROUP BY 1
), done(id, d) AS MATERIALIZED (
	SELECT CASE token WHEN 'agent:result' THEN substr(detail, length(?3) + 2)
		ELSE substr(detail, length(?3) + 2, length(detail) - length(?3) - 9) END, count(*) FROM events
	WHERE session_id = ?1 AND ` + callTokens + ` AND token IN ('agent:result', 'agent:unreported') AND detail > ?3 || ' ' AND detail < ?3 || '!'
		AND (token = 'agent:result' OR substr(detail, -8) = ' missing')
	GROUP BY 1
), open(id, k) AS MATERIALIZED (
	SELECT calls.id, calls.n - coalesce(done.d, 0) FROM calls LEFT JOIN done ON done.id = calls.id
	WHERE calls.n - coalesce(done.d, 0) > 0
), judged AS (
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

// BenchmarkOpenCallEvents compares three ways of finding the calls still
// open on one session of 1,000, 100,000 and 1,000,000 events: "probe"
// (round 24: every judged id grouped, then two searches of its reports),
// "walk" (the reports' index range read once, grouped by id, joined to the
// calls) and "counted" (OpenCallEvents now: the counts kept by open_calls'
// triggers). They alternate iteration by iteration (the machine's load
// moves all alike); each reports its ns per read and its ratio to the
// probe. All answer the same three rows.
//
//	go test ./store -run '^$' -bench OpenCallEvents -benchtime 10x
func BenchmarkOpenCallEvents(b *testing.B) {
	ctx := context.Background()
	queries := []struct{ name, sql string }{{"probe", openCallEventsProbeSQL}, {"walk", openCallEventsWalkSQL}, {"counted", openCallEventsSQL}}
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		db := openTest(b)
		sid := seedCalls(b, db, n)
		read := func(q string) ([]session.Event, time.Duration) {
			t0 := time.Now()
			got, err := db.reader.queryEvents(ctx, sid, q, sid, session.TokenJudgedInput, "claude")
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
