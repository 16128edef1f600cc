package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// openTest opens a fresh store in t.TempDir() and closes it at cleanup.
func openTest(t testing.TB) *DB {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "sessiongate.db"))
}

func openAt(t testing.TB, path string) *DB {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

// update runs fn in db.Update and fails the test on error.
func update(t testing.TB, db *DB, fn func(w session.Writer) error) {
	t.Helper()
	if err := db.Update(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

// newSession stores a repository and a session in it and returns the session.
func newSession(t testing.TB, db *DB, root string) *session.Session {
	t.Helper()
	var s *session.Session
	update(t, db, func(w session.Writer) error {
		repo, err := w.EnsureRepository(context.Background(), root, filepath.Base(root))
		if err != nil {
			return err
		}
		s = &session.Session{RepoID: repo.ID, Worktree: root, Branch: "main", State: session.StateInit}
		return w.CreateSession(context.Background(), s)
	})
	return s
}

func pragma[T any](t *testing.T, q querier, name string) T {
	t.Helper()
	var v T
	if err := q.QueryRowContext(context.Background(), "PRAGMA "+name).Scan(&v); err != nil {
		t.Fatalf("PRAGMA %s: %v", name, err)
	}
	return v
}

func TestPragmasOnEveryConnection(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	// Hold several read connections at once so the check covers more than
	// the first connection of the pool.
	var conns []*sql.Conn
	for range 3 {
		c, err := db.read.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	w, err := db.writer.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	for i, c := range append(conns, w) {
		name := fmt.Sprintf("read conn %d", i)
		if c == w {
			name = "writer"
		}
		t.Run(name, func(t *testing.T) {
			if got := pragma[string](t, c, "journal_mode"); got != "wal" {
				t.Errorf("journal_mode = %q, want wal", got)
			}
			if got := pragma[int](t, c, "foreign_keys"); got != 1 {
				t.Errorf("foreign_keys = %d, want 1", got)
			}
			if got := pragma[int](t, c, "busy_timeout"); got != 5000 {
				t.Errorf("busy_timeout = %d, want 5000", got)
			}
			if got := pragma[int](t, c, "synchronous"); got != 1 {
				t.Errorf("synchronous = %d, want 1 (NORMAL)", got)
			}
			wantQueryOnly := 1
			if c == w {
				wantQueryOnly = 0
			}
			if got := pragma[int](t, c, "query_only"); got != wantQueryOnly {
				t.Errorf("query_only = %d, want %d", got, wantQueryOnly)
			}
		})
	}
}

// TestUpdateIsBeginImmediate checks that Update holds the write lock before
// its first write: a deferred BEGIN would take no lock until then.
func TestUpdateIsBeginImmediate(t *testing.T) {
	db := openTest(t)
	other, err := sql.Open("sqlite", "file:"+escapeURIPath(db.Path())+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.SetMaxOpenConns(1)
	ctx := context.Background()

	update(t, db, func(w session.Writer) error {
		// Only a read so far.
		if _, err := w.GetSession(ctx, "00000000-0000-4000-8000-000000000000"); !errors.Is(err, session.ErrNotFound) {
			return fmt.Errorf("GetSession: %v", err)
		}
		_, err := other.ExecContext(ctx, "BEGIN IMMEDIATE")
		if err == nil {
			other.ExecContext(ctx, "ROLLBACK")
			t.Error("another connection took the write lock while Update was running: Update did not BEGIN IMMEDIATE")
		} else if !strings.Contains(err.Error(), "locked") && !strings.Contains(err.Error(), "busy") {
			t.Errorf("BEGIN IMMEDIATE elsewhere: %v, want database is locked", err)
		}
		return nil
	})
	// Released after Update.
	if _, err := other.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatalf("after Update: %v", err)
	}
	other.ExecContext(ctx, "ROLLBACK")
}

func TestOpenCreatesPrivateFolderAndFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "common", "sessiongate")
	path := filepath.Join(dir, "sessiongate.db")
	db := openAt(t, path)
	newSession(t, db, "/repo") // a write, so the -wal file exists

	for _, c := range []struct {
		path string
		want os.FileMode
	}{
		{filepath.Dir(dir), 0o700 | os.ModeDir},
		{dir, 0o700 | os.ModeDir},
		{path, 0o600},
		{path + "-wal", 0o600},
		{path + "-shm", 0o600},
	} {
		fi, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode(); got != c.want {
			t.Errorf("%s: mode %v, want %v", c.path, got, c.want)
		}
	}
}

func TestOpenPathWithURICharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a b?c#d%20e&_txlock=x")
	path := filepath.Join(dir, "s.db")
	db := openAt(t, path)
	newSession(t, db, "/repo")
	if db.Path() != path {
		t.Errorf("Path() = %q, want %q", db.Path(), path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() == 0 && !fileExists(path+"-wal") {
		t.Errorf("%s: nothing written", path)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "s.db") {
			t.Errorf("unexpected file %q in %s: the path was mangled", e.Name(), dir)
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("this is not an SQLite database\n", 200)), 0o600); err != nil {
		t.Fatal(err)
	}
	aDir := filepath.Join(dir, "adir")
	if err := os.Mkdir(aDir, 0o700); err != nil {
		t.Fatal(err)
	}
	aFile := filepath.Join(dir, "afile")
	if err := os.WriteFile(aFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	newer := filepath.Join(dir, "newer.db")
	raw, err := sql.Open("sqlite", "file:"+newer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	ms, err := loadMigrations(migrationFS)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, want string
	}{
		{"empty path", "", "open store: empty path"},
		{"not a database", garbage, "not a database"},
		{"a directory", aDir, "open file"},
		{"folder is a file", filepath.Join(aFile, "x.db"), "create folder"},
		{"newer schema", newer, fmt.Sprintf("database schema version 99 is newer than this sessiongate knows (%d): upgrade sessiongate", len(ms))},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, err := Open(context.Background(), c.path)
			if err == nil {
				db.Close()
				t.Fatalf("Open(%q) succeeded, want an error", c.path)
			}
			t.Log(err)
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not contain %q", err, c.want)
			}
			if c.path != "" && !strings.HasPrefix(err.Error(), "open store "+c.path+": ") {
				t.Errorf("error %q does not start with \"open store %s: \"", err, c.path)
			}
		})
	}
}

