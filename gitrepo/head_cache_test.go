package gitrepo

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestHeadCacheFollowsGit: one long-lived Repo reads HEAD after each of
// the ways git moves it (commit, branch switch, pack-refs, update-ref, a
// detached HEAD, a commit there, two commits in a row) and always agrees
// with git; a HEAD read again without a change comes from the cache.
func TestHeadCacheFollowsGit(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	root := gittest.New(t, map[string]string{"a.txt": "a\n"})
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	check := func(step string) {
		t.Helper()
		commit, branch, err := r.Head(ctx)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if want := gittest.Git(t, root, "rev-parse", "HEAD"); commit != want {
			t.Errorf("%s: HEAD %s, git says %s", step, commit, want)
		}
		if want := gittest.Git(t, root, "branch", "--show-current"); branch != want {
			t.Errorf("%s: branch %q, git says %q", step, branch, want)
		}
	}
	commit := func(msg string) { gittest.Git(t, root, "commit", "-q", "--allow-empty", "-m", msg) }
	check("start")
	if r.headCache.valid {
		t.Fatal("the first read was cached (a hook process reads HEAD once: the cache would only cost it)")
	}
	check("second read")
	if !r.headCache.valid {
		t.Fatal("the second read was not cached")
	}
	check("unchanged")
	commit("one")
	check("a commit")
	commit("two")
	commit("three")
	check("two commits in a row")
	gittest.Git(t, root, "checkout", "-q", "-b", "other")
	check("a new branch")
	commit("on other")
	check("a commit on the new branch")
	gittest.Git(t, root, "pack-refs", "--all")
	check("refs packed")
	commit("after packing")
	check("a commit after packing")
	gittest.Git(t, root, "update-ref", "refs/heads/other", "HEAD~2")
	check("update-ref")
	gittest.Git(t, root, "checkout", "-q", "--detach", "HEAD~1")
	check("detached")
	commit("detached commit")
	check("a commit on a detached HEAD")
	gittest.Git(t, root, "checkout", "-q", "main")
	check("back on main")
}

// TestHeadCacheConcurrentReaders: readers on one Repo (an MCP server's
// concurrent tool calls) no longer hold the lock across the stats; while
// git moves HEAD under them every answer is a commit git made, and once it
// stops every reader agrees with git.
func TestHeadCacheConcurrentReaders(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	root := gittest.New(t, map[string]string{"a.txt": "a\n"})
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	made := map[string]bool{gittest.Git(t, root, "rev-parse", "HEAD"): true}
	var mu sync.Mutex
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var bad atomic.Value
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				c, _, err := r.Head(ctx)
				mu.Lock()
				ok := err == nil && made[c]
				mu.Unlock()
				if !ok {
					bad.Store(fmt.Sprintf("HEAD %q (%v), not a commit git made", c, err))
				}
			}
		}()
	}
	for i := range 8 {
		// The commit is known before HEAD can name it.
		mu.Lock()
		tree := gittest.Git(t, root, "write-tree")
		parent := gittest.Git(t, root, "rev-parse", "HEAD")
		c := gittest.Git(t, root, "commit-tree", tree, "-p", parent, "-m", fmt.Sprint("c", i))
		made[c] = true
		mu.Unlock()
		gittest.Git(t, root, "update-ref", "refs/heads/main", c)
		if i == 4 {
			gittest.Git(t, root, "pack-refs", "--all")
		}
	}
	close(stop)
	wg.Wait()
	if s, _ := bad.Load().(string); s != "" {
		t.Fatal(s)
	}
	want := gittest.Git(t, root, "rev-parse", "HEAD")
	for range 3 {
		if c, _, err := r.Head(ctx); err != nil || c != want {
			t.Fatalf("after the moves: HEAD %s (%v), git says %s", c, err, want)
		}
	}
}
