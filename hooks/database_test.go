package hooks_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/hooks"
)

// A database that cannot exist where it is configured fails closed: the
// commit is refused with the path and the fix, and nothing is created.
// SESSIONGATE_DB goes through the real `git commit`; --db is Runtime.DBPath,
// which `sessiongate hook` fills from the flag.
func TestDatabaseFolderCannotBeCreated(t *testing.T) {
	tests := []struct {
		name string
		run  func(r *repo, db string) (code int, stderr string)
	}{
		{name: "SESSIONGATE_DB", run: func(r *repo, db string) (int, string) {
			res := r.commit(r.root, []string{"SESSIONGATE_DB=" + db}, "-m", "x")
			return res.code, res.err
		}},
		{name: "--db", run: func(r *repo, db string) (int, string) {
			var stderr bytes.Buffer
			rt := &hooks.Runtime{Dir: r.root, DBPath: db, Getenv: func(string) string { return "" }, Stderr: &stderr}
			return rt.Run(context.Background(), "pre-commit", nil), stderr.String()
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			head := r.head(r.root)
			// The database's folder would have to be made under a regular file.
			dir := t.TempDir()
			plain := filepath.Join(dir, "file.txt")
			writeFile(t, plain, "keep me\n")
			db := filepath.Join(plain, "sub", "sg.db")

			code, stderr := tc.run(r, db)
			if code != 1 {
				t.Fatalf("exit %d, want 1 (blocked)\n%s", code, stderr)
			}
			for _, want := range []string{
				"commit blocked (pre-commit hook)",
				"sessiongate cannot check this commit",
				db,                   // which database
				"not a directory",    // why
				"sessiongate doctor", // the fix
				"SESSIONGATE_DB / --db",
			} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if got := r.head(r.root); got != head {
				t.Errorf("HEAD moved to %s: the commit landed", got)
			}
			if got := readFile(t, plain); got != "keep me\n" {
				t.Errorf("the file in the way was changed: %q", got)
			}
		})
	}
}

// A default database deleted after install is not an error the hook can
// report: it is re-created empty, so the session it held is gone and
// require_session blocks the commit with the command that starts one.
func TestDefaultDatabaseDeleted(t *testing.T) {
	tests := []struct {
		name   string
		delete func(t *testing.T, db string)
	}{
		{name: "database files", delete: func(t *testing.T, db string) {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				if err := os.Remove(db + suffix); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
			}
		}},
		{name: "database folder", delete: func(t *testing.T, db string) {
			if err := os.RemoveAll(filepath.Dir(db)); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			db := filepath.Join(r.git("rev-parse", "--path-format=absolute", "--git-common-dir"), "sessiongate", "sessiongate.db")
			// With its session WORKING the commit lands: the database is what it needs.
			r.startWorking(r.root)
			if _, err := os.Stat(db); err != nil {
				t.Fatalf("the default database is not where the hook looks: %v", err)
			}
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			if res := r.commit(r.root, nil, "-m", "with a session"); res.code != 0 {
				t.Fatalf("commit with a WORKING session: exit %d\n%s", res.code, res.err)
			}

			tc.delete(t, db)
			writeFile(t, filepath.Join(r.root, "b.txt"), "b\n")
			r.git("add", "b.txt")
			head := r.head(r.root)
			res := r.commit(r.root, nil, "-m", "after the database is gone")
			if res.code != 1 {
				t.Fatalf("exit %d, want 1 (blocked)\n%s", res.code, res.err)
			}
			for _, want := range []string{
				"commit blocked (pre-commit hook)",
				"require_session: true",
				"no session has been started in this repository",
				`sessiongate session start --objective "..."`, // the fix
			} {
				if !strings.Contains(res.err, want) {
					t.Errorf("stderr lacks %q:\n%s", want, res.err)
				}
			}
			if got := r.head(r.root); got != head {
				t.Errorf("HEAD moved to %s: the commit landed", got)
			}
			if _, err := os.Stat(db); err != nil {
				t.Errorf("the hook did not re-create the default database: %v", err)
			}
		})
	}
}
