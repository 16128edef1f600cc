package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// testComplianceByDayFollowsChanges: whole-day compliance counts agree with
// the sessions after every kind of change (a store may keep them as running
// totals, as SQLite does; they must never drift).
func testComplianceByDayFollowsChanges(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	a := aggregates(t, db)
	day0 := t0.Truncate(24 * time.Hour)
	var ss []*session.Session
	for range 4 {
		ss = append(ss, newSession(t, db, "/days"))
	}
	check := func(step string) {
		t.Helper()
		want := map[time.Time]session.DayCompliance{}
		all, err := db.ListSessions(ctx, session.SessionFilter{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range all {
			if s.EndedAt.IsZero() {
				continue
			}
			d := s.EndedAt.UTC().Truncate(24 * time.Hour)
			x := want[d]
			x.Day, x.Ended = d, x.Ended+1
			if s.State == session.StateComplete && violationCount(t, db, s.ID) == 0 {
				x.Compliant++
			}
			want[d] = x
		}
		got, err := a.ComplianceByDay(ctx, day0.AddDate(0, 0, -3), day0.AddDate(0, 0, 4))
		if err != nil {
			t.Fatal(err)
		}
		gotMap := map[time.Time]session.DayCompliance{}
		for _, x := range got {
			gotMap[x.Day] = x
		}
		mustEqual(t, "ComplianceByDay after "+step, gotMap, want)
	}
	end := func(s *session.Session, state session.State, at time.Time) {
		update(t, db, func(w session.Writer) error {
			s.State, s.EndedAt = state, at
			return w.UpdateSession(ctx, s)
		})
	}
	check("no session ended")
	end(ss[0], session.StateComplete, day0.Add(time.Hour))
	end(ss[1], session.StateComplete, day0.Add(23*time.Hour+59*time.Minute))
	end(ss[2], session.StateAbandoned, day0.AddDate(0, 0, 1))
	end(ss[3], session.StateComplete, day0.AddDate(0, 0, -1).Add(time.Minute))
	check("sessions ended on three days")
	update(t, db, func(w session.Writer) error {
		return w.AddViolation(ctx, &session.Violation{SessionID: ss[1].ID, RepoID: ss[1].RepoID, Code: "X", Severity: session.SeverityHigh, Message: "late"})
	})
	check("a violation on an ended session")
	end(ss[0], session.StateTerminated, ss[0].EndedAt)
	check("a completed session terminated")
	end(ss[3], session.StateComplete, day0.AddDate(0, 0, 2))
	check("an end time moved to another day")
	update(t, db, func(w session.Writer) error { return w.DeleteSession(ctx, ss[2].ID) })
	check("an ended session deleted")
	update(t, db, func(w session.Writer) error { return w.DeleteSession(ctx, ss[1].ID) })
	check("a session with violations deleted")
}

// testSeverityFilter: sessions with a violation of a severity, in the list
// and in the dashboard's total (which must not come from the per-state
// counts when a severity is asked).
func testSeverityFilter(t *testing.T, open Opener) {
	db := open(t)
	ctx := context.Background()
	crit, low, clean := newSession(t, db, "/sev"), newSession(t, db, "/sev"), newSession(t, db, "/sev")
	_ = clean
	update(t, db, func(w session.Writer) error {
		for _, v := range []session.Violation{
			{SessionID: crit.ID, RepoID: crit.RepoID, Code: "BYPASS", Severity: session.SeverityCritical, Message: "m"},
			{SessionID: crit.ID, RepoID: crit.RepoID, Code: "X", Severity: session.SeverityLow, Message: "m"},
			{SessionID: low.ID, RepoID: low.RepoID, Code: "X", Severity: session.SeverityLow, Message: "m"},
		} {
			if err := w.AddViolation(ctx, &v); err != nil {
				return err
			}
		}
		return nil
	})
	ids := func(f session.SessionFilter) []string {
		t.Helper()
		ss, err := db.ListSessions(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	mustEqual(t, "CRITICAL", ids(session.SessionFilter{Severity: session.SeverityCritical}), []string{crit.ID})
	if got := ids(session.SessionFilter{Severity: session.SeverityLow}); len(got) != 2 {
		t.Errorf("LOW: %v, want both sessions with a LOW violation", got)
	}
	if got := ids(session.SessionFilter{Severity: session.SeverityHigh}); len(got) != 0 {
		t.Errorf("HIGH: %v, want none", got)
	}
	page, err := aggregates(t, db).DashboardSessions(ctx, session.SessionFilter{Severity: session.SeverityCritical})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 1 || len(page.Sessions) != 1 {
		t.Errorf("dashboard page for CRITICAL: total %d, %d rows; want 1 and 1", page.Total, len(page.Sessions))
	}
}
