package gitrepo

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestStagedPaths: the in-process answer (index file, HEAD's tree through
// go-git) equals git's `diff --cached --name-status` for each way a CI
// file is staged, and is taken (no git) where it can be.
func TestStagedPaths(t *testing.T) {
	ctx := context.Background()
	patterns := []string{".github/workflows/*.yml", ".github/workflows/*.yaml", ".gitlab-ci.yml"}
	for _, tc := range []struct {
		name  string
		stage func(t *testing.T, dir string)
		want  map[string]bool
	}{
		{"nothing staged", func(*testing.T, string) {}, map[string]bool{}},
		{"a workflow changed", func(t *testing.T, dir string) { write(t, dir, ".github/workflows/ci.yml", "on: [pull_request]\n") }, map[string]bool{".github/workflows/ci.yml": false}},
		{"a workflow deleted", func(t *testing.T, dir string) { gittest.Git(t, dir, "rm", "-q", ".github/workflows/ci.yml") }, map[string]bool{".github/workflows/ci.yml": true}},
		{"a workflow added", func(t *testing.T, dir string) { write(t, dir, ".github/workflows/new.yaml", "on: push\n") }, map[string]bool{".github/workflows/new.yaml": false}},
		{"gitlab's file and another file", func(t *testing.T, dir string) {
			write(t, dir, ".gitlab-ci.yml", "verify:\n  script: [sessiongate verify --rerun]\n")
			write(t, dir, "README.md", "b\n")
		}, map[string]bool{".gitlab-ci.yml": false}},
		{"a file in a subfolder and a script beside", func(t *testing.T, dir string) {
			write(t, dir, ".github/workflows/sub/x.yml", "x\n")
			write(t, dir, ".github/workflows/run.sh", "x\n")
		}, map[string]bool{}},
		{"renamed", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "mv", ".github/workflows/ci.yml", ".github/workflows/ci2.yml")
		}, map[string]bool{".github/workflows/ci.yml": true, ".github/workflows/ci2.yml": false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			gittest.Git(t, dir, "init", "-q")
			write(t, dir, ".github/workflows/ci.yml", "on: [push]\n")
			write(t, dir, ".github/workflows/lint.yml", "on: [push]\n")
			write(t, dir, ".gitlab-ci.yml", "verify:\n  script: [sessiongate verify]\n")
			write(t, dir, "README.md", "a\n")
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "base")
			tc.stage(t, dir)
			gittest.Git(t, dir, "add", "-A")
			r, err := Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			fast, ok := r.stagedPathsInProcess(ctx, patterns)
			if !ok {
				t.Fatal("not answered in process")
			}
			if !maps.Equal(fast, tc.want) {
				t.Errorf("in process: %v, want %v", fast, tc.want)
			}
			// git's own answer, as the fallback asks it.
			git := map[string]bool{}
			f := strings.Split(strings.TrimRight(gittest.Git(t, dir, "diff", "--cached", "--name-status", "-z", "--no-renames", "--", ":(glob).github/workflows/*.yml", ":(glob).github/workflows/*.yaml", ".gitlab-ci.yml"), "\x00"), "\x00")
			for i := 0; i+1 < len(f); i += 2 {
				git[f[i+1]] = f[i] == "D"
			}
			if !maps.Equal(fast, git) {
				t.Errorf("in process %v, git %v", fast, git)
			}
			// A pattern the index cannot answer goes to git, with the same answer.
			slow, err := r.StagedPaths(ctx, append(patterns, "**/never.yml"))
			if err != nil || !maps.Equal(slow, tc.want) {
				t.Errorf("through git: %v %v, want %v", slow, err, tc.want)
			}
		})
	}
}

// TestFilesAt: the CI files of a commit, read from the globs' folders only,
// matching as protect.Match does (a subfolder's file is not a workflow).
func TestFilesAt(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q")
	for _, f := range []string{".github/workflows/ci.yml", ".github/workflows/sub/x.yml", ".github/workflows/run.sh", ".gitlab-ci.yml", "Makefile", "docs/.gitlab-ci.yml"} {
		write(t, dir, f, "x\n")
	}
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "base")
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := r.Head(ctx)
	got, err := r.FilesAt(ctx, head, []string{".github/workflows/*.yml", ".gitlab-ci.yml", ".circleci/config.yml"})
	if err != nil || strings.Join(got, " ") != ".github/workflows/ci.yml .gitlab-ci.yml" {
		t.Errorf("FilesAt = %q, %v", got, err)
	}
	if got, err := r.FilesAt(ctx, head, []string{"*file"}); err != nil || strings.Join(got, " ") != "Makefile" {
		t.Errorf("a root glob reads the whole tree: %q, %v", got, err)
	}
	if _, ok := r.filesAtInProcess(ctx, head, []string{".github/workflows/*.yml", ".gitlab-ci.yml"}); !ok {
		t.Error("the CI globs were not answered in process")
	}
	if got, err := r.FilesAt(ctx, head, []string{"**/.gitlab-ci.yml"}); err != nil || strings.Join(got, " ") != ".gitlab-ci.yml docs/.gitlab-ci.yml" {
		t.Errorf("through git: %q, %v", got, err)
	}
	// ReadCommitted answers as git does: a file, an absent path, a folder.
	for _, p := range []string{"Makefile", ".github/workflows/ci.yml", "nope.yml", ".github/workflows", ".github/workflows/ci.yml/x"} {
		b, ok, err := r.ReadCommitted(ctx, head, p)
		want, gerr := r.ReadAt(ctx, head, p)
		if err != nil || ok != (gerr == nil) || string(b) != string(want) {
			t.Errorf("ReadCommitted(%s) = %q %v %v; git: %q %v", p, b, ok, err, want, gerr)
		}
	}
}
