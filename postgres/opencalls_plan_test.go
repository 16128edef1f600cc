package postgres

import (
	"context"
	"encoding/json"
	"fmt"
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
	var out []byte
	if err := conn.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+openCallEventsSQL, sid, session.TokenJudgedInput, "claude").Scan(&out); err != nil {
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
	t.Log(plan)
	reads := 0
	var check func(n node)
	check = func(n node) {
		if n.Relation == "events" {
			reads++
			switch {
			case n.IndexName == "events_calls":
			case n.IndexName == "events_pkey" && strings.Contains(n.IndexCond, "seq ="):
			default:
				t.Errorf("events read by %s %s (%s), want events_calls or one row's key; plan %s", n.NodeType, n.IndexName, n.IndexCond, plan)
			}
		}
		for _, c := range n.Plans {
			check(c)
		}
	}
	check(plans[0].Plan)
	if reads == 0 {
		t.Errorf("no read of events in the plan %s", plan)
	}
}
