package store

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

func cached(c *stmtCache) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// TestStatementCache: a statement missed inside Update is prepared once
// the writer connection is free (preparing it on the one-connection pool
// inside the transaction would wait forever) and reused from then on;
// reads prepare on the read pool; a query SQLite refuses is reported by
// the call and not kept; Close finalizes everything.
func TestStatementCache(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir()+"/sg.db")
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(t, db, "/r")
	appendOne := func() {
		t.Helper()
		update(t, db, func(w session.Writer) error {
			return w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "tool:x"})
		})
	}
	appendOne()
	after := cached(db.writerStmts)
	if after < 3 { // EnsureRepository, CreateSession, and AppendEvent
		t.Fatalf("writer statements after two Updates: %d, want the ones they ran", after)
	}
	for range 3 {
		appendOne()
	}
	if got := cached(db.writerStmts); got != after {
		t.Fatalf("writer statements grew from %d to %d on the same calls", after, got)
	}
	evs, err := db.ListEvents(ctx, s.ID, 0, 0)
	if err != nil || len(evs) != 4 || evs[3].Seq != 4 {
		t.Fatalf("events through cached statements: %+v, %v", evs, err)
	}
	if cached(db.stmts) == 0 {
		t.Fatal("a read on the pool did not keep its statement")
	}

	const bad = `SELECT no_such_column FROM events WHERE session_id = ?`
	n := cached(db.stmts)
	if _, err := db.reader.query(ctx, bad, s.ID); err == nil || !strings.Contains(err.Error(), "no_such_column") {
		t.Fatalf("bad query: %v, want SQLite's error", err)
	}
	err = db.Update(ctx, func(w session.Writer) error {
		_, err := w.(*Tx).exec(ctx, `UPDATE no_such_table SET x = 1`)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "no_such_table") {
		t.Fatalf("bad statement in Update: %v, want SQLite's error", err)
	}
	if cached(db.stmts) != n || cached(db.writerStmts) != after {
		t.Fatal("a query SQLite refused was kept")
	}

	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if cached(db.stmts) != 0 || cached(db.writerStmts) != 0 {
		t.Fatal("Close left prepared statements")
	}
}

// TestStatementCacheSingle: a hook's one-connection store (OpenSingle)
// prepares nothing after Update (its process ends right after), and a
// statement its reads prepared serves its write transaction on the same
// connection.
func TestStatementCacheSingle(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/sg.db"
	seed := openAt(t, path)
	s := newSession(t, seed, "/r")
	if err := seed.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := OpenSingle(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.writerStmts != db.stmts {
		t.Fatal("OpenSingle keeps two statement caches for its one connection")
	}
	if _, err := db.GetSession(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	before := cached(db.stmts)
	if before == 0 {
		t.Fatal("the read kept no statement")
	}
	update(t, db, func(w session.Writer) error {
		got, err := w.GetSession(ctx, s.ID) // the read's statement, bound to the transaction
		if err != nil || got.ID != s.ID {
			return fmt.Errorf("GetSession in Update: %+v, %v", got, err)
		}
		return w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "tool:x"})
	})
	if got := cached(db.stmts); got != before {
		t.Fatalf("statements after Update: %d, want the %d the read prepared", got, before)
	}
	evs, err := db.ListEvents(ctx, s.ID, 0, 0)
	if err != nil || len(evs) != 1 {
		t.Fatalf("the write: %+v, %v", evs, err)
	}
}
