package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// The multi-process tests re-run this test binary as child processes; the
// environment tells a child what to do.
const (
	helperMode    = "SESSIONGATE_STORE_HELPER"         // "append" or "open"
	helperDB      = "SESSIONGATE_STORE_HELPER_DB"      // database path
	helperSession = "SESSIONGATE_STORE_HELPER_SESSION" // session to append to
	helperN       = "SESSIONGATE_STORE_HELPER_N"       // transactions to run
	helperName    = "SESSIONGATE_STORE_HELPER_NAME"    // event token, ready-file name
	helperBarrier = "SESSIONGATE_STORE_HELPER_BARRIER" // folder of the start barrier
)

// TestHelperProcess is the child side of the multi-process tests; run
// directly it skips.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperMode)
	if mode == "" {
		t.Skip("child process of the multi-process tests")
	}
	ctx := context.Background()
	path, name, barrier := os.Getenv(helperDB), os.Getenv(helperName), os.Getenv(helperBarrier)
	switch mode {
	case "open":
		waitBarrier(t, barrier, name)
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := db.Close(); err != nil {
			t.Fatalf("%s: close: %v", name, err)
		}
	case "append":
		n, err := strconv.Atoi(os.Getenv(helperN))
		if err != nil {
			t.Fatal(err)
		}
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer db.Close()
		sessionID := os.Getenv(helperSession)
		waitBarrier(t, barrier, name)
		for i := range n {
			// Detail: the transaction's number and when it was asked for,
			// before waiting for the lock.
			detail := fmt.Sprintf("%d %d", i, time.Now().UnixNano())
			err := db.Update(ctx, func(w session.Writer) error {
				return w.AppendEvent(ctx, &session.Event{SessionID: sessionID, Token: name, Detail: detail})
			})
			if err != nil {
				t.Fatalf("%s: transaction %d: %v", name, i, err)
			}
		}
	default:
		t.Fatalf("unknown %s=%q", helperMode, mode)
	}
}

// waitBarrier announces this child is ready and waits for the parent's go,
// so the children start their work at the same moment.
func waitBarrier(t *testing.T, dir, name string) {
	if err := os.WriteFile(filepath.Join(dir, name+".ready"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !fileExists(filepath.Join(dir, "go")) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: no go from the parent", name)
		}
		time.Sleep(time.Millisecond)
	}
}