// TestOpenUnreadableFile: a sessiongate database that SQLite cannot read
// is refused with an error naming it and is left byte for byte as it was,
// never "repaired" or overwritten. The damaged header runs everywhere, root
// included (CI runs as root); TestOpenErrors covers text that is not a
// database, a folder where the file should be and a file in the folder's way.
func TestOpenUnreadableFile(t *testing.T) {
	readBytes := func(t *testing.T, path string) []byte {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct {
		name string
		// spoil makes the database at path unreadable and returns the
		// bytes it must still hold after a refused Open.
		spoil func(t *testing.T, path string) []byte
		// readable undoes what stops the test itself reading the file.
		readable func(t *testing.T, path string)
		want     string
	}{
		{name: "damaged header", want: "file is not a database", spoil: func(t *testing.T, path string) []byte {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			// Only the 16-byte magic "SQLite format 3\x00"; the pages stay real.
			if _, err := f.WriteAt([]byte("NotSQLite form 3"), 0); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			return readBytes(t, path)
		}},
		{name: "no read permission", spoil: func(t *testing.T, path string) []byte {
			if os.Geteuid() == 0 {
				t.Skip("running as root: file permissions do not stop reads (the damaged header case covers root)")
			}
			b := readBytes(t, path)
			if err := os.Chmod(path, 0); err != nil {
				t.Fatal(err)
			}
			return b
		}, readable: func(t *testing.T, path string) {
			if err := os.Chmod(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sessiongate.db")
			db, err := Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			newSession(t, db, "/repo")
			// Close checkpoints the WAL, so the one file holds everything.
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if fileExists(path + "-wal") {
				t.Fatalf("%s-wal is left after Close: spoiling the main file would not spoil the database", path)
			}
			want := c.spoil(t, path)

			db, err = Open(context.Background(), path)
			if err == nil {
				db.Close()
				t.Fatal("Open of an unreadable database succeeded")
			}
			t.Log(err)
			if !strings.HasPrefix(err.Error(), "open store "+path+": ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want \"open store %s: ...%s...\"", err, path, c.want)
			}
			if c.readable != nil {
				c.readable(t, path)
			}
			if got := readBytes(t, path); string(got) != string(want) {
				t.Errorf("Open changed the file it refused (%d bytes before, %d after)", len(want), len(got))
			}
		})
	}
}

func TestMigrateTwiceIsNoOp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	ctx := context.Background()
	db := openAt(t, path)
	s := newSession(t, db, "/repo")
	schema := func() string {
		rows, err := db.read.Query("SELECT type, name, coalesce(sql, '') FROM sqlite_schema ORDER BY name")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for rows.Next() {
			var typ, name, sql string
			if err := rows.Scan(&typ, &name, &sql); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s %s %s\n", typ, name, sql)
		}
		return b.String()
	}
	before := schema()
	if err := db.migrate(ctx); err != nil {
		t.Fatalf("second migrate: %v", err)
	}
	// Also the slow path, under the write lock.
	ms, _ := loadMigrations(migrationFS)
	if err := db.applyMigration(ctx, ms[0], len(ms)); err != nil {
		t.Fatalf("re-apply migration 1: %v", err)
	}
	if after := schema(); after != before {
		t.Errorf("schema changed by a second migrate:\n%s\nwant\n%s", after, before)
	}
	db.Close()

	db2 := openAt(t, path)
	if got := pragma[int](t, db2.read, "user_version"); got != len(ms) {
		t.Errorf("user_version = %d, want %d", got, len(ms))
	}
	if _, err := db2.GetSession(ctx, s.ID); err != nil {
		t.Errorf("session lost on reopen: %v", err)
	}
}

