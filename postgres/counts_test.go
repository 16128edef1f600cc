package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestDashboardCountsFold: the overview's counts stay exact across the fold
// of the triggers' deltas into dashboard_counts (past foldAfter deltas a
// read folds them) and across later changes.
func TestDashboardCountsFold(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	n := foldAfter + 500
	err := db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		for i := range n {
			st := session.StateComplete
			if i%5 == 0 {
				st = session.StateAbandoned
			}
			s := &session.Session{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), RepoID: repo.ID, Worktree: "/r", State: st, CreatedAt: time.Unix(int64(i), 0)}
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
			if i%10 == 0 {
				if err := w.AddViolation(ctx, &session.Violation{SessionID: s.ID, RepoID: repo.ID, Severity: session.SeverityHigh, Code: "X", CreatedAt: s.CreatedAt}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := func(what string, complete, abandoned, withViolations, violations int) {
		t.Helper()
		c, err := db.CountSessionsByState(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if c.ByState[string(session.StateComplete)] != complete || c.ByState[string(session.StateAbandoned)] != abandoned ||
			c.Total != complete+abandoned || c.WithViolations != withViolations || c.Violations != violations {
			t.Errorf("%s: %+v, want %d complete, %d abandoned, %d with violations, %d violations", what, c, complete, abandoned, withViolations, violations)
		}
	}
	want("first read (folds)", n-n/5, n/5, n/10, n/10)
	var left int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM dashboard_count_deltas`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d deltas left after the fold (%v), want 0", left, err)
	}
	// A session abandoned and one deleted after the fold.
	err = db.Update(ctx, func(w session.Writer) error {
		s, err := w.GetSession(ctx, "00000000-0000-4000-8000-000000000001")
		if err != nil {
			return err
		}
		s.State = session.StateAbandoned
		return w.UpdateSession(ctx, s)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Session 0: abandoned, with a violation.
	if err := db.Update(ctx, func(w session.Writer) error { return w.DeleteSession(ctx, "00000000-0000-4000-8000-000000000000") }); err != nil {
		t.Fatal(err)
	}
	want("after changes", n-n/5-1, n/5, n/10-1, n/10-1)
}
