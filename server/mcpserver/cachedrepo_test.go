package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// Moved from gitrepo/cache_test.go (round 28): it needs a store, and
// gitrepo's tests then linked SQLite, which CI's fuzz step compiled with
// fuzzing instrumentation for gitrepo's fuzz targets.

// The repository a server shares between requests (CachedOpen) runs every
// check the CLI's does: a protocol that forbids work on main fails a
// session on main over MCP too (it used to be skipped there, a shared
// wrapper lacking the default-branch read: a gate passed without the work).
func TestSharedRepoRunsEveryCheck(t *testing.T) {
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "initial", map[string]string{"SESSION-PROTOCOL.md": `# P

## Session Start

### Phase 1: Branch (BLOCKING)

1. The agent MUST NOT work on the main branch.

## Session End

### Phase 1: Notes (OPTIONAL)

1. The agent SHOULD write notes.
`})
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "sg.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	open := gitrepo.CachedOpen()
	eng := session.NewEngine(db, session.Config{CommandTimeout: 10 * time.Minute}, open)
	repo, err := open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	proto, err := os.ReadFile(filepath.Join(dir, "SESSION-PROTOCOL.md"))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := eng.LoadSpec(ctx, "SESSION-PROTOCOL.md", proto)
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Start(ctx, session.StartRequest{Repo: repo, Spec: spec, Objective: "on main"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := eng.ValidateGate(ctx, res.SessionID, "")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range g.Checks {
		if c.Kind == protocolspec.CheckNotDefaultBranch {
			found = true
			if c.Status != session.StatusFail {
				t.Errorf("not-on-main check through the shared repository: %s (%s), want FAIL", c.Status, c.Message)
			}
		}
	}
	if !found {
		t.Fatalf("no not-on-main check was inferred: %+v", g.Checks)
	}
}
