package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sessiongate/sessiongate/session"
)

// TestOpenCallEventsPlan: a prompt's and a Stop's read of the calls still
// open (OpenCallEvents) reads events through events_calls (migration 0013)
// and, for the rows it returns, the primary key by (session, seq): never
// a sequential scan of events, never a session's every event, on a
// database with statistics of a long session (3,000 reported calls and
// 6,000 other events) among 2,000 others (EXPLAIN (FORMAT JSON) after
// VACUUM ANALYZE). The returned rows are one open call's.
func TestOpenCallEventsPlan(t *testing.T) {
	ctx := context.Background()
	u := newURL(t)
	db := openURL(t, u)
	seedSkewed(t, ctx, u, 2000, time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC))
	const sid = "s0001999" // running, as a session whose hooks ask
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var rows [][]any
	seq := int64(2)
	add := func(token, detail string) {
		seq++
		rows = append(rows, []any{sid, seq, token, detail, int64(0)})
	}
	for i := range 3000 {
		id := fmt.Sprintf("toolu_%05d", i)
		add("agent:claude:call", id+" Bash d")
		add(session.TokenJudgedInput, id+" Bash d")
		add("tool:Bash", "x")
		if i%10 == 0 { // interrupted by a prompt, reported later
			add(session.TokenToolUnreported, "claude "+id+" interrupted")
		}
		add(session.TokenToolResult, "claude "+id)
	}
	add(session.TokenJudgedInput, "toolu_open Bash d")
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"events"}, []string{"session_id", "seq", "token", "detail", "created_at"}, pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "VACUUM ANALYZE events"); err != nil {
		t.Fatal(err)
	}
	got, err := db.OpenCallEvents(ctx, sid, session.TokenJudgedInput, "claude")
	if err != nil || len(got) != 1 || got[0].Detail != "toolu_open Bash d" {
		t.Fatalf("OpenCallEvents = %v, %v; want the open call alone", got, err)
	}
	for _, q := range []struct {
		name, sql string
		args      []any
	}{
		{"OpenCallEvents", openCallEventsSQL, []any{sid, session.TokenJudgedInput, "claude"}},
		// Copilot's post, when no open call of its tool matches.
		{"HasJudgedCall", hasJudgedCallSQL, []any{sid, session.TokenJudgedInput, "toolu_01", prefixEnd("toolu_01"), "Bash"}},
	} {
		explainReadsCalls(t, conn, q.name, q.sql, q.args...)
	}
}

// explainReadsCalls fails t unless the plan of query reads events only
// through events_calls or one row's primary key.
func explainReadsCalls(t *testing.T, conn *pgx.Conn, name, query string, args ...any) {
	t.Helper()
	ctx := context.Background()
	var out []byte
	if err := conn.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+query, args...).Scan(&out); err != nil {
		t.Fatal(err)
	}
	type node struct {
		NodeType  string `json:"Node Type"`
		Relation  string `json:"Relation Name"`
		IndexName string `json:"Index Name"`
		IndexCond string `json:"Index Cond"`
		Plans     []node `json:"Plans"`
	}
	var plans []struct{ Plan node }
	if err := json.Unmarshal(out, &plans); err != nil || len(plans) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	var steps []string
	var walk func(n node)
	walk = func(n node) {
		steps = append(steps, strings.TrimSpace(n.NodeType+" "+n.Relation+" "+n.IndexName+" "+n.IndexCond))
		for _, c := range n.Plans {
			walk(c)
		}
	}
	walk(plans[0].Plan)
	plan := strings.Join(steps, "; ")
	t.Logf("%s: %s", name, plan)
	reads := 0
	var check func(n node)
	check = func(n node) {
		if n.Relation == "events" {
			reads++
			switch {
			// A bitmap of a call's range of details on events_calls.
			case n.NodeType == "Bitmap Heap Scan" && len(n.Plans) > 0 && !slices.ContainsFunc(n.Plans, func(c node) bool {
				return c.NodeType != "Bitmap Index Scan" || c.IndexName != "events_calls" || !strings.Contains(c.IndexCond, "detail")
			}):
			// A call's range of details, never a session's every judged
			// call (the round 24 probe walked them all on this index).
			case n.IndexName == "events_calls" && strings.Contains(n.IndexCond, "detail"):
			case n.IndexName == "events_pkey" && strings.Contains(n.IndexCond, "seq ="):
			default:
				t.Errorf("%s: events read by %s %s (%s), want events_calls or one row's key; plan %s", name, n.NodeType, n.IndexName, n.IndexCond, plan)
			}
		}
		for _, c := range n.Plans {
			check(c)
		}
	}
	check(plans[0].Plan)
	if reads == 0 {
		t.Errorf("%s: no read of events in the plan %s", name, plan)
	}
}
