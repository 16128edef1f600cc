package gitrepo_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

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

// One Repo serves concurrent engine calls (go test -race): the go-git reads
// (HEAD in a layout the files do not answer, the log) and the git
// processes at once, with the same answers as one at a time.
func TestRepoConcurrentUse(t *testing.T) {
	dir := gittest.New(t, nil)
	first := gittest.Git(t, dir, "rev-parse", "HEAD")
	gittest.Commit(t, dir, "second", map[string]string{"b.txt": "b\n"})
	gittest.Git(t, dir, "pack-refs", "--all")
	gittest.Git(t, dir, "remote", "add", "origin", "git@example.com:team/proj.git")
	ctx := context.Background()
	r, err := gitrepo.CachedOpen()(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	wantHead, _, err := r.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			head, branch, err := r.Head(ctx)
			if err != nil || head != wantHead || branch != "main" {
				errs <- fmt.Errorf("Head %q %q %v, want %q main", head, branch, err, wantHead)
			}
			cs, err := r.CommitsSince(ctx, first)
			if err != nil || len(cs) != 1 || cs[0] != wantHead {
				errs <- fmt.Errorf("CommitsSince %v %v, want [%s]", cs, err, wantHead)
			}
			if n := r.Name(); n != "proj" {
				errs <- fmt.Errorf("Name %q, want proj (from origin)", n)
			}
			if _, err := r.ChangedFiles(ctx, first); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
