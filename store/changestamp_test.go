package store

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// TestChangeStamp: the stamp moves after every write a reader could see
// (this handle's transactions, another handle's, a connection of its own
// as a sqlite3 shell has, the writer connection replaced) and stays put
// for reads and for this handle's own gate repeats, whose effect the
// caller applies itself (session/gatesession.go).
func TestChangeStamp(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s := newSession(t, db, t.TempDir())
	var seq int64
	update(t, db, func(w session.Writer) error {
		evs := []*session.Event{{SessionID: s.ID, Token: "tool:validate_gate", CreatedAt: time.Now()}}
		if err := w.AppendEvents(ctx, evs...); err != nil {
			return err
		}
		seq = evs[0].Seq
		return nil
	})
	other := openAt(t, db.Path())
	raw, err := sql.Open("sqlite", "file:"+db.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	steps := []struct {
		name  string
		do    func() error
		moves bool
	}{
		{"nothing", func() error { return nil }, false},
		{"a read", func() error { _, err := db.GetSessionTrusted(ctx, s.ID); return err }, false},
		{"a gate repeat of this handle", func() error {
			done, err := db.RepeatGate(ctx, session.RepeatWrite{ID: s.ID, Seq: seq, N: 1, At: time.Now(), ExpiresAt: time.Now().Add(time.Hour)})
			if err == nil && !done {
				t.Error("the repeat was not counted")
			}
			return err
		}, false},
		{"held-back gate repeats of this handle written", func() error {
			done, err := db.FlushGateRepeats(ctx, session.RepeatWrite{ID: s.ID, Seq: seq, N: 3, At: time.Now(), ExpiresAt: time.Now().Add(time.Hour)})
			if err == nil && !done {
				t.Error("the held-back repeats were not counted")
			}
			return err
		}, false},
		{"a transaction of this handle", func() error {
			return db.Update(ctx, func(w session.Writer) error {
				return w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "x", CreatedAt: time.Now()})
			})
		}, true},
		{"a transaction rolled back", func() error {
			db.Update(ctx, func(w session.Writer) error { return sql.ErrTxDone })
			return nil
		}, true},
		{"another handle's write", func() error {
			return other.Update(ctx, func(w session.Writer) error {
				evs := []*session.Event{{SessionID: s.ID, Token: "tool:validate_gate", CreatedAt: time.Now()}}
				err := w.AppendEvents(ctx, evs...)
				seq = evs[0].Seq
				return err
			})
		}, true},
		{"another handle's gate repeat", func() error {
			done, err := other.RepeatGate(ctx, session.RepeatWrite{ID: s.ID, Seq: seq, N: 1, At: time.Now(), ExpiresAt: time.Now().Add(time.Hour)})
			if err == nil && !done {
				t.Error("the other handle's repeat was not counted")
			}
			return err
		}, true},
		{"a write by hand", func() error {
			_, err := raw.ExecContext(ctx, `UPDATE sessions SET objective = 'by hand' WHERE id = ?`, s.ID)
			return err
		}, true},
		{"the writer connection replaced", func() error {
			db.writer.SetMaxIdleConns(0) // the idle connection is closed
			db.writer.SetMaxIdleConns(1)
			return nil
		}, true},
	}
	prev, err := db.ChangeStamp(ctx)
	if err != nil || prev == "" {
		t.Fatalf("stamp %q, %v", prev, err)
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got, err := db.ChangeStamp(ctx)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if moved := got != prev; moved != st.moves {
			t.Errorf("%s: the stamp went %s -> %s (moved %v, want %v)", st.name, prev, got, moved, st.moves)
		}
		prev = got
	}
}
