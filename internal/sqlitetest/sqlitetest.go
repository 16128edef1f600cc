// Package sqlitetest gives tests a fresh SQLite store without paying for the
// schema migrations each time: under -race (which also turns on checkptr)
// modernc.org/sqlite's transpiled C parses every migration's SQL slowly,
// about a quarter of a CPU second per store on the 2-core CI runner, and
// the engine's tests open hundreds of stores. The migrations themselves
// run once per test process here, through store.Open, and are tested on
// empty files in package store.
package sqlitetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/sessiongate/sessiongate/store"
)

var template = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "sessiongate-store-template-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "sg.db")
	db, err := store.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	// Closing the last connection checkpoints the WAL into the file and
	// removes it: the file alone is the whole migrated store.
	if err := db.Close(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return nil, fmt.Errorf("store template: %s-wal left after close", path)
	}
	return os.ReadFile(path)
})

// Path writes a copy of an empty, migrated SQLite store into a new
// t.TempDir() and returns its path, mode 0600 as store.Open creates it.
func Path(t testing.TB) string {
	t.Helper()
	b, err := template()
	if err != nil {
		t.Fatalf("store template: %v", err)
	}
	p := filepath.Join(t.TempDir(), "sg.db")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Open opens a copy of the migrated template (see Path) with store.Open
// and closes it when t ends.
func Open(t testing.TB) (*store.DB, string) {
	t.Helper()
	p := Path(t)
	db, err := store.Open(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, p
}
