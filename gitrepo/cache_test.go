package gitrepo_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestSharedRepoRunsEveryCheck, which needs a store (SQLite), is in
// server/mcpserver: gitrepo's test binary links no SQLite, so CI's fuzz
// step (FuzzParseLog, FuzzWorktreeIndex, FuzzParseIndexFlagged) does not
// compile SQLite's C translation with fuzzing instrumentation
// (docs/benchmarks.md, "CI time, round 28").

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

// gitrepo's test binary, which CI's fuzz step builds with every dependency
// fuzz-instrumented, links no SQLite: its C translation is the largest
// compile in the module (docs/benchmarks.md, "CI time, round 28").
func TestTestsLinkNoSQLite(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-test", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps -test .: %v\n%s", err, out)
	}
	var sqlite []string
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "modernc.org/") {
			sqlite = append(sqlite, p)
		}
	}
	if len(sqlite) > 0 {
		t.Errorf("gitrepo's tests link SQLite (%s): a test needing a store belongs in a package that has one (as server/mcpserver's cachedrepo_test.go)", strings.Join(sqlite, ", "))
	}
}
