package postgres

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/pgtest"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store/storetest"
)

// One throwaway cluster for the package's tests (initdb + pg_ctl on a Unix
// socket in a temporary folder), each test in its own database.
var (
	cluster    *pgtest.Server
	skipReason string
)

func TestMain(m *testing.M) {
	// A temp folder of the package's own, removed at the end; a leak
	// fails CI (tmpleak).
	os.Exit(tmpleak.Run(func() int { return runTests(m) }))
}

func runTests(m *testing.M) int {
	srv, err := pgtest.Start(os.TempDir())
	if err != nil {
		skipReason = pgtest.MainSkip(err)
	}
	cluster = srv
	code := m.Run()
	if cluster != nil {
		cluster.Close()
	}
	return code
}

// newURL returns the URL of a fresh database, or skips the test.
func newURL(t testing.TB) string {
	t.Helper()
	if cluster == nil {
		t.Skip(skipReason)
	}
	u, err := cluster.NewDB(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func openURL(t testing.TB, u string) *DB {
	t.Helper()
	db, err := Open(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func openTest(t testing.TB) *DB { return openURL(t, newURL(t)) }

// TestConformance runs the store conformance suite against PostgreSQL.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) session.Store { return openTest(t) })
}

func TestOpenErrorsNameTheSettingNotThePassword(t *testing.T) {
	u := newURL(t)
	ctx := context.Background()
	wrong := strings.Replace(u, pgtest.Password, "not-the-pw-42", 1)
	for _, c := range []struct {
		name, url, want string
	}{
		{"wrong password", wrong, "password authentication failed"},
		{"no such database", strings.Replace(u, "/t", "/nosuchdb", 1), "does not exist"},
		{"unreachable", "postgres://sessiongate:not-the-pw-42@127.0.0.1:1/db?connect_timeout=5&sslmode=disable", "connect"},
		{"unparsable", "postgres://sessiongate:not-the-pw-42@[::1/db", "open PostgreSQL store"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Open(ctx, c.url)
			if err == nil {
				t.Fatal("opened")
			}
			msg := err.Error()
			if !strings.Contains(msg, c.want) || !strings.Contains(msg, "open PostgreSQL store") {
				t.Errorf("error %q: want it to say %q and what was being opened", msg, c.want)
			}
			if strings.Contains(msg, "not-the-pw-42") || strings.Contains(msg, pgtest.Password) {
				t.Errorf("error %q shows the password", msg)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:secret@h/db":                       "postgres://u:xxxxx@h/db",
		"postgres://u@h/db":                              "postgres://u@h/db",
		"postgresql:///db?host=/s&password=secret&x=1":   "postgresql:///db?host=%2Fs&password=xxxxx&x=1",
		"postgres://h/db?sslmode=disable":                "postgres://h/db?sslmode=disable",
		"postgres://u:secret@[::1/db":                    "(unparsable PostgreSQL URL)",
		"postgres://u:se%40cret@h:5432/db?sslmode=allow": "postgres://u:xxxxx@h:5432/db?sslmode=allow",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
		if strings.Contains(Redact(in), "secret") {
			t.Errorf("Redact(%q) keeps the password", in)
		}
	}
}

func TestMigrateTwiceAndConcurrently(t *testing.T) {
	u := newURL(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := Open(context.Background(), u)
			if err == nil {
				db.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("concurrent first opens: %v", err)
		}
	}
	db := openURL(t, u)
	ms, _ := loadMigrations(migrationFS)
	if v, err := schemaVersion(context.Background(), db.pool); err != nil || v != len(ms) {
		t.Errorf("schema version %d, %v; want %d", v, err, len(ms))
	}
	// A database migrated by a newer sessiongate is refused, not touched.
	if _, err := db.pool.Exec(context.Background(), `UPDATE schema_version SET version = version + 1`); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), u); err == nil || !strings.Contains(err.Error(), "upgrade sessiongate") {
		t.Errorf("newer schema: %v", err)
	}
}

// TestTwoStoresOneDatabase: two handles on one database (as two processes
// are) interleave read-modify-write transactions without losing updates
// or reusing an event Seq; the write lock serializes them.
func TestTwoStoresOneDatabase(t *testing.T) {
	u := newURL(t)
	a, b := openURL(t, u), openURL(t, u)
	ctx := context.Background()
	var s *session.Session
	if err := a.Update(ctx, func(w session.Writer) error {
		r, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		s = &session.Session{RepoID: r.ID, Worktree: "/r", State: session.StateWorking}
		return w.CreateSession(ctx, s)
	}); err != nil {
		t.Fatal(err)
	}
	// a holds the lock; b must wait for it, then see a's event.
	inside := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- a.Update(ctx, func(w session.Writer) error {
			if err := w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "a"}); err != nil {
				return err
			}
			close(inside)
			<-release
			return nil
		})
	}()
	<-inside
	var bSeq int64
	bDone := make(chan error, 1)
	go func() {
		bDone <- b.Update(ctx, func(w session.Writer) error {
			e := &session.Event{SessionID: s.ID, Token: "b"}
			err := w.AppendEvent(ctx, e)
			bSeq = e.Seq
			return err
		})
	}()
	select {
	case err := <-bDone:
		t.Fatalf("b's Update finished (%v) while a held the write lock", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-bDone; err != nil {
		t.Fatal(err)
	}
	if bSeq != 2 {
		t.Errorf("b's event Seq %d, want 2 (after a's)", bSeq)
	}
}

// TestServerGoneMidTransaction stops the server (immediate: like a crash)
// while an Update is between two writes: the Update fails with an error
// saying the connection was lost, and after a restart nothing of that
// transaction is there while what was committed before is.
func TestServerGoneMidTransaction(t *testing.T) {
	u := newURL(t)
	db := openURL(t, u)
	ctx := context.Background()
	var s *session.Session
	if err := db.Update(ctx, func(w session.Writer) error {
		r, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		s = &session.Session{RepoID: r.ID, Worktree: "/r", State: session.StateWorking, Objective: "before"}
		if err := w.CreateSession(ctx, s); err != nil {
			return err
		}
		return w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "committed"})
	}); err != nil {
		t.Fatal(err)
	}
	err := db.Update(ctx, func(w session.Writer) error {
		s.Objective = "half"
		if err := w.UpdateSession(ctx, s); err != nil {
			return err
		}
		if err := w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "half-1"}); err != nil {
			return err
		}
		if err := cluster.Stop("immediate"); err != nil {
			t.Fatal(err)
		}
		return w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "half-2"})
	})
	if err == nil {
		t.Fatal("Update succeeded with the server stopped")
	}
	if !errors.Is(err, ErrConnectionLost) || !strings.Contains(err.Error(), "nothing of this transaction was recorded") {
		t.Errorf("error %q: want it to say the connection was lost and nothing was recorded", err)
	}
	if strings.Contains(err.Error(), pgtest.Password) {
		t.Errorf("error %q shows the password", err)
	}
	if err := cluster.Restart(); err != nil {
		t.Fatal(err)
	}
	// The pool drops its dead connections and reconnects.
	var got *session.Session
	for i := 0; ; i++ {
		got, err = db.GetSession(ctx, s.ID)
		if err == nil || i == 20 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	if got.Objective != "before" {
		t.Errorf("objective %q after the failed transaction, want %q", got.Objective, "before")
	}
	evs, err := db.ListEvents(ctx, s.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].Token != "committed" {
		t.Errorf("events after restart: %+v, want only the committed one", evs)
	}
	// And the store writes again.
	if err := db.Update(ctx, func(w session.Writer) error {
		return w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "after"})
	}); err != nil {
		t.Errorf("Update after restart: %v", err)
	}
}