func TestLoadMigrations(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	for _, c := range []struct {
		name    string
		fs      fstest.MapFS
		want    []int
		wantErr string
	}{
		{"ordered", fstest.MapFS{"migrations/0002_b.sql": file("b"), "migrations/0001_a.sql": file("a"), "migrations/0010_c.txt": file("x")}, []int{1, 2}, ""},
		{"none", fstest.MapFS{}, nil, ""},
		{"gap", fstest.MapFS{"migrations/0001_a.sql": file("a"), "migrations/0003_c.sql": file("c")}, nil, "0003_c.sql: want version 2"},
		{"duplicate", fstest.MapFS{"migrations/0001_a.sql": file("a"), "migrations/001_b.sql": file("b")}, nil, "want version 2"},
		{"no number", fstest.MapFS{"migrations/init.sql": file("a")}, nil, "name must be NNNN_description.sql"},
		{"zero", fstest.MapFS{"migrations/0000_a.sql": file("a")}, nil, "name must be NNNN_description.sql"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ms, err := loadMigrations(c.fs)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, m := range ms {
				got = append(got, m.version)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("versions %v, want %v", got, c.want)
			}
		})
	}
	// The embedded ones load.
	if ms, err := loadMigrations(migrationFS); err != nil || len(ms) == 0 {
		t.Fatalf("embedded migrations: %d, %v", len(ms), err)
	}
}

func TestTimeRoundTrip(t *testing.T) {
	for _, tm := range []time.Time{
		{},
		time.Date(2026, 7, 28, 12, 34, 56, 123456789, time.UTC),
		time.Date(2026, 7, 28, 12, 34, 56, 1, time.FixedZone("X", 3600)),
	} {
		got := fromNanos(nanos(tm))
		if !got.Equal(tm) || got.IsZero() != tm.IsZero() {
			t.Errorf("%v -> %d -> %v", tm, nanos(tm), got)
		}
	}
}

// OpenSingle shares one connection between reads and Update: its writes
// are read back outside the transaction, the pragmas hold, and Close
// releases the file (a second process can take the write lock at once).
func TestOpenSingle(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessiongate.db")
	db, err := OpenSingle(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if db.read != db.writer {
		t.Fatal("OpenSingle opened a separate read pool")
	}
	c, err := db.writer.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := pragma[string](t, c, "journal_mode"); got != "wal" {
		t.Errorf("journal_mode = %q, want wal", got)
	}
	if got := pragma[int](t, c, "busy_timeout"); got != 5000 {
		t.Errorf("busy_timeout = %d, want 5000", got)
	}
	c.Close()
	var repoID int64
	if err := db.Update(ctx, func(w session.Writer) error {
		r, err := w.EnsureRepository(ctx, "/tmp/single", "single")
		repoID = r.ID
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if r, err := db.GetRepository(ctx, repoID); err != nil || r.Name != "single" {
		t.Fatalf("read after Update: %+v, %v", r, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	other := openAt(t, path)
	if err := other.Update(ctx, func(w session.Writer) error {
		_, err := w.EnsureRepository(ctx, "/tmp/other", "other")
		return err
	}); err != nil {
		t.Fatalf("write after Close: %v", err)
	}
}
