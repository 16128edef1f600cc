//go:build linux

package gitrepo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// The per-call costs of a long-lived Repo's gate checks, counted (round 25).

// TestKeyOfAllocs: the head cache's three stats a call (HEAD, the branch's
// ref, packed-refs) allocate nothing; os.Lstat made a FileInfo and a name
// for each.
func TestKeyOfAllocs(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "HEAD")
	if err := os.WriteFile(p, []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if k := keyOf(newStatPath(p)); !k.exists || k.size != 21 || k.ino == 0 || k.mtime == 0 {
		t.Fatalf("keyOf(%s) = %+v", p, k)
	}
	if k := keyOf(newStatPath(filepath.Join(dir, "absent"))); k != (fileKey{}) {
		t.Fatalf("keyOf of an absent file = %+v, want the zero key", k)
	}
	sp := newStatPath(p)
	if n := testing.AllocsPerRun(100, func() { keyOf(sp) }); n != 0 {
		t.Errorf("keyOf allocates %.0f times a call, want 0", n)
	}
}

// TestHeadFromFilesAllocs: a kept HEAD is answered with its three stats
// and nothing allocated (the paths were joined on every call).
func TestHeadFromFilesAllocs(t *testing.T) {
	gittest.Require(t)
	root := gittest.New(t, map[string]string{"a.txt": "a\n"})
	r, err := Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 { // the first read is not kept (a hook reads HEAD once)
		if _, _, ok := r.headFromFiles(); !ok {
			t.Fatal("HEAD not read from its files")
		}
	}
	if n := testing.AllocsPerRun(100, func() { r.headFromFiles() }); n != 0 {
		t.Errorf("a kept HEAD allocates %.0f times a call, want 0", n)
	}
}

// TestConfigFilesPerEnvironment: the config files are listed once per
// environment (no paths built on every call), and a change of any
// variable they depend on lists them again (a GIT_CONFIG_GLOBAL set later
// is stamped, not the old file).
func TestConfigFilesPerEnvironment(t *testing.T) {
	r := emptyRepo(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	first, ok := r.configFilesFor(configEnv())
	if !ok || !slices.Contains(first, filepath.Join(home, ".gitconfig")) {
		t.Fatalf("config files %v (ok %v): no ~/.gitconfig", first, ok)
	}
	env := configEnv()
	if n := testing.AllocsPerRun(100, func() { r.configFilesFor(env) }); n != 0 {
		t.Errorf("the same environment's list allocates %.0f times a call, want 0", n)
	}
	other := filepath.Join(t.TempDir(), "global")
	t.Setenv("GIT_CONFIG_GLOBAL", other)
	got, _ := r.configFilesFor(configEnv())
	if !slices.Contains(got, other) || slices.Contains(got, filepath.Join(home, ".gitconfig")) {
		t.Errorf("after GIT_CONFIG_GLOBAL=%s the list is %v", other, got)
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "maybe") // git refuses it: not cacheable
	if _, ok := r.configFilesFor(configEnv()); ok {
		t.Error("a GIT_CONFIG_NOSYSTEM git refuses was kept as cacheable")
	}
}

// TestIndexStampedOncePerCall: within one call snapshot the staged files'
// cache and the skip-worktree reading share one stat of the index; a new
// call stats it again and sees a change (the honest twin: an index
// rewritten between calls is read afresh, and a file flagged in it is
// found).
func TestIndexStampedOncePerCall(t *testing.T) {
	gittest.Require(t)
	root := gittest.New(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	ctx := context.Background()
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	saved := racyWindow
	racyWindow = 0
	t.Cleanup(func() { racyWindow = saved })
	call := WithCallSnapshot(ctx)
	st1, at1 := r.indexStamp(call, filepath.Join(r.gitDir, "index"))
	if st1 == ([stampLen]byte{}) {
		t.Fatal("no stamp of the index")
	}
	if _, ok := r.indexFlagged(call); !ok {
		t.Fatal("index not read")
	}
	// The index moves within the call: the call keeps its first stamp.
	time.Sleep(10 * time.Millisecond)
	if out, err := exec.Command("git", "-C", root, "update-index", "--skip-worktree", "a.txt").CombinedOutput(); err != nil {
		t.Fatalf("git update-index: %v\n%s", err, out)
	}
	if st, at := r.indexStamp(call, filepath.Join(r.gitDir, "index")); st != st1 || !at.Equal(at1) {
		t.Error("a second stat of the index within one call")
	}
	// The next call sees the flagged entry.
	next := WithCallSnapshot(ctx)
	entries, ok := r.indexFlagged(next)
	if !ok || entries["a.txt"].how != "skip-worktree" {
		t.Errorf("the next call's reading: %v (ok %v), want a.txt skip-worktree", entries, ok)
	}
	// Without a snapshot (a hook, the CLI) every reading stats afresh.
	if st, _ := r.indexStamp(ctx, filepath.Join(r.gitDir, "index")); st == st1 {
		t.Error("without a snapshot the old stamp was returned")
	}
}
