package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// testTeamActivity: the team overview groups ended sessions by repository
// key (two clones of one origin are one row) and by person, week by week,
// counts bypasses of the last week only, and lists them newest first.
func testTeamActivity(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
	from, to, lastWeek := session.TeamPeriod(now)
	day := func(n int) time.Time { return to.Add(-time.Duration(n)*24*time.Hour + time.Hour) } // n days before the period's end
	var repoA, repoB, local *session.Repository
	update(t, db, func(w session.Writer) error {
		var err error
		if repoA, err = w.EnsureRepository(ctx, "/home/ann/proj", "proj"); err != nil {
			return err
		}
		if repoB, err = w.EnsureRepository(ctx, "/home/bob/proj", "proj"); err != nil {
			return err
		}
		if local, err = w.EnsureRepository(ctx, "/home/ann/scratch", "scratch"); err != nil {
			return err
		}
		for _, r := range []*session.Repository{repoA, repoB} {
			if err := w.SetRepositoryOrigin(ctx, r.ID, "github.com/o/proj"); err != nil {
				return err
			}
		}
		for i, s := range []session.Session{
			// ann, proj: one compliant this week, one abandoned 10 days ago
			{RepoID: repoA.ID, UserEmail: "ann@example.com", State: session.StateComplete, EndedAt: day(2)},
			{RepoID: repoA.ID, UserEmail: "ann@example.com", State: session.StateAbandoned, EndedAt: day(10)},
			// bob, proj (his clone): compliant 20 days ago
			{RepoID: repoB.ID, UserEmail: "bob@example.com", State: session.StateComplete, EndedAt: day(20)},
			// ann, scratch: complete this week but with a violation (not compliant)
			{RepoID: local.ID, UserName: "ann-no-email", State: session.StateComplete, EndedAt: day(1)},
			// outside the period and still running: not counted
			{RepoID: repoA.ID, UserEmail: "ann@example.com", State: session.StateComplete, EndedAt: day(40)},
			{RepoID: repoB.ID, UserEmail: "bob@example.com", State: session.StateWorking},
		} {
			s.ID, s.Worktree, s.CreatedAt = sid(i+1), "/w", day(45)
			if err := w.CreateSession(ctx, &s); err != nil {
				return err
			}
		}
		for _, v := range []*session.Violation{
			{SessionID: sid(4), RepoID: local.ID, Severity: session.SeverityHigh, Code: "X", CreatedAt: day(1)},
			{SessionID: sid(6), RepoID: repoB.ID, Severity: session.SeverityCritical, Code: session.CodeBypass, CreatedAt: day(3)},
			{SessionID: sid(6), RepoID: repoB.ID, Severity: session.SeverityLow, Code: session.CodeEscapeHatch, CreatedAt: day(2)},
			{SessionID: sid(5), RepoID: repoA.ID, Severity: session.SeverityCritical, Code: session.CodeBypass, CreatedAt: day(9)}, // not last week, a session ended before the period
		} {
			if err := w.AddViolation(ctx, v); err != nil {
				return err
			}
		}
		return nil
	})
	tr, ok := db.(interface {
		TeamActivity(ctx context.Context, from, to, lastWeek time.Time, limit int) (*session.TeamActivity, error)
	})
	if !ok {
		t.Fatalf("%T has no TeamActivity", db)
	}
	a, err := tr.TeamActivity(ctx, from, to, lastWeek, 10)
	if err != nil {
		t.Fatal(err)
	}
	o := session.NewTeamOverview(a, from, to)
	type row struct {
		Key                                    string
		Ended, Compliant, Violations, Bypasses int
		LastWeekEnded                          int
	}
	got := func(rs []session.TeamRow) []row {
		var out []row
		for _, r := range rs {
			out = append(out, row{r.Key, r.Ended, r.Compliant, r.Violations, r.Bypasses, r.Weeks[session.TeamWeeks-1].Ended})
		}
		return out
	}
	// Worst first: scratch (0 of 1), then proj (2 of 3); people: ann-no-email
	// (0 of 1), ann (1 of 2), then bob (1 of 1, but two bypasses this week).
	mustEqual(t, "repositories", got(o.Repos), []row{
		{"/home/ann/scratch", 1, 0, 1, 0, 1},
		{"github.com/o/proj", 3, 2, 0, 2, 1},
	})
	mustEqual(t, "people", got(o.People), []row{
		{"ann-no-email", 1, 0, 1, 0, 1},
		{"ann@example.com", 2, 1, 0, 0, 1},
		{"bob@example.com", 1, 1, 0, 2, 0},
	})
	if o.BypassTotal != 2 || len(o.Bypasses) != 2 || o.Bypasses[0].Code != session.CodeEscapeHatch ||
		o.Bypasses[0].Repo != "github.com/o/proj" || o.Bypasses[0].Person != "bob@example.com" {
		t.Errorf("bypasses of the last week: total %d, %+v", o.BypassTotal, o.Bypasses)
	}
}
