package gitrepo_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is required under CI=true but was not found")
		}
		t.Skip("git not found: install git to run these tests")
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func TestUnbornThenCommits(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q", "-b", "trunk")
	r, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	head, branch, err := r.Head(ctx)
	if err != nil || head != "" || branch != "trunk" {
		t.Fatalf("unborn HEAD: %q %q %v", head, branch, err)
	}
	gittest.Write(t, dir, "a.txt", "a")
	changed, err := r.ChangedFiles(ctx, "")
	if err != nil || !reflect.DeepEqual(changed, []string{"a.txt"}) {
		t.Fatalf("changed on unborn: %v %v", changed, err)
	}
	gittest.Git(t, dir, "add", "a.txt")
	gittest.Git(t, dir, "commit", "-q", "-m", "one")
	first := gittest.Git(t, dir, "rev-parse", "HEAD")
	cs, err := r.CommitsSince(ctx, "")
	if err != nil || len(cs) != 1 || cs[0] != first {
		t.Fatalf("commits since unborn: %v %v", cs, err)
	}
	gittest.Write(t, dir, "b.txt", "b")
	gittest.Git(t, dir, "add", "b.txt")
	gittest.Git(t, dir, "commit", "-q", "-m", "two")
	gittest.Write(t, dir, "a.txt", "a2")           // unstaged
	gittest.Write(t, dir, "new/c.txt", "c")        // untracked
	gittest.Write(t, dir, ".gitignore", "*.log\n") // untracked
	gittest.Write(t, dir, "x.log", "ignored")
	changed, err = r.ChangedFiles(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sorted(changed), []string{".gitignore", "a.txt", "b.txt", "new/c.txt"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("changed since first: %v, want %v", got, want)
	}
	cs, _ = r.CommitsSince(ctx, first)
	if len(cs) != 1 {
		t.Fatalf("commits since first: %v", cs)
	}
	st, err := r.Status(ctx)
	if err != nil || len(st) == 0 {
		t.Fatalf("status: %v %v", st, err)
	}
}

// TestStagedHonoursIndexFile: `git commit <path>` runs hooks with a
// temporary GIT_INDEX_FILE; the staged list must come from it.
func TestStagedHonoursIndexFile(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q", "-b", "main")
	gittest.Write(t, dir, "a.txt", "a")
	gittest.Write(t, dir, "b.txt", "b")
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "init")
	gittest.Write(t, dir, "a.txt", "a2")
	gittest.Write(t, dir, "b.txt", "b2")
	gittest.Git(t, dir, "add", "a.txt")
	r, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	staged, err := r.StagedFiles(ctx)
	if err != nil || !reflect.DeepEqual(staged, []string{"a.txt"}) {
		t.Fatalf("staged: %v %v", staged, err)
	}
	// An alternate index with only b.txt staged.
	alt := filepath.Join(t.TempDir(), "index")
	gittest.GitEnv(t, dir, []string{"GIT_INDEX_FILE=" + alt}, "read-tree", "HEAD")
	gittest.GitEnv(t, dir, []string{"GIT_INDEX_FILE=" + alt}, "add", "b.txt")
	t.Setenv("GIT_INDEX_FILE", alt)
	staged, err = r.StagedFiles(ctx)
	if err != nil || !reflect.DeepEqual(staged, []string{"b.txt"}) {
		t.Fatalf("staged with GIT_INDEX_FILE: %v %v", staged, err)
	}
}

func TestLinkedWorktree(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q", "-b", "main")
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "init")
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, dir, "worktree", "add", "-q", "-b", "feature", wt)
	main, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	linked, err := gitrepo.Open(ctx, filepath.Join(wt))
	if err != nil {
		t.Fatal(err)
	}
	if linked.CommonDir() != main.CommonDir() || linked.MainRoot() != main.MainRoot() {
		t.Fatalf("common dir %s vs %s", linked.CommonDir(), main.CommonDir())
	}
	if linked.Root() == main.Root() || linked.GitDir() == main.GitDir() {
		t.Fatal("linked worktree shares root or git dir with main")
	}
	start, branch, err := linked.Head(ctx)
	if err != nil || branch != "feature" {
		t.Fatalf("linked HEAD branch %q %v", branch, err)
	}
	// The log is read by go-git from the common dir's objects, through the
	// linked worktree's own git dir (its HEAD).
	gittest.Git(t, wt, "commit", "-q", "--allow-empty", "-m", "on feature")
	gittest.Git(t, dir, "gc", "-q") // packed, in the common dir
	gittest.Git(t, wt, "commit", "-q", "--allow-empty", "-m", "loose")
	commits, err := linked.CommitsSince(ctx, start)
	want := strings.Fields(gittest.Git(t, wt, "rev-list", start+"..HEAD"))
	if err != nil || !slices.Equal(commits, want) || len(want) != 2 {
		t.Fatalf("linked CommitsSince = %v, %v; want %v", commits, err, want)
	}
	if _, err := gitrepo.Open(ctx, t.TempDir()); err == nil {
		t.Fatal("opening a non-repository succeeded")
	}
}

