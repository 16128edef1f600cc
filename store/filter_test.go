package store

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// The filters' behaviour is in the conformance suite (store/storetest);
// what is SQLite's own stays here.

var t0 = time.Date(2026, 7, 28, 9, 0, 0, 123456789, time.UTC)

func sid(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }

// TestQueryPlans checks that the dashboard's queries walk an index in
// order instead of scanning the table or sorting in a temp b-tree.
func TestQueryPlans(t *testing.T) {
	db := openTest(t)
	yes := true
	sess := func(f session.SessionFilter) func() (string, []any) {
		return func() (string, []any) { return listSessionsQuery(f) }
	}
	viol := func(f session.ViolationFilter) func() (string, []any) {
		return func() (string, []any) { return listViolationsQuery(f) }
	}
	raw := func(q string, args ...any) func() (string, []any) {
		return func() (string, []any) { return q, args }
	}
	for _, c := range []struct {
		name  string
		query func() (string, []any)
	}{
		{"sessions page", sess(session.SessionFilter{})},
		{"sessions keyset", sess(session.SessionFilter{BeforeTime: t0, BeforeID: sid(1)})},
		{"sessions by state", sess(session.SessionFilter{States: []session.State{session.StateComplete}, BeforeTime: t0})},
		{"sessions by branch", sess(session.SessionFilter{Branch: "main"})},
		{"sessions by repo", sess(session.SessionFilter{RepoID: 1})},
		{"sessions with violations", sess(session.SessionFilter{HasViolations: &yes})},
		{"active session", raw(`SELECT id FROM sessions WHERE repo_id = ? AND worktree = ? AND state IN `+activeStates+`
			ORDER BY created_at DESC, id DESC LIMIT 1`, 1, "/w")},
		{"recent ended", raw(`SELECT id FROM sessions WHERE repo_id = ? AND ended_at > 0 ORDER BY ended_at DESC, id DESC LIMIT ?`, 1, 5)},
		{"violations page", viol(session.ViolationFilter{BeforeTime: t0, BeforeID: 9})},
		{"violations by severity", viol(session.ViolationFilter{Severities: []string{session.SeverityHigh}})},
		{"violations by session", viol(session.ViolationFilter{SessionID: sid(1)})},
		{"events", raw(`SELECT seq FROM events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`, sid(1), 0, -1)},
		{"last events", raw(`SELECT seq FROM events WHERE session_id = ? ORDER BY seq DESC LIMIT ?`, sid(1), 5)},
	} {
		t.Run(c.name, func(t *testing.T) {
			query, args := c.query()
			rows, err := db.read.Query("EXPLAIN QUERY PLAN "+query, args...)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var plan []string
			for rows.Next() {
				var id, parent, notused int
				var detail string
				if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
					t.Fatal(err)
				}
				plan = append(plan, detail)
			}
			p := strings.Join(plan, "; ")
			if strings.Contains(p, "TEMP B-TREE") || (strings.Contains(p, "SCAN") && !strings.Contains(p, "INDEX")) {
				t.Errorf("plan %q: sorts or scans without an index", p)
			}
			t.Log(p)
		})
	}
}
