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
)

// TestVerdictQueryPlans (round 20 t1): a listing's verdicts
// (SessionVerdictInputs) read a page's rows on their indexes, never a
// whole table, and of a session's evidence only its not-applicable marks
// (the partial index evidence_na_marks, migration 0012), on a database
// whose sessions each observed 10 commands, as sessions with agent hooks
// do, after VACUUM ANALYZE.
func TestVerdictQueryPlans(t *testing.T) {
	ctx := context.Background()
	u := newURL(t)
	openURL(t, u) // the schema, through the migrations
	const n = 20000
	seedSkewed(t, ctx, u, n, time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC))
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var results, evs, vios [][]any
	for i := range n {
		id := fmt.Sprintf("s%07d", i)
		if i%10 == 3 {
			// Nine more beside seedSkewed's one: 20,000 violations, so
			// reading a page's on their index is the cheap plan, as in a
			// team's database, not a scan of a table of a few pages.
			for range 9 {
				vios = append(vios, []any{id, int64(i%100 + 1), "HIGH", "SEQUENCE_RULE", int64(i)})
			}
		}
		for _, p := range []string{"CONTEXT", "QA", "GIT"} {
			results = append(results, []any{id, p, "PASSED", "BLOCKING", "", `[{"kind":"command","status":"PASS"}]`})
		}
		for j := range 10 {
			step := ""
			if j == 0 && i%50 == 0 {
				step = "not_applicable"
			}
			evs = append(evs, []any{id, "QA", step, "tool_output", "go test ./...", "observed", int64(i)})
		}
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"phase_results"}, []string{"session_id", "phase_id", "status", "level", "decision", "checks_json"}, pgx.CopyFromRows(results)); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"evidence"}, []string{"session_id", "phase", "step", "kind", "ref", "origin", "created_at"}, pgx.CopyFromRows(evs)); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"violations"}, []string{"session_id", "repo_id", "severity", "code", "created_at"}, pgx.CopyFromRows(vios)); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "VACUUM ANALYZE phase_results, evidence, violations"); err != nil {
		t.Fatal(err)
	}
	var page []string // a page of 50, as the dashboard lists it
	for i := n - 60; i < n-10; i++ {
		page = append(page, fmt.Sprintf("s%07d", i))
	}
	for _, c := range []struct{ name, query, index string }{
		{"phase results", verdictPhasesSQL, "phase_results_pkey"},
		{"violations", verdictViolationsSQL, "violations_session"},
		{"not-applicable marks", verdictMarksSQL, "evidence_na_marks"},
	} {
		var out []byte
		if err := conn.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+c.query, page).Scan(&out); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var plans []struct{ Plan planNode }
		if err := json.Unmarshal(out, &plans); err != nil || len(plans) != 1 {
			t.Fatalf("%s: %v: %s", c.name, err, out)
		}
		var read, steps []string
		plans[0].Plan.walk(func(p planNode) {
			steps = append(steps, strings.TrimSpace(p.NodeType+" "+p.Relation+" "+p.IndexName))
			if p.IndexName != "" {
				read = append(read, p.IndexName)
			}
			if p.NodeType == "Seq Scan" && slices.Contains(big, p.Relation) {
				t.Errorf("%s: reads all of %s", c.name, p.Relation)
			}
		})
		t.Logf("%s: %s", c.name, strings.Join(steps, "; "))
		if !slices.Contains(read, c.index) {
			t.Errorf("%s: plan %s, want a read of %s", c.name, strings.Join(steps, "; "), c.index)
		}
	}
}
