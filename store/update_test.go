package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// walFrames runs fn in one Update and returns how many pages it wrote to the
// WAL (the WAL is emptied first).
func walFrames(t *testing.T, db *DB, fn func(w session.Writer) error) int {
	t.Helper()
	ctx := context.Background()
	var busy, frames, done int
	if err := db.writer.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &frames, &done); err != nil || busy != 0 {
		t.Fatalf("empty the WAL: busy %d, %v", busy, err)
	}
	update(t, db, fn)
	if err := db.writer.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &done); err != nil {
		t.Fatal(err)
	}
	return frames
}

// TestUpdateSessionChangedColumns: UpdateSession leaves the row equal to
// its argument whether the transaction read the row first (only changed
// columns are set) or not (every column is), and a touch after a read
// writes one page where a full rewrite writes one per index of sessions.
func TestUpdateSessionChangedColumns(t *testing.T) {
	ctx := context.Background()
	at := func(sec int64) time.Time { return time.Unix(1_800_000_000+sec, 7).UTC() }
	for _, c := range []struct {
		name string
		// prepare returns the session to write, read however the case says.
		prepare   func(w session.Writer, base *session.Session) (*session.Session, error)
		change    func(s *session.Session)
		maxFrames int // 0: not checked
	}{
		{name: "touch after a read", maxFrames: 1,
			prepare: func(w session.Writer, base *session.Session) (*session.Session, error) {
				return w.GetSession(ctx, base.ID)
			},
			change: func(s *session.Session) { s.LastActivity, s.ExpiresAt = at(10), at(20) }},
		{name: "every field after a read",
			prepare: func(w session.Writer, base *session.Session) (*session.Session, error) {
				return w.GetSession(ctx, base.ID)
			},
			change: func(s *session.Session) {
				s.Worktree, s.Branch, s.StartCommit, s.EndCommit, s.ProtocolSHA = "/w2", "b2", "c2", "e2", "p2"
				s.Objective, s.State, s.Phase = "o2", session.StateComplete, ""
				s.CreatedAt, s.LastActivity, s.ExpiresAt, s.EndedAt = at(1), at(2), at(3), at(4)
				s.Terminated, s.TerminateReason, s.Summary, s.NextNotes = true, "r2", "s2", "n2"
			}},
		{name: "back to zero values after a read",
			prepare: func(w session.Writer, base *session.Session) (*session.Session, error) {
				return w.GetSession(ctx, base.ID)
			},
			change: func(s *session.Session) {
				s.Branch, s.Objective, s.LastActivity, s.ExpiresAt = "", "", time.Time{}, time.Time{}
			}},
		{name: "found by ActiveSession",
			prepare: func(w session.Writer, base *session.Session) (*session.Session, error) {
				return w.ActiveSession(ctx, base.RepoID, base.Worktree)
			},
			change: func(s *session.Session) { s.State, s.Phase = session.StateWorking, "" }},
		{name: "without a read (every column written)",
			prepare: func(session.Writer, *session.Session) (*session.Session, error) { return nil, nil },
			change:  func(s *session.Session) { s.Summary, s.LastActivity = "written blind", at(30) }},
		{name: "unchanged after a read", maxFrames: 0,
			prepare: func(w session.Writer, base *session.Session) (*session.Session, error) {
				return w.GetSession(ctx, base.ID)
			},
			change: func(s *session.Session) {}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := openTest(t)
			base := newSession(t, db, "/r")
			update(t, db, func(w session.Writer) error { // non-zero fields to change from
				s, err := w.GetSession(ctx, base.ID)
				if err != nil {
					return err
				}
				s.Branch, s.Objective, s.Phase = "main", "objective", "P1"
				s.LastActivity, s.ExpiresAt = at(0), at(100)
				return w.UpdateSession(ctx, s)
			})
			var want session.Session
			frames := walFrames(t, db, func(w session.Writer) error {
				s, err := c.prepare(w, base)
				if err != nil {
					return err
				}
				if s == nil { // the blind case: a copy read outside this transaction
					s, err = db.GetSession(ctx, base.ID)
					if err != nil {
						return err
					}
				}
				c.change(s)
				want = *s
				return w.UpdateSession(ctx, s)
			})
			got, err := db.GetSession(ctx, base.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, want) {
				t.Fatalf("row after UpdateSession:\n got %+v\nwant %+v", *got, want)
			}
			if c.maxFrames > 0 && frames > c.maxFrames {
				t.Fatalf("UpdateSession wrote %d WAL pages, want at most %d", frames, c.maxFrames)
			}
		})
	}
}

// TestUpdateSessionFullRewriteCostsMore pins why UpdateSession diffs: a
// blind full-row write dirties every index of sessions, a touch one page.
func TestUpdateSessionFullRewriteCostsMore(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s := newSession(t, db, "/r")
	blind := walFrames(t, db, func(w session.Writer) error {
		c := *s
		c.LastActivity = time.Unix(1, 0)
		return w.UpdateSession(ctx, &c)
	})
	touch := walFrames(t, db, func(w session.Writer) error {
		c, err := w.GetSession(ctx, s.ID)
		if err != nil {
			return err
		}
		c.LastActivity = time.Unix(2, 0)
		return w.UpdateSession(ctx, c)
	})
	if touch != 1 || blind <= touch {
		t.Fatalf("WAL pages: touch after a read %d (want 1), blind full write %d (want more)", touch, blind)
	}
}

// TestUpdateSessionInOneTransaction: the rows UpdateSession diffs against
// follow CreateSession, UpdateSession and DeleteSession in the same
// transaction.
func TestUpdateSessionInOneTransaction(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	base := newSession(t, db, "/r")
	var want session.Session
	update(t, db, func(w session.Writer) error {
		s := &session.Session{RepoID: base.RepoID, Worktree: "/r2", Branch: "b", State: session.StateInit, Phase: "P1"}
		if err := w.CreateSession(ctx, s); err != nil {
			return err
		}
		s.Phase = "P2"
		if err := w.UpdateSession(ctx, s); err != nil {
			return err
		}
		s.Phase, s.Summary = "P1", "back" // back to the value CreateSession wrote
		if err := w.UpdateSession(ctx, s); err != nil {
			return err
		}
		want = *s
		return nil
	})
	got, err := db.GetSession(ctx, want.ID)
	if err != nil {
		t.Fatal(err)
	}
	want.CreatedAt = got.CreatedAt // stamped by the transaction
	if !reflect.DeepEqual(*got, want) {
		t.Fatalf("row:\n got %+v\nwant %+v", *got, want)
	}

	err = db.Update(ctx, func(w session.Writer) error {
		s, err := w.GetSession(ctx, base.ID)
		if err != nil {
			return err
		}
		if err := w.DeleteSession(ctx, base.ID); err != nil {
			return err
		}
		return w.UpdateSession(ctx, s) // unchanged, but the row is gone
	})
	if !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("UpdateSession of a session deleted in the same transaction: %v, want ErrNotFound", err)
	}
}
