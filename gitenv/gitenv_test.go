package gitenv_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

func TestEnv(t *testing.T) {
	for _, tt := range []struct {
		name          string
		environ       []string
		extra         []string
		want, notWant []string
	}{
		{"redirections dropped", []string{"GIT_DIR=/x", "GIT_WORK_TREE=/y", "GIT_COMMON_DIR=/z", "GIT_OBJECT_DIRECTORY=/o",
			"GIT_ALTERNATE_OBJECT_DIRECTORIES=/a", "GIT_REPLACE_REF_BASE=refs/x/", "GIT_GRAFT_FILE=/g", "GIT_NAMESPACE=n", "HOME=/h"},
			nil, []string{"HOME=/h", "GIT_NO_REPLACE_OBJECTS=1", "GIT_GRAFT_FILE=" + gitenv.NoGrafts},
			[]string{"GIT_DIR=/x", "GIT_WORK_TREE=/y", "GIT_COMMON_DIR=/z", "GIT_OBJECT_DIRECTORY=/o", "GIT_ALTERNATE_OBJECT_DIRECTORIES=/a",
				"GIT_REPLACE_REF_BASE=refs/x/", "GIT_GRAFT_FILE=/g", "GIT_NAMESPACE=n"}},
		{"a hook's index kept", []string{"GIT_INDEX_FILE=.git/index", "GIT_EDITOR=:"}, nil,
			[]string{"GIT_INDEX_FILE=.git/index", "GIT_EDITOR=:"}, nil},
		{"sessiongate's own index wins", []string{"GIT_INDEX_FILE=.git/index"}, []string{"GIT_INDEX_FILE=/tmp/copy"},
			[]string{"GIT_INDEX_FILE=/tmp/copy"}, []string{"GIT_INDEX_FILE=.git/index"}},
		{"a hook's git -c settings kept, replace refs off after them", []string{"GIT_CONFIG_PARAMETERS='user.name'='Dev'"}, nil,
			[]string{"GIT_CONFIG_PARAMETERS='user.name'='Dev' 'core.usereplacerefs'='false' 'log.showsignature'='false' 'core.fsmonitor'='false'"}, []string{"GIT_CONFIG_PARAMETERS='user.name'='Dev'"}},
		{"a caller's GIT_NO_REPLACE_OBJECTS= (empty) is no switch left off", []string{"GIT_NO_REPLACE_OBJECTS="}, nil,
			[]string{"GIT_NO_REPLACE_OBJECTS=1"}, []string{"GIT_NO_REPLACE_OBJECTS="}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := gitenv.Env(tt.environ, tt.extra...)
			for _, w := range tt.want {
				if !slices.Contains(env, w) {
					t.Errorf("%s missing from %q", w, env)
				}
			}
			for _, w := range tt.notWant {
				if slices.Contains(env, w) {
					t.Errorf("%s kept in %q", w, env)
				}
			}
		})
	}
}