// BenchmarkStore is the store benchmark shared with the SQLite store
// (store/storetest.Bench), on the throwaway cluster (fsync off).
func BenchmarkStore(b *testing.B) {
	storetest.Bench(b, func(b *testing.B) session.Store { return openTest(b) })
}

// TestReadsInsideUpdateDoNotStarve: while writers queue for the write
// lock, a transaction's function can still read through the store's pool
// (the engine does), so many concurrent Updates never deadlock on
// connections.
func TestReadsInsideUpdateDoNotStarve(t *testing.T) {
	db := openTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var s *session.Session
	if err := db.Update(ctx, func(w session.Writer) error {
		r, err := w.EnsureRepository(ctx, "/r", "r")
		if err != nil {
			return err
		}
		s = &session.Session{RepoID: r.ID, Worktree: "/r", State: session.StateWorking}
		return w.CreateSession(ctx, s)
	}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- db.Update(ctx, func(w session.Writer) error {
				if _, err := db.GetSession(ctx, s.ID); err != nil { // outside the transaction
					return err
				}
				return w.AppendEvent(ctx, &session.Event{SessionID: s.ID, Token: "t"})
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestMigrationKeepsConcurrentIndex: the migrator runs every pending
// migration in one transaction, where CREATE INDEX CONCURRENTLY cannot
// run, so 0013's index is built with a lock that holds event writes while
// it builds. A team with a large events table builds it beforehand with
// CONCURRENTLY (docs/team.md); the migration must then take that index as
// it is, not fail on it ("relation events_calls already exists").
func TestMigrationKeepsConcurrentIndex(t *testing.T) {
	u := newURL(t)
	ctx := context.Background()
	db := openURL(t, u)
	// A database at version 12 whose operator built 0013's index by hand
	// (0014, the open calls' counts, undone as well).
	undo14 := []string{`DROP TRIGGER open_calls_count ON events`, `DROP FUNCTION open_calls_count()`, `DROP TABLE open_calls`}
	for _, q := range append(undo14,
		`DROP INDEX events_calls`,
		`UPDATE schema_version SET version = 12`,
		`CREATE INDEX CONCURRENTLY events_calls ON events (session_id, token, detail COLLATE "C") WHERE token IN ('agent:claude:judged', 'agent:codex:judged', 'agent:gemini:judged', 'agent:cursor:judged', 'agent:copilot:judged', 'agent:result', 'agent:unreported')`,
	) {
		if _, err := db.pool.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	migrateAgain := func(what string) {
		t.Helper()
		again, err := Open(ctx, u)
		if err != nil {
			t.Fatalf("migrating past %s: %v", what, err)
		}
		again.Close()
		ms, _ := loadMigrations(migrationFS)
		if v, err := schemaVersion(ctx, db.pool); err != nil || v != len(ms) {
			t.Errorf("%s: schema version %d, %v; want %d", what, v, err, len(ms))
		}
		var n int
		var valid bool
		if err := db.pool.QueryRow(ctx, `SELECT count(*), bool_and(indisvalid) FROM pg_index WHERE indexrelid = to_regclass('events_calls')`).Scan(&n, &valid); err != nil || n != 1 || !valid {
			t.Errorf("%s: events_calls indexes %d, valid %v, %v; want one valid", what, n, valid, err)
		}
	}
	migrateAgain("a hand-built events_calls")
	// A concurrent build that failed leaves its index invalid (unused by
	// the planner): the migration builds it again.
	for _, q := range append(undo14,
		`UPDATE schema_version SET version = 12`,
		`UPDATE pg_index SET indisvalid = false WHERE indexrelid = to_regclass('events_calls')`,
	) {
		if _, err := db.pool.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	migrateAgain("an invalid events_calls")
}