// runChildren starts one child process per name with env, releases them
// together and fails the test if any child fails.
func runChildren(t *testing.T, names []string, env ...string) {
	t.Helper()
	barrier := t.TempDir()
	type child struct {
		cmd *exec.Cmd
		out bytes.Buffer
	}
	var children []*child
	for _, name := range names {
		c := &child{cmd: exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1", "-test.v")}
		c.cmd.Env = append(os.Environ(), append(env, helperName+"="+name, helperBarrier+"="+barrier)...)
		c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.out
		if err := c.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		children = append(children, c)
	}
	defer func() {
		for _, c := range children {
			if c.cmd.ProcessState == nil {
				c.cmd.Process.Kill()
				c.cmd.Wait()
			}
		}
	}()
	deadline := time.Now().Add(60 * time.Second)
	for _, name := range names {
		for !fileExists(filepath.Join(barrier, name+".ready")) {
			if time.Now().After(deadline) {
				t.Fatalf("child %s never got ready", name)
			}
			time.Sleep(time.Millisecond)
		}
	}
	if err := os.WriteFile(filepath.Join(barrier, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for i, c := range children {
		if err := c.cmd.Wait(); err != nil {
			t.Errorf("child %s: %v\n%s", names[i], err, c.out.String())
		}
	}
}

// TestTwoProcessesWriting has two OS processes append to the same session
// at once, one BEGIN IMMEDIATE transaction per event: no "database is
// locked", and the sequence numbers come out 1..2N without gaps or doubles.
func TestTwoProcessesWriting(t *testing.T) {
	const n = 200
	path := filepath.Join(t.TempDir(), "shared.db")
	db := openAt(t, path)
	s := newSession(t, db, "/r")

	runChildren(t, []string{"alpha", "beta"},
		helperMode+"=append", helperDB+"="+path, helperSession+"="+s.ID, helperN+"="+strconv.Itoa(n))

	evs, err := db.ListEvents(context.Background(), s.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2*n {
		t.Fatalf("%d events, want %d", len(evs), 2*n)
	}
	perChild := map[string]int{}
	firstAsked := map[string]int64{} // when each child asked for its first transaction
	lastCommitted := map[string]time.Time{}
	switches := 0
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has Seq %d, want %d", i, e.Seq, i+1)
		}
		var num int
		var asked int64
		if _, err := fmt.Sscanf(e.Detail, "%d %d", &num, &asked); err != nil {
			t.Fatalf("Seq %d: detail %q: %v", e.Seq, e.Detail, err)
		}
		// Each child's own events keep its order.
		if num != perChild[e.Token] {
			t.Errorf("Seq %d: %s's transaction %d, want %d", e.Seq, e.Token, num, perChild[e.Token])
		}
		if num == 0 {
			firstAsked[e.Token] = asked
		}
		perChild[e.Token]++
		lastCommitted[e.Token] = e.CreatedAt
		if i > 0 && evs[i-1].Token != e.Token {
			switches++
		}
	}
	if perChild["alpha"] != n || perChild["beta"] != n {
		t.Errorf("events per child %v, want %d each", perChild, n)
	}
	// The point is that the writes overlapped: each child asked for its
	// first transaction before the other had finished writing, so one of
	// them waited on SQLite's lock (busy_timeout) rather than failing.
	for _, c := range [][2]string{{"alpha", "beta"}, {"beta", "alpha"}} {
		if firstAsked[c[0]] >= lastCommitted[c[1]].UnixNano() {
			t.Errorf("%s started after %s had finished: the processes did not write at the same time", c[0], c[1])
		}
	}
	t.Logf("%d events; the writer changed %d times", len(evs), switches)
}

// TestTwoProcessesOpeningFreshDB has two processes create and migrate the
// same new file at once: both succeed and the schema is applied once.
func TestTwoProcessesOpeningFreshDB(t *testing.T) {
	ms, err := loadMigrations(migrationFS)
	if err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		path := filepath.Join(t.TempDir(), "new", "fresh.db")
		runChildren(t, []string{"one", "two"}, helperMode+"=open", helperDB+"="+path)
		if t.Failed() {
			t.Fatalf("round %d failed", round)
		}
		db := openAt(t, path)
		if v := pragma[int](t, db.read, "user_version"); v != len(ms) {
			t.Errorf("round %d: user_version %d, want %d", round, v, len(ms))
		}
		if mode := pragma[string](t, db.read, "journal_mode"); mode != "wal" {
			t.Errorf("round %d: journal_mode %s", round, mode)
		}
	}
}

// TestConcurrentGoroutines writes from many goroutines through two DB
// handles on the same file (two writer connections contending on SQLite's
// lock, as two processes would) while others read.
func TestConcurrentGoroutines(t *testing.T) {
	const writers, perWriter = 8, 50
	path := filepath.Join(t.TempDir(), "s.db")
	dbs := []*DB{openAt(t, path), openAt(t, path)}
	s := newSession(t, dbs[0], "/r")
	ctx := context.Background()

	var wg sync.WaitGroup
	errs := make(chan error, writers+2)
	done := make(chan struct{})
	for g := range writers {
		wg.Go(func() {
			db := dbs[g%2]
			for i := range perWriter {
				err := db.Update(ctx, func(w session.Writer) error {
					e := &session.Event{SessionID: s.ID, Token: fmt.Sprintf("g%d", g)}
					if err := w.AppendEvent(ctx, e); err != nil {
						return err
					}
					// Read-modify-write through the transaction.
					cur, err := w.GetSession(ctx, s.ID)
					if err != nil {
						return err
					}
					cur.LastActivity = time.Unix(0, e.Seq)
					return w.UpdateSession(ctx, cur)
				})
				if err != nil {
					errs <- fmt.Errorf("writer %d, transaction %d: %w", g, i, err)
					return
				}
			}
		})
	}
	var readers sync.WaitGroup
	for r := range 2 {
		readers.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				evs, err := dbs[r].ListEvents(ctx, s.ID, 0, 0)
				if err != nil {
					errs <- fmt.Errorf("reader %d: %w", r, err)
					return
				}
				for i, e := range evs {
					if e.Seq != int64(i+1) {
						errs <- fmt.Errorf("reader %d saw Seq %d at %d: a gap", r, e.Seq, i)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(done)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	evs, err := dbs[1].ListEvents(ctx, s.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != writers*perWriter {
		t.Fatalf("%d events, want %d", len(evs), writers*perWriter)
	}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("Seq %d at %d", e.Seq, i)
		}
	}
	got, err := dbs[0].GetSession(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Unix(0, writers*perWriter); !got.LastActivity.Equal(want) {
		t.Errorf("LastActivity %v, want the last writer's %v", got.LastActivity, want)
	}
}

// TestNestedUpdateWouldDeadlock documents why fn must not call db.Update: it
// waits for the one writer connection until its context ends.
func TestNestedUpdateWouldDeadlock(t *testing.T) {
	db := openTest(t)
	update(t, db, func(w session.Writer) error {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		err := db.Update(ctx, func(session.Writer) error { return nil })
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("nested Update: %v, want it to wait until the deadline", err)
		}
		return nil
	})
}
