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
