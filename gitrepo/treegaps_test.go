package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestTreeGaps: what TreeGaps names, with real git, for each way a test run
// can read a tree the commit does not hold (lazy-agent pass 16), and the
// honest work trees that look alike: a sparse checkout set before the
// session, a link to a tracked file, a link the session did not change.
func TestTreeGaps(t *testing.T) {
	gittest.Require(t)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	ctx := context.Background()
	files := map[string]string{"greet.go": "package greet\n", "greet_test.go": "package greet\n", "docs/a.md": "a\n", "hello.sh": "echo hello\n", "src/s.go": "package src\n", "other/o.go": "package other\n"}
	link := func(t *testing.T, root, target, at string) {
		t.Helper()
		p := filepath.Join(root, at)
		os.Remove(p)
		if err := os.Symlink(target, p); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	cases := []struct {
		name    string
		before  func(t *testing.T, root string) // before the session starts
		during  func(t *testing.T, root string) // after it starts
		changed []string                        // the session's changed paths
		want    []string
	}{
		{name: "honest: nothing left out"},
		{name: "skip-worktree set, the file removed", during: func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--skip-worktree", "greet_test.go")
			os.Remove(filepath.Join(root, "greet_test.go"))
		}, want: []string{"greet_test.go"}},
		{name: "assume-unchanged set, the file removed (git status reads it clean)", during: func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--assume-unchanged", "greet_test.go")
			os.Remove(filepath.Join(root, "greet_test.go"))
		}, want: []string{"greet_test.go"}},
		{name: "assume-unchanged set before the session, the file removed in it", before: func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--assume-unchanged", "greet_test.go")
		}, during: func(t *testing.T, root string) {
			os.Remove(filepath.Join(root, "greet_test.go"))
		}, want: []string{"greet_test.go"}},
		{name: "honest: assume-unchanged on a file still there", during: func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--assume-unchanged", "greet_test.go")
		}},
		{name: "honest: skip-worktree on a file still there", during: func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--skip-worktree", "greet_test.go")
		}},
		{name: "a sparse checkout set in the session", during: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--no-cone", "/*", "!/greet_test.go")
		}, want: []string{"greet_test.go"}},
		{name: "honest: a sparse checkout set before the session", before: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--no-cone", "/*", "!/docs/")
		}},
		{name: "skip-worktree set in the session on a file a person's earlier sparse checkout keeps", before: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--no-cone", "/*", "!/docs/")
		}, during: func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--skip-worktree", "greet_test.go")
			os.Remove(filepath.Join(root, "greet_test.go"))
		}, want: []string{"greet_test.go"}},
		{name: "skip-worktree set in the session under a person's earlier cone-mode sparse checkout", before: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src")
		}, during: func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--skip-worktree", "src/s.go")
			os.Remove(filepath.Join(root, "src", "s.go"))
		}, want: []string{"src/s.go"}},
		{name: "a sparse checkout narrowed in the session", before: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--no-cone", "/*", "!/docs/")
		}, during: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--no-cone", "/*", "!/docs/", "!/greet_test.go")
		}, want: []string{"greet_test.go"}},
		{name: "honest: a cone-mode sparse checkout widened in the session", before: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src")
		}, during: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "add", "docs")
		}},
		{name: "a cone narrowed in the session leaves out a file the session changed (round 17)", before: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src", "other")
		}, during: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src")
		}, changed: []string{"other/o.go"}, want: []string{"other/o.go"}},
		{name: "a person's earlier cone leaves out a file the session changed (round 17)", before: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src")
		}, changed: []string{"other/o.go", "src/s.go"}, want: []string{"other/o.go"}},
		{name: "honest: a cone narrowed in the session leaves out only files the session did not change", before: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src", "other")
		}, during: func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src")
		}, changed: []string{"src/s.go"}},
		{name: "a changed link out of the repository", during: func(t *testing.T, root string) {
			ext := filepath.Join(t.TempDir(), "hello.sh")
			gittest.Write(t, filepath.Dir(ext), "hello.sh", "echo hello\n")
			link(t, root, ext, "hello.sh")
		}, changed: []string{"hello.sh"}, want: []string{"hello.sh"}},
		{name: "a changed link to an untracked file", during: func(t *testing.T, root string) {
			gittest.Write(t, root, ".cache/hello.sh", "echo hello\n")
			link(t, root, ".cache/hello.sh", "hello.sh")
		}, changed: []string{"hello.sh"}, want: []string{"hello.sh"}},
		{name: "honest: a changed link to a tracked file", during: func(t *testing.T, root string) {
			link(t, root, "greet.go", "hello.sh")
		}, changed: []string{"hello.sh"}},
		{name: "honest: a dangling link (a clone sees the same)", during: func(t *testing.T, root string) {
			link(t, root, "nowhere.sh", "hello.sh")
		}, changed: []string{"hello.sh"}},
		// Lazy pass 47's A8: with core.symlinks=false a file staged over a
		// link's entry is committed as the link's target.
		{name: "a script staged as a link's target text (core.symlinks=false)", during: func(t *testing.T, root string) {
			link(t, root, "greet.go", "hello.sh")
			gittest.Git(t, root, "add", "hello.sh")
			gittest.Git(t, root, "config", "core.symlinks", "false")
			os.Remove(filepath.Join(root, "hello.sh"))
			gittest.Write(t, root, "hello.sh", "#!/bin/sh\necho hello\n")
			gittest.Git(t, root, "add", "hello.sh")
		}, changed: []string{"hello.sh"}, want: []string{"hello.sh"}},
		{name: "honest: a link checked out as a file naming its target (core.symlinks=false)", during: func(t *testing.T, root string) {
			link(t, root, "greet.go", "hello.sh")
			gittest.Git(t, root, "add", "hello.sh")
			gittest.Git(t, root, "config", "core.symlinks", "false")
			os.Remove(filepath.Join(root, "hello.sh"))
			gittest.Write(t, root, "hello.sh", "other/o.go")
			gittest.Git(t, root, "add", "hello.sh")
		}, changed: []string{"hello.sh"}},
		// Lazy pass 47's A9: an encoding set in .git/info/attributes.
		{name: "a script committed through working-tree-encoding from .git/info/attributes", during: func(t *testing.T, root string) {
			gittest.Write(t, root, ".git/info/attributes", "hello.sh working-tree-encoding=IBM037\n")
			gittest.Write(t, root, "hello.sh", "#!/bin/sh\necho hello there\n")
			gittest.Git(t, root, "add", "hello.sh")
		}, changed: []string{"hello.sh"}, want: []string{"hello.sh"}},
		{name: "honest: an encoding the repository's .gitattributes declares", during: func(t *testing.T, root string) {
			gittest.Write(t, root, ".gitattributes", "*.txt working-tree-encoding=UTF-16\n")
			gittest.Write(t, root, "res.txt", "\xff\xfeh\x00i\x00\n\x00")
			gittest.Git(t, root, "add", ".gitattributes", "res.txt")
		}, changed: []string{".gitattributes", "res.txt"}},
		{name: "honest: a link out of the repository the session did not change", during: func(t *testing.T, root string) {
			link(t, root, os.DevNull, "hello.sh")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := gittest.New(t, files)
			if tc.before != nil {
				tc.before(t, root)
			}
			time.Sleep(10 * time.Millisecond) // ctime granularity: the start after the set-up
			start := time.Now()
			if tc.during != nil {
				tc.during(t, root)
			}
			r, err := Open(ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.TreeGaps(ctx, start, tc.changed)
			if err != nil {
				t.Fatalf("TreeGaps: %v", err)
			}
			var paths []string
			for p, how := range got {
				if how == "" || !strings.ContainsAny(how, " ") {
					t.Errorf("%s: no reason given: %q", p, how)
				}
				paths = append(paths, p)
			}
			slices.Sort(paths)
			if !slices.Equal(paths, tc.want) {
				t.Errorf("TreeGaps = %v (%v), want %v", paths, got, tc.want)
			}
		})
	}
}
