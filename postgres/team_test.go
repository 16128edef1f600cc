package postgres

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestTeamDaysMatchSessions: /team's counts from the kept per-day counts
// (migration 0009's trigger, folded or not) are the counts the sessions
// give (teamCountsSQL, the query they replace), after a seed past the fold
// threshold and after every kind of change a session can have: state,
// violations, its end moved to another day, its person, its repository,
// an end undone, a delete.
func TestTeamDaysMatchSessions(t *testing.T) {
	ctx := context.Background()
	u := newURL(t)
	db := openURL(t, u)
	end := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	seedSkewed(t, ctx, u, 6000, end)
	from, to, lastWeek := session.TeamPeriod(end.Add(-time.Hour))
	fromSessions := func() []session.TeamCount {
		rows, err := db.pool.Query(ctx, teamCountsSQL, nanos(from), weekNanos, nanos(from), nanos(to))
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []session.TeamCount
		for rows.Next() {
			var c session.TeamCount
			if err := rows.Scan(&c.Group, &c.Key, &c.Week, &c.Ended, &c.Compliant, &c.Violations); err != nil {
				t.Fatal(err)
			}
			out = append(out, c)
		}
		return sortCounts(out)
	}
	check := func(what string, wantFolded bool) {
		t.Helper()
		a, err := db.TeamActivity(ctx, from, to, lastWeek, 10)
		if err != nil {
			t.Fatal(err)
		}
		got, want := sortCounts(a.Counts), fromSessions()
		if len(want) == 0 {
			t.Fatalf("%s: no sessions ended in the period: the test reads nothing", what)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: per-day counts give\n%v\nthe sessions give\n%v", what, got, want)
		}
		var left int
		if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM team_day_deltas`).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if wantFolded && left != 0 {
			t.Errorf("%s: %d deltas left, want them folded", what, left)
		}
		t.Logf("%s: %d counts, %d deltas not folded", what, len(got), left)
	}
	check("after the seed (6,000 deltas: folded on read)", true)
	recent := fmt.Sprint(nanos(from) + int64(3*24*time.Hour))
	for _, c := range []struct{ what, sql string }{
		{"states changed", `UPDATE sessions SET state = 'ABANDONED' WHERE state = 'COMPLETE' AND ended_at > ` + recent + ` AND id LIKE '%1'`},
		{"violations added", `UPDATE sessions SET violation_count = violation_count + 2 WHERE ended_at > ` + recent + ` AND id LIKE '%2'`},
		{"ends moved a day, one out of the period", `UPDATE sessions SET ended_at = ended_at + 86400000000000 WHERE ended_at > 0 AND id LIKE '%3'`},
		{"person changed, to a name alone", `UPDATE sessions SET user_email = '', user_name = 'Someone' WHERE ended_at > 0 AND id LIKE '%4'`},
		{"repository changed", `UPDATE sessions SET repo_id = 7 WHERE ended_at > 0 AND id LIKE '%5'`},
		{"end undone", `UPDATE sessions SET ended_at = 0, state = 'WORKING' WHERE ended_at > ` + recent + ` AND id LIKE '%06'`},
		{"deleted", `WITH gone AS (SELECT id FROM sessions WHERE ended_at > ` + recent + ` AND id LIKE '%7'
			AND id NOT IN (SELECT session_id FROM violations WHERE session_id IS NOT NULL)),
			e AS (DELETE FROM events WHERE session_id IN (SELECT id FROM gone))
			DELETE FROM sessions WHERE id IN (SELECT id FROM gone)`},
	} {
		if _, err := db.pool.Exec(ctx, c.sql); err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		check(c.what, false)
	}
	// Folded and read again: the same counts.
	if _, err := db.pool.Exec(ctx, `UPDATE sessions SET violation_count = violation_count + 1 WHERE ended_at > 0`); err != nil {
		t.Fatal(err)
	}
	check("every session changed (folded)", true)
}

func sortCounts(cs []session.TeamCount) []session.TeamCount {
	slices.SortFunc(cs, func(a, b session.TeamCount) int {
		if a.Group != b.Group {
			return map[bool]int{true: -1, false: 1}[a.Group < b.Group]
		}
		if a.Key != b.Key {
			return map[bool]int{true: -1, false: 1}[a.Key < b.Key]
		}
		return a.Week - b.Week
	})
	return cs
}