// TestNameFromOrigin: clones in differently named folders share a name.
func TestNameFromOrigin(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	origin := filepath.Join(t.TempDir(), "proj.git")
	gittest.Git(t, t.TempDir(), "init", "-q", "--bare", origin)
	var names []string
	for _, folder := range []string{"proj", "my-fork"} {
		dir := filepath.Join(t.TempDir(), folder)
		gittest.Git(t, filepath.Dir(dir), "clone", "-q", origin, dir)
		r, err := gitrepo.Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, r.Name())
	}
	if names[0] != "proj" || names[1] != "proj" {
		t.Fatalf("names %v, want proj for both clones", names)
	}
	plain := filepath.Join(t.TempDir(), "plainrepo")
	gittest.Git(t, filepath.Dir(plain), "init", "-q", plain)
	r, _ := gitrepo.Open(ctx, plain)
	if r.Name() != "plainrepo" {
		t.Fatalf("no origin: %q", r.Name())
	}
}

// TestShallowCloneRangeNamesTheFetch: a range past a shallow clone's history
// says so and how to fetch more, instead of git's "bad revision".
func TestShallowCloneRangeNamesTheFetch(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	src := filepath.Join(t.TempDir(), "src")
	gittest.Git(t, t.TempDir(), "init", "-q", "-b", "main", src)
	for i := 0; i < 6; i++ {
		gittest.Git(t, src, "commit", "-q", "--allow-empty", "-m", "c")
	}
	dst := filepath.Join(t.TempDir(), "shallow")
	gittest.Git(t, t.TempDir(), "clone", "-q", "--depth", "2", "file://"+src, dst)
	r, err := gitrepo.Open(ctx, dst)
	if err != nil {
		t.Fatal(err)
	}
	if cs, err := r.Log(ctx, "HEAD~1..HEAD"); err != nil || len(cs) != 1 {
		t.Fatalf("range inside the clone: %v %v", cs, err)
	}
	_, err = r.Log(ctx, "HEAD~4..HEAD")
	if err == nil || !strings.Contains(err.Error(), "shallow clone's 2 commit(s)") || !strings.Contains(err.Error(), "git fetch --unshallow") {
		t.Fatalf("err = %v", err)
	}
	full, _ := gitrepo.Open(ctx, src)
	if _, err := full.Log(ctx, "nosuch..HEAD"); err == nil || strings.Contains(err.Error(), "shallow") {
		t.Fatalf("a bad revision in a full clone: %v", err)
	}
}

// ReadLooseCommit agrees with git on a fresh commit and its merge, and
// declines a packed one.
func TestReadLooseCommit(t *testing.T) {
	dir := t.TempDir()
	g := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T <odd>", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	g("init", "-q", "-b", "main")
	g("commit", "-q", "--allow-empty", "-m", "one")
	g("checkout", "-q", "-b", "side")
	g("commit", "-q", "--allow-empty", "-m", "two\n\nbody\n")
	g("checkout", "-q", "main")
	g("commit", "-q", "--allow-empty", "-m", "three")
	g("merge", "-q", "--no-ff", "-m", "merge", "side")
	common := filepath.Join(dir, ".git")
	for _, rev := range []string{"HEAD", "HEAD^1", "side"} {
		sha := g("rev-parse", rev)
		c, parents, ok := gitrepo.ReadLooseCommit(common, sha)
		if !ok {
			t.Fatalf("%s: not read", rev)
		}
		want := strings.Fields(g("log", "-1", "--format=%T %ct %P", sha))
		if c.SHA != sha || c.Tree != want[0] || strconv.FormatInt(c.CommitTime.Unix(), 10) != want[1] ||
			strings.Join(parents, " ") != strings.Join(want[2:], " ") || c.Parents != len(want)-2 {
			t.Errorf("%s: read %+v %v, git says %v", rev, c, parents, want)
		}
	}
	head := g("rev-parse", "HEAD")
	g("gc", "-q")
	if _, _, ok := gitrepo.ReadLooseCommit(common, head); ok {
		t.Error("a packed commit was read as loose")
	}
	if _, _, ok := gitrepo.ReadLooseCommit(common, "../../etc/passwd"); ok {
		t.Error("a path was accepted as an id")
	}
}
