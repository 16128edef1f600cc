package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/postgres"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// Both stores read a page's violations in one query.
var (
	_ severityReader = (*store.DB)(nil)
	_ severityReader = (*postgres.DB)(nil)
)

func TestSeverityCount(t *testing.T) {
	for _, c := range []struct {
		in   map[string]int
		want string
	}{
		{nil, "0"},
		{map[string]int{session.SeverityLow: 0}, "0"},
		{map[string]int{session.SeverityHigh: 2}, "2 HIGH"},
		{map[string]int{session.SeverityLow: 3, session.SeverityCritical: 1, session.SeverityMedium: 1}, "5 CRITICAL"},
	} {
		if got := severityCount(c.in); got != c.want {
			t.Errorf("severityCount(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestListSeverities: the list's cells come from the one-query read and
// say what a query per session said.
func TestListSeverities(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "sg.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ss []*session.Session
	if err := db.Update(ctx, func(w session.Writer) error {
		repo, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		for _, sevs := range [][]string{nil, {session.SeverityHigh}, {session.SeverityLow, session.SeverityCritical, session.SeverityLow}} {
			s := &session.Session{RepoID: repo.ID, Worktree: "/r", State: session.StateWorking}
			if err := w.CreateSession(ctx, s); err != nil {
				return err
			}
			ss = append(ss, s)
			for _, sev := range sevs {
				if err := w.AddViolation(ctx, &session.Violation{SessionID: s.ID, RepoID: repo.ID, Severity: sev, Code: "FORCED_ADVANCE", Window: session.WindowSession}); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	got, err := listSeverities(ctx, db, ss)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"0", "1 HIGH", "3 CRITICAL"} {
		if c := severityCount(got[ss[i].ID]); c != want {
			t.Errorf("session %d: %q, want %q", i, c, want)
		}
	}
}
