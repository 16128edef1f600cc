package store

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestUpdateGrouped: writes that queue while a transaction holds the
// writer share the next one (one BEGIN and one COMMIT, counted by
// Statements), each caller gets its own outcome, and a write that fails
// or panics in a shared transaction undoes nothing of the others'. The
// queue is built deterministically: the first write waits inside its
// transaction until the others have queued.
func TestUpdateGrouped(t *testing.T) {
	const queued = 4
	boom := errors.New("boom")
	for _, c := range []struct {
		name string
		bad  int // which queued write fails (-1: none)
		kind string
	}{
		{name: "all succeed", bad: -1},
		{name: "one fails", bad: 1, kind: "error"},
		{name: "one panics", bad: 2, kind: "panic"},
		{name: "first fails", bad: 0, kind: "error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := openTest(t)
			ctx := context.Background()
			s := newSession(t, db, t.TempDir())
			appendTok := func(tok string) func(w session.Writer) error {
				return func(w session.Writer) error {
					return w.AppendEvents(ctx, &session.Event{SessionID: s.ID, Token: tok})
				}
			}
			release, started := make(chan struct{}), make(chan struct{})
			firstDone := make(chan error, 1)
			go func() {
				firstDone <- db.UpdateGrouped(ctx, func(w session.Writer) error {
					close(started)
					<-release
					return appendTok("first")(w)
				})
			}()
			waitPending := func(n int) {
				for {
					db.group.mu.Lock()
					p, running := len(db.group.pending), db.group.running
					db.group.mu.Unlock()
					if running && p == n {
						return
					}
					runtime.Gosched()
				}
			}
			<-started // the first leads and holds the writer
			before := db.Statements()
			errs := make([]error, queued)
			panics := make([]any, queued)
			var wg sync.WaitGroup
			for i := range queued {
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer func() { panics[i] = recover() }()
					fn := appendTok(fmt.Sprintf("q%d", i))
					if i == c.bad {
						fn = func(w session.Writer) error {
							if err := appendTok("bad")(w); err != nil {
								return err
							}
							if c.kind == "panic" {
								panic(boom)
							}
							return boom
						}
					}
					errs[i] = db.UpdateGrouped(ctx, fn)
				}()
				waitPending(i + 1) // queue in order: the shared transaction runs them in it
			}
			close(release)
			if err := <-firstDone; err != nil {
				t.Fatal(err)
			}
			wg.Wait()
			ran := db.Statements() - before

			var want []string
			for i := range queued {
				switch {
				case i != c.bad:
					if errs[i] != nil || panics[i] != nil {
						t.Errorf("write %d: %v, panic %v", i, errs[i], panics[i])
					}
					want = append(want, fmt.Sprintf("q%d", i))
				case c.kind == "error" && !errors.Is(errs[i], boom):
					t.Errorf("failing write %d: got %v, want its own error", i, errs[i])
				case c.kind == "panic" && panics[i] != boom:
					t.Errorf("panicking write %d: got panic %v, want its own", i, panics[i])
				}
			}
			evs, err := db.ListEvents(ctx, s.ID, 0, 100)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range evs {
				got = append(got, e.Token)
			}
			// The first committed alone; the queued ones in the order they
			// queued (a rerun after a failure keeps it).
			if want = append([]string{"first"}, want...); !slices.Equal(got, want) {
				t.Errorf("events %v, want %v", got, want)
			}
			for i, e := range evs {
				if e.Seq != int64(i+1) {
					t.Errorf("event %d has seq %d", i, e.Seq)
				}
			}
			if c.bad < 0 {
				// First's insert and COMMIT, then one BEGIN, the inserts,
				// one COMMIT (one at a time: a BEGIN and a COMMIT each).
				if want := int64(2 + 1 + queued + 1); ran != want {
					t.Errorf("%d statements for %d queued writes, want %d (one shared transaction)", ran, queued, want)
				}
			}
		})
	}
}

// TestUpdateGroupedAlone: a write that finds the writer free runs at once
// in its own transaction, as Update does, and a read-only store refuses
// it as Update does.
func TestUpdateGroupedAlone(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	s := newSession(t, db, t.TempDir())
	before := db.Statements()
	if err := db.UpdateGrouped(ctx, func(w session.Writer) error {
		return w.AppendEvents(ctx, &session.Event{SessionID: s.ID, Token: "alone"})
	}); err != nil {
		t.Fatal(err)
	}
	if n := db.Statements() - before; n != 3 {
		t.Errorf("%d statements, want 3 (BEGIN, insert, COMMIT)", n)
	}
	if db.group.running || len(db.group.pending) != 0 {
		t.Errorf("writer left taken: running %v, %d pending", db.group.running, len(db.group.pending))
	}
}