// TestCommandReadsWhatGitHolds: the session's start commit S has the
// strict test script, HEAD a weakened one. Each route makes plain git
// (what sessiongate ran before gitenv) read S as HEAD's tree, so the
// session "changed nothing"; gitenv's git still sees the weakened script.
func TestCommandReadsWhatGitHolds(t *testing.T) {
	ctx := context.Background()
	root := gittest.New(t, map[string]string{"test.sh": "#!/bin/sh\nset -e\ntest \"$(sh greet.sh)\" = hello\n"})
	start := gittest.Git(t, root, "rev-parse", "HEAD")
	gittest.Commit(t, root, "weaken", map[string]string{"test.sh": "#!/bin/sh\nexit 0\n"})
	fake := gittest.Git(t, root, "commit-tree", "HEAD^{tree}", "-m", "start")
	other := gittest.New(t, map[string]string{"test.sh": "#!/bin/sh\nexit 0\n"}) // a repository with the weakened script only

	for _, tt := range []struct {
		name  string
		route func(t *testing.T) (undo func())
	}{
		{"git replace START FAKE", func(t *testing.T) func() {
			gittest.Git(t, root, "replace", start, fake)
			return func() { gittest.Git(t, root, "replace", "-d", start) }
		}},
		{"replace ref under GIT_REPLACE_REF_BASE", func(t *testing.T) func() {
			gittest.Git(t, root, "update-ref", "refs/cache/"+start, fake)
			t.Setenv("GIT_REPLACE_REF_BASE", "refs/cache/")
			return func() { gittest.Git(t, root, "update-ref", "-d", "refs/cache/"+start) }
		}},
		// core.useReplaceRefs, read after the environment, turned replace
		// refs back on over GIT_NO_REPLACE_OBJECTS (both failed on the old
		// code): from the repository's config, or from a hook's
		// GIT_CONFIG_PARAMETERS (git -c ... commit passes it on).
		{"git replace and core.useReplaceRefs in the repository's config", func(t *testing.T) func() {
			gittest.Git(t, root, "replace", start, fake)
			gittest.Git(t, root, "config", "core.useReplaceRefs", "true")
			return func() {
				gittest.Git(t, root, "config", "--unset", "core.useReplaceRefs")
				gittest.Git(t, root, "replace", "-d", start)
			}
		}},
		{"git replace and git -c core.useReplaceRefs=true", func(t *testing.T) func() {
			gittest.Git(t, root, "replace", start, fake)
			t.Setenv("GIT_CONFIG_PARAMETERS", "'core.usereplacerefs'='true'")
			return func() { gittest.Git(t, root, "replace", "-d", start) }
		}},
		{"GIT_DIR and GIT_WORK_TREE at another repository", func(t *testing.T) func() {
			// The other repository's HEAD stands in for "start": both
			// ends read the weakened script.
			t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
			t.Setenv("GIT_WORK_TREE", other)
			return func() {}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			undo := tt.route(t)
			defer undo()
			rev := start
			if strings.HasPrefix(tt.name, "GIT_DIR") {
				rev = "HEAD"
			}
			plain := exec.Command("git", "diff", "--name-only", rev, "HEAD")
			plain.Dir = root
			out, err := plain.Output()
			if err != nil {
				t.Fatalf("plain git: %v", err)
			}
			if strings.TrimSpace(string(out)) != "" && rev == start {
				t.Fatalf("set-up: plain git still sees the change: %q", out)
			}
			if rev == "HEAD" {
				// Plain git reads the other repository's HEAD, not this one's.
				o, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
				if err != nil || strings.TrimSpace(string(o)) == gittest.Git(t, root, "--git-dir", filepath.Join(root, ".git"), "rev-parse", "HEAD") {
					t.Fatalf("set-up: plain git reads this repository: %s %v", o, err)
				}
				rev = start
			}
			got, err := gitenv.Command(ctx, root, nil, "diff", "--name-only", rev, "HEAD").Output()
			if err != nil {
				t.Fatalf("gitenv: %v", err)
			}
			if strings.TrimSpace(string(got)) != "test.sh" {
				t.Errorf("route gets through: gitenv's git reads start..HEAD as changing %q, want test.sh", got)
			}
		})
	}
}

