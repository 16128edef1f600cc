package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

func reviewRepo(t *testing.T) (string, *Repo) {
	t.Helper()
	gittest.Require(t)
	root := t.TempDir()
	gittest.Git(t, root, "init", "-q", "-b", "main")
	gittest.Write(t, root, "README.md", "# R\n")
	gittest.Write(t, root, "src/a.go", "package a\n")
	gittest.Write(t, root, "docs/b.md", "b\n")
	gittest.Git(t, root, "add", "-A")
	gittest.Git(t, root, "commit", "-q", "-m", "init")
	r, err := Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return root, r
}

func mustMark(t *testing.T, r *Repo) WorktreeState {
	t.Helper()
	st, ok := r.WorktreeMark()
	if !ok {
		t.Fatal("WorktreeMark fell back to git")
	}
	return st
}

// A common ignore rule ("dir/**" then a negation): git lists the
// re-included file, the walk ignores the whole folder, so a turn that
// creates or edits it leaves the mark unchanged: a false idle.
func TestMarkSeesReincludedFile(t *testing.T) {
	root, r := reviewRepo(t)
	gittest.Write(t, root, ".gitignore", ".vscode/**\n!.vscode/settings.json\n")
	gittest.Git(t, root, "add", ".gitignore")
	gittest.Git(t, root, "commit", "-q", "-m", "ignore")
	before := mustMark(t, r).Mark
	gittest.Write(t, root, ".vscode/settings.json", "{}\n")
	if !strings.Contains(gittest.Git(t, root, "status", "--porcelain", "-uall"), ".vscode/settings.json") {
		t.Fatal("git does not list the file (test premise)")
	}
	if after := mustMark(t, r).Mark; after == before {
		t.Error("a new file git status lists did not move the mark")
	}
}

// "[!x]oo" is git's bracket negation; filepath.Match reads '!' literally.
func TestMarkSeesBracketNegation(t *testing.T) {
	root, r := reviewRepo(t)
	gittest.Write(t, root, ".gitignore", "[!x]oo\n")
	gittest.Git(t, root, "add", ".gitignore")
	gittest.Git(t, root, "commit", "-q", "-m", "ignore")
	before := mustMark(t, r).Mark
	gittest.Write(t, root, "xoo", "x\n")
	if !strings.Contains(gittest.Git(t, root, "status", "--porcelain", "-uall"), "xoo") {
		t.Fatal("git does not list the file (test premise)")
	}
	if after := mustMark(t, r).Mark; after == before {
		t.Error("a new file git status lists did not move the mark")
	}
}

// No index file yet (git init, nothing added): the walk is never run, so
// WorktreeMark always falls back although the comment says "nothing added yet".
func TestMarkWithoutIndex(t *testing.T) {
	gittest.Require(t)
	root := t.TempDir()
	gittest.Git(t, root, "init", "-q", "-b", "main")
	gittest.Write(t, root, "a.txt", "a\n")
	r, err := Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.WorktreeMark(); !ok {
		t.Error("no index file: fell back to git")
	}
}

// assume-unchanged: git status says clean, Modified says dirty.
func TestModifiedSkipsAssumeUnchanged(t *testing.T) {
	root, r := reviewRepo(t)
	gittest.Git(t, root, "update-index", "--assume-unchanged", "README.md")
	gittest.Write(t, root, "README.md", "# changed\n")
	if out := gittest.Git(t, root, "status", "--porcelain", "-uall"); out != "" {
		t.Fatalf("git status: %q (test premise)", out)
	}
	if mustMark(t, r).Modified {
		t.Error("Modified=true where git status reports a clean worktree (assume-unchanged)")
	}
}

// Sparse checkout (no sparse index): a file outside the cone is written
// back; git status reports it (git clears skip-worktree for files present),
// the mark does not move.
func TestMarkSparseCheckout(t *testing.T) {
	root, r := reviewRepo(t)
	gittest.Git(t, root, "sparse-checkout", "set", "--no-sparse-index", "src")
	if _, err := os.Stat(filepath.Join(root, "docs", "b.md")); err == nil {
		t.Fatal("docs/b.md still present (test premise)")
	}
	before, ok := r.WorktreeMark()
	if !ok {
		t.Skip("sparse checkout falls back")
	}
	gittest.Write(t, root, "docs/b.md", "edited outside the cone\n")
	// The mark first, as the stop hook reads it: a git status in between
	// may write the index with the skip-worktree bit cleared.
	after := mustMark(t, r)
	if gittest.Git(t, root, "--no-optional-locks", "status", "--porcelain", "-uall") == "" {
		t.Skip("git does not report it")
	}
	if after.Mark == before.Mark {
		t.Error("git status reports a change, the mark did not move")
	}
}
