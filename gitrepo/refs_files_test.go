package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// gitDefaultBranch is DefaultBranch as git answers it (the processes it
// ran before the ref files answered): origin/HEAD's target, else main or
// master; and whether that local branch exists.
func gitDefaultBranch(t *testing.T, root string) (string, bool) {
	t.Helper()
	exists := func(name string) bool {
		return exec.Command("git", "-C", root, "rev-parse", "--verify", "--quiet", "refs/heads/"+name).Run() == nil
	}
	if out, err := exec.Command("git", "-C", root, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD").Output(); err == nil {
		if name := strings.TrimPrefix(strings.TrimSpace(string(out)), "origin/"); name != "" {
			return name, exists(name)
		}
	}
	for _, name := range []string{"main", "master"} {
		if exists(name) {
			return name, true
		}
	}
	return "", false
}

// TestDefaultBranchFromFilesFollowsGit: in each ref layout the ref files
// give git's answer, or decline (and git is asked).
func TestDefaultBranchFromFilesFollowsGit(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	cases := []struct {
		name   string
		setup  func(t *testing.T, root string) string // returns the folder to open
		inProc bool
	}{
		{"main only", func(t *testing.T, root string) string { return root }, true},
		{"master only", func(t *testing.T, root string) string {
			gittest.Git(t, root, "branch", "-m", "master")
			return root
		}, true},
		{"neither main nor master", func(t *testing.T, root string) string {
			gittest.Git(t, root, "branch", "-m", "trunk")
			return root
		}, true},
		{"origin/HEAD names origin/dev, no local dev", func(t *testing.T, root string) string {
			gittest.Git(t, root, "update-ref", "refs/remotes/origin/dev", "HEAD")
			gittest.Git(t, root, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/dev")
			return root
		}, true},
		{"origin/HEAD names origin/main, local main", func(t *testing.T, root string) string {
			gittest.Git(t, root, "update-ref", "refs/remotes/origin/main", "HEAD")
			gittest.Git(t, root, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
			return root
		}, true},
		{"everything packed", func(t *testing.T, root string) string {
			gittest.Git(t, root, "update-ref", "refs/remotes/origin/dev", "HEAD")
			gittest.Git(t, root, "branch", "dev")
			gittest.Git(t, root, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/dev")
			gittest.Git(t, root, "pack-refs", "--all")
			return root
		}, true},
		{"main packed, deleted loose branch folder", func(t *testing.T, root string) string {
			gittest.Git(t, root, "pack-refs", "--all")
			os.RemoveAll(filepath.Join(root, ".git", "refs", "heads"))
			return root
		}, true},
		{"origin/HEAD not symbolic", func(t *testing.T, root string) string {
			gittest.Git(t, root, "update-ref", "--no-deref", "refs/remotes/origin/HEAD", "HEAD")
			return root
		}, true},
		{"origin/HEAD names a local branch: git is asked", func(t *testing.T, root string) string {
			gittest.Git(t, root, "branch", "dev")
			gittest.Git(t, root, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/heads/dev")
			return root
		}, false},
		{"refs/heads/main symbolic: git is asked", func(t *testing.T, root string) string {
			gittest.Git(t, root, "branch", "-m", "trunk")
			gittest.Git(t, root, "symbolic-ref", "refs/heads/main", "refs/heads/trunk")
			return root
		}, false},
		{"a linked worktree", func(t *testing.T, root string) string {
			wt := filepath.Join(t.TempDir(), "wt")
			gittest.Git(t, root, "worktree", "add", "-q", "-b", "feature", wt)
			gittest.Git(t, root, "update-ref", "refs/remotes/origin/main", "HEAD")
			gittest.Git(t, root, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
			return wt
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := gittest.New(t, nil)
			dir := c.setup(t, root)
			r, err := Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			wantName, wantLocal := gitDefaultBranch(t, dir)
			name, local, ok := r.defaultBranchFromFiles()
			if ok != c.inProc {
				t.Fatalf("the ref files answered: %v, want %v", ok, c.inProc)
			}
			if ok && (name != wantName || local != wantLocal) {
				t.Errorf("ref files: %q (local %v), git: %q (local %v)", name, local, wantName, wantLocal)
			}
			name, local, err = r.defaultBranch(ctx)
			if err != nil || name != wantName || local != wantLocal {
				t.Errorf("defaultBranch = %q, %v, %v; git: %q (local %v)", name, local, err, wantName, wantLocal)
			}
		})
	}
}

// TestReadRefFilesDeclinesReftable: a reftable repository's HEAD names
// refs/heads/.invalid; its refs are not files, so the reader declines.
func TestReadRefFilesDeclinesReftable(t *testing.T) {
	dir := t.TempDir()
	gittest.Write(t, dir, "HEAD", "ref: refs/heads/.invalid\n")
	gittest.Write(t, dir, "refs/heads/main", strings.Repeat("a", 40)+"\n") // what a file reader would wrongly take
	if st, _ := readRefFiles(dir, dir, "refs/heads/main"); st != refUnknown {
		t.Fatalf("state %v, want refUnknown", st)
	}
}

// TestIsAncestorFromObjectsFollowsGit: the in-process walk answers as
// `git merge-base --is-ancestor` with replace refs and grafts off (as every
// git sessiongate starts), loose and packed; a replace ref or grafts file
// changes neither answer (git's own would: `git replace --graft` once took
// a hooks-off commit out of a range); the walk declines when it would be
// long.
func TestIsAncestorFromObjectsFollowsGit(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	root := gittest.New(t, nil)
	a := gittest.Git(t, root, "rev-parse", "HEAD")
	b := gittest.Commit(t, root, "b", map[string]string{"b": "b"})
	c := gittest.Commit(t, root, "c", map[string]string{"c": "c"})
	gittest.Git(t, root, "checkout", "-q", "-b", "side", a)
	d := gittest.Commit(t, root, "d", map[string]string{"d": "d"})
	gittest.Git(t, root, "checkout", "-q", "main")
	gittest.Git(t, root, "merge", "-q", "--no-edit", "side")
	m := gittest.Git(t, root, "rev-parse", "HEAD")
	gittest.Git(t, root, "checkout", "-q", "--orphan", "other")
	o := gittest.Commit(t, root, "o", nil)
	gittest.Git(t, root, "checkout", "-q", "main")
	pairs := [][2]string{{a, c}, {c, a}, {d, c}, {d, m}, {a, a}, {c, m}, {b, d}, {o, m}, {m, o}, {a, o}, {b, c}}
	gitSays := func(x, y string) bool {
		cmd := exec.Command("git", "-C", root, "merge-base", "--is-ancestor", x, y)
		cmd.Env = gitenv.Env(os.Environ())
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
			t.Fatal(err)
		}
		return err == nil
	}
	check := func(name string, wantOK bool) {
		t.Run(name, func(t *testing.T) {
			r, err := Open(ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range pairs {
				want := gitSays(p[0], p[1])
				is, ok := r.isAncestorFromObjects(ctx, p[0], p[1])
				if ok != wantOK {
					t.Fatalf("%s..%s: answered in process %v, want %v", p[0][:7], p[1][:7], ok, wantOK)
				}
				if ok && is != want {
					t.Errorf("%s..%s: in process %v, git %v", p[0][:7], p[1][:7], is, want)
				}
				if got, err := r.IsAncestor(ctx, p[0], p[1]); err != nil || got != want {
					t.Errorf("IsAncestor(%s, %s) = %v, %v; git %v", p[0][:7], p[1][:7], got, err, want)
				}
			}
		})
	}
	check("loose objects", true)
	gittest.Git(t, root, "gc", "-q")
	check("packed", true)
	plainGitSaysBC := func() bool {
		return exec.Command("git", "-C", root, "merge-base", "--is-ancestor", b, c).Run() == nil
	}
	gittest.Git(t, root, "replace", "--graft", c, a) // c's parent is a now, for plain git
	if plainGitSaysBC() {
		t.Fatal("set-up: plain git still reads b as c's parent under the replace ref")
	}
	check("a replace ref: the objects' parents", true)
	gittest.Git(t, root, "replace", "-d", c)
	gittest.Write(t, root, ".git/info/grafts", c+" "+a+"\n")
	if plainGitSaysBC() {
		t.Fatal("set-up: plain git still reads b as c's parent under the grafts file")
	}
	check("a grafts file: the objects' parents", true)
	os.Remove(filepath.Join(root, ".git", "info", "grafts"))
	check("grafts gone", true)

	// A history longer than the walk: the answer is git's.
	for i := range ancestorWalkMax + 5 {
		gittest.Git(t, root, "commit", "-q", "--allow-empty", "-m", fmt.Sprint("e", i))
	}
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	tip := gittest.Git(t, root, "rev-parse", "HEAD")
	if _, ok := r.isAncestorFromObjects(ctx, o, tip); ok {
		t.Error("a walk past ancestorWalkMax answered in process")
	}
	if is, ok := r.isAncestorFromObjects(ctx, gittest.Git(t, root, "rev-parse", "HEAD~3"), tip); !ok || !is {
		t.Errorf("a near ancestor: %v, %v", is, ok)
	}
	if got, err := r.IsAncestor(ctx, o, tip); err != nil || got {
		t.Errorf("IsAncestor(other root, tip) = %v, %v", got, err)
	}
}

// TestCommitFactsKeptForOneHookRun: a Repo serving one hook run asks git
// once per HEAD; a new HEAD is asked afresh, and a Repo that is not a
// hook run's (the servers') asks every time.
func TestCommitFactsKeptForOneHookRun(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	root := gittest.New(t, nil)
	start := gittest.Git(t, root, "rev-parse", "HEAD")
	gittest.Git(t, root, "checkout", "-q", "-b", "feature") // main's commits are shared
	gittest.Commit(t, root, "one", map[string]string{"one": "1"})
	hook, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	hook.SetHookRun()
	server, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	shared := func(r *Repo) bool {
		t.Helper()
		fs, err := r.CommitFacts(ctx, start)
		if err != nil || len(fs) == 0 {
			t.Fatalf("CommitFacts = %v, %v", fs, err)
		}
		return fs[0].Shared
	}
	if shared(hook) || shared(server) {
		t.Fatal("an unpushed commit is shared")
	}
	// Pushed, HEAD unchanged: the server sees it; the hook run keeps the
	// answer from its start.
	gittest.Git(t, root, "update-ref", "refs/remotes/origin/feature", "HEAD")
	if !shared(server) {
		t.Error("the server's Repo kept an answer")
	}
	if shared(hook) {
		t.Error("the hook run asked git again for the same HEAD")
	}
	gittest.Commit(t, root, "two", map[string]string{"two": "2"})
	fs, err := hook.CommitFacts(ctx, start)
	if err != nil || len(fs) != 2 || fs[0].Shared || !fs[1].Shared {
		t.Errorf("after a new commit: %+v, %v", fs, err)
	}
}

// TestIndexFlaggedReadsTheHookIndex: inside pre-commit git sets
// GIT_INDEX_FILE; the index SetIndexFile names is the same file, so the
// in-process reader answers; an environment naming another index declines.
func TestIndexFlaggedReadsTheHookIndex(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	root := gittest.New(t, map[string]string{"a": "a\n", "b": "b\n"})
	gittest.Git(t, root, "update-index", "--skip-worktree", "a")
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	r.SetIndexFile(filepath.Join(root, ".git", "index"))
	other := filepath.Join(t.TempDir(), "index")
	for _, c := range []struct {
		env    string
		inProc bool
	}{{"", true}, {".git/index", true}, {filepath.Join(root, ".git", "index"), true}, {other, false}} {
		t.Setenv("GIT_INDEX_FILE", c.env)
		got, ok := r.indexFlagged(context.Background())
		if ok != c.inProc {
			t.Fatalf("GIT_INDEX_FILE=%q: in process %v, want %v", c.env, ok, c.inProc)
		}
		if ok && (len(got) != 1 || got["a"].how != "skip-worktree") {
			t.Errorf("GIT_INDEX_FILE=%q: %v", c.env, got)
		}
	}
}

// TestCommitFactsSharedFollowsGit: in each layout of the shared refs,
// CommitFacts marks as shared exactly the commits `git rev-list HEAD
// ^since --not --remotes <default branch>` leaves out, and skips that
// process (sharedSinceFromFiles) only where no commit since is shared.
func TestCommitFactsSharedFollowsGit(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	cases := []struct {
		name string
		// setup gets the session's start and its three commits, oldest first.
		setup func(t *testing.T, root, start string, cs []string)
		fast  bool // answered without git rev-list
		all   bool // ... all shared
	}{
		{"no remotes, main where the session started", func(t *testing.T, root, start string, cs []string) {}, true, false},
		{"committing on main", func(t *testing.T, root, start string, cs []string) {
			gittest.Git(t, root, "update-ref", "refs/heads/main", cs[2])
		}, true, true},
		{"a remote has HEAD, packed", func(t *testing.T, root, start string, cs []string) {
			gittest.Git(t, root, "update-ref", "refs/remotes/origin/feature", cs[2])
			gittest.Git(t, root, "pack-refs", "--all")
		}, true, true},
		{"main behind the start", func(t *testing.T, root, start string, cs []string) {
			gittest.Git(t, root, "update-ref", "refs/heads/main", start+"~1")
		}, true, false},
		{"origin/HEAD and origin/main at the start, packed", func(t *testing.T, root, start string, cs []string) {
			gittest.Git(t, root, "update-ref", "refs/remotes/origin/main", start)
			gittest.Git(t, root, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
			gittest.Git(t, root, "pack-refs", "--all")
		}, true, false},
		{"main moved onto the session's first commit", func(t *testing.T, root, start string, cs []string) {
			gittest.Git(t, root, "update-ref", "refs/heads/main", cs[0])
		}, false, false},
		{"a remote has the second commit", func(t *testing.T, root, start string, cs []string) {
			gittest.Git(t, root, "update-ref", "refs/remotes/origin/feature", cs[1])
		}, false, false},
		{"a remote has the second commit, packed", func(t *testing.T, root, start string, cs []string) {
			gittest.Git(t, root, "update-ref", "refs/remotes/origin/feature", cs[1])
			gittest.Git(t, root, "pack-refs", "--all")
		}, false, false},
		{"a remote elsewhere in history", func(t *testing.T, root, start string, cs []string) {
			gittest.Git(t, root, "checkout", "-q", "-b", "other", start+"~1")
			o := gittest.Commit(t, root, "other", map[string]string{"o": "o"})
			gittest.Git(t, root, "checkout", "-q", "feature")
			gittest.Git(t, root, "update-ref", "refs/remotes/up/other", o)
		}, false, false},
		{"a loose remote ref overrides its packed one", func(t *testing.T, root, start string, cs []string) {
			gittest.Git(t, root, "update-ref", "refs/remotes/origin/feature", start)
			gittest.Git(t, root, "pack-refs", "--all")
			gittest.Git(t, root, "update-ref", "refs/remotes/origin/feature", cs[2])
		}, true, true}, // at HEAD now: all shared (the packed start would say none)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := gittest.New(t, nil)
			gittest.Commit(t, root, "two", map[string]string{"two": "2"})
			start := gittest.Git(t, root, "rev-parse", "HEAD")
			gittest.Git(t, root, "checkout", "-q", "-b", "feature")
			var cs []string
			for i := range 3 {
				cs = append(cs, gittest.Commit(t, root, fmt.Sprint("work ", i), map[string]string{"w": fmt.Sprint(i)}))
			}
			c.setup(t, root, start, cs)
			r, err := Open(ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			def, local, err := r.defaultBranch(ctx)
			if err != nil {
				t.Fatal(err)
			}
			all, fast := r.sharedSinceFromFiles(ctx, start, cs[2], def, local)
			if fast != c.fast || all != c.all {
				t.Errorf("answered without rev-list: %v (all shared %v), want %v (%v)", fast, all, c.fast, c.all)
			}
			args := []string{"-C", root, "rev-list", "HEAD", "^" + start, "--not", "--remotes"}
			if local {
				args = append(args, "refs/heads/"+def)
			}
			out, err := exec.Command("git", args...).Output()
			if err != nil {
				t.Fatal(err)
			}
			unshared := map[string]bool{}
			for _, l := range strings.Fields(string(out)) {
				unshared[l] = true
			}
			facts, err := r.CommitFacts(ctx, start)
			if err != nil || len(facts) != 3 {
				t.Fatalf("CommitFacts = %v, %v", facts, err)
			}
			for _, f := range facts {
				if f.Shared == unshared[f.SHA] {
					t.Errorf("%s: shared %v, git rev-list says unshared %v", f.SHA[:7], f.Shared, unshared[f.SHA])
				}
			}
		})
	}
}

// TestReadLooseAuthorFollowsGit: the author read from a loose commit is
// what `git log -1 --format='%an <%ae>'` prints, and a commit with its own
// encoding is left to git.
func TestReadLooseAuthorFollowsGit(t *testing.T) {
	gittest.Require(t)
	root := gittest.New(t, nil)
	cases := []struct {
		name, email string
		encoding    string
		ok          bool
	}{
		{"Ada Lovelace", "ada@example.com", "", true},
		{"Lin", "", "", true},
		{"Jean-Luc Picard", "jl@example.com", "", true},
		{"Zoë Ødegaard", "z@example.com", "", true},
		{"Old Encoding", "o@example.com", "ISO-8859-1", false},
	}
	for _, c := range cases {
		env := []string{"GIT_AUTHOR_NAME=" + c.name, "GIT_AUTHOR_EMAIL=" + c.email}
		args := []string{"commit", "-q", "--allow-empty", "-m", c.name}
		if c.encoding != "" {
			args = append([]string{"-c", "i18n.commitEncoding=" + c.encoding}, args...)
		}
		gittest.GitEnv(t, root, env, args...)
		head := gittest.Git(t, root, "rev-parse", "HEAD")
		want := gittest.Git(t, root, "log", "-1", "--format=%an <%ae>", "HEAD")
		got, ok := ReadLooseAuthor(filepath.Join(root, ".git"), head)
		if ok != c.ok {
			t.Fatalf("%q: read %v, want %v", c.name, ok, c.ok)
		}
		if ok && got != want {
			t.Errorf("%q: %q, git log says %q", c.name, got, want)
		}
	}
}