// TestCommandLinkedWorktreeHook: the honest twin. git runs a linked
// worktree's hooks with GIT_DIR at .git/worktrees/<name> and
// GIT_INDEX_FILE at its index; gitenv drops GIT_DIR, and git, run in the
// worktree's top folder, finds the same git dir: HEAD and the index are
// the worktree's, not the main work tree's.
func TestCommandLinkedWorktreeHook(t *testing.T) {
	ctx := context.Background()
	root := gittest.New(t, nil)
	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, root, "worktree", "add", "-q", "-b", "side", wt)
	side := gittest.Commit(t, wt, "side", map[string]string{"side.txt": "side\n"})
	gittest.Write(t, wt, "staged.txt", "staged\n")
	gittest.Git(t, wt, "add", "staged.txt")
	gitDir := gittest.Git(t, wt, "rev-parse", "--absolute-git-dir")
	t.Setenv("GIT_DIR", gitDir)
	t.Setenv("GIT_INDEX_FILE", filepath.Join(gitDir, "index"))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"rev-parse", "HEAD"}, side},
		{[]string{"diff", "--cached", "--name-only"}, "staged.txt"},
		{[]string{"rev-parse", "--show-toplevel"}, wt},
	} {
		got, err := gitenv.Command(ctx, wt, nil, tt.args...).Output()
		if err != nil {
			t.Fatalf("git %v: %v", tt.args, err)
		}
		if g := strings.TrimSpace(string(got)); g != tt.want {
			real, _ := filepath.EvalSymlinks(tt.want)
			if g != real {
				t.Errorf("git %v in the worktree = %q, want %q", tt.args, g, tt.want)
			}
		}
	}
}

// TestCommandIgnoresGrafts: a .git/info/grafts line (or GIT_GRAFT_FILE)
// makes plain git skip a commit of the history; gitenv's git reads the
// parents the objects record and says nothing on stderr (the null device
// as graft file printed git's grafts-deprecated hint on every command).
func TestCommandIgnoresGrafts(t *testing.T) {
	ctx := context.Background()
	root := gittest.New(t, nil)
	gittest.Commit(t, root, "hooks off", nil)
	gittest.Commit(t, root, "gated", nil)
	graft := gittest.Git(t, root, "rev-parse", "HEAD") + " " + gittest.Git(t, root, "rev-parse", "HEAD~2") + "\n"
	elsewhere := filepath.Join(t.TempDir(), "grafts")
	gittest.Write(t, filepath.Dir(elsewhere), "grafts", graft)
	for _, tt := range []struct {
		name string
		set  func(t *testing.T)
	}{
		{".git/info/grafts", func(t *testing.T) { gittest.Write(t, root, ".git/info/grafts", graft) }},
		{"GIT_GRAFT_FILE", func(t *testing.T) {
			os.Remove(filepath.Join(root, ".git", "info", "grafts"))
			t.Setenv("GIT_GRAFT_FILE", elsewhere)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.set(t)
			if n := strings.Count(gittest.Git(t, root, "log", "--format=%H%x00"), "\x00"); n != 2 {
				t.Fatalf("set-up: plain git reads %d commits, want the graft's 2", n)
			}
			cmd := gitenv.Command(ctx, root, nil, "log", "--format=%H%x00")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(out), "\x00"); n != 3 {
				t.Errorf("route gets through: gitenv's git reads %d commits, want the objects' 3", n)
			}
			if stderr.Len() > 0 {
				t.Errorf("git said on stderr: %s", stderr.String())
			}
		})
	}
}

// TestFileConfigOnly: config from the environment (one process's) is
// dropped; the config files' variables and everything else stay.
func TestFileConfigOnly(t *testing.T) {
	in := []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=filter.x.clean", "GIT_CONFIG_VALUE_0=sed s/+/-/",
		"GIT_CONFIG_PARAMETERS='filter.x.clean'='cat'", "GIT_CONFIG_GLOBAL=/home/p/.gitconfig", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_INDEX_FILE=/tmp/i", "HOME=/home/p", "GIT_CONFIG_COUNTER=x"}
	got := gitenv.FileConfigOnly(in)
	want := []string{"GIT_CONFIG_GLOBAL=/home/p/.gitconfig", "GIT_CONFIG_NOSYSTEM=1", "GIT_INDEX_FILE=/tmp/i", "HOME=/home/p", "GIT_CONFIG_COUNTER=x"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("FileConfigOnly:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(in) != 9 {
		t.Error("FileConfigOnly changed its argument")
	}
}
