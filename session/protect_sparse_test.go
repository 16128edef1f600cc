package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestSparseConeNotADeletion: a protected file a sparse checkout's cone
// leaves out (git's index flags it skip-worktree, the patterns do not
// keep it) is not a deleted protected file: git commits it unchanged
// (round 25, c4: an honest monorepo checkout, cone `src`, had every
// start refused for `.claude/settings.json was deleted`). A real
// deletion, the flag set by hand on a file the patterns keep, or the
// flag set and the file edited, are still caught.
func TestSparseConeNotADeletion(t *testing.T) {
	const settings = ".claude/settings.json"
	for _, c := range []struct {
		name    string
		change  func(t *testing.T, root string)
		refused string // "" when the start goes through
	}{
		{"honest: a cone without .claude", func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src")
		}, ""},
		{"honest: a cone without .claude, with a sparse index", func(t *testing.T, root string) {
			gittest.Git(t, root, "config", "index.sparse", "true")
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src")
		}, ""},
		{"lazy: a cone without .claude, with a sparse index, an edit staged before", func(t *testing.T, root string) {
			gittest.Write(t, root, settings, "{}\n")
			gittest.Git(t, root, "add", settings)
			gittest.Git(t, root, "config", "index.sparse", "true")
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src")
			gittest.Git(t, root, "update-index", "--skip-worktree", settings)
			must(t, os.RemoveAll(filepath.Join(root, ".claude")))
			gittest.Git(t, root, "sparse-checkout", "reapply")
		}, settings + " (staged)"},
		{"honest: a no-cone pattern set that leaves .claude out", func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--no-cone", "/*", "!/.claude/")
		}, ""},
		{"lazy: the file deleted", func(t *testing.T, root string) {
			must(t, os.Remove(filepath.Join(root, settings)))
		}, settings + " was deleted"},
		{"lazy: the file deleted under a cone that keeps it", func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src", ".claude")
			must(t, os.Remove(filepath.Join(root, settings)))
		}, settings + " was deleted"},
		{"lazy: skip-worktree set by hand, then the file deleted", func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--skip-worktree", settings)
			must(t, os.Remove(filepath.Join(root, settings)))
		}, settings + " was deleted"},
		{"lazy: skip-worktree set by hand under a cone that keeps it, then the file deleted", func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src", ".claude")
			gittest.Git(t, root, "update-index", "--skip-worktree", settings)
			must(t, os.Remove(filepath.Join(root, settings)))
		}, settings + " was deleted"},
		{"lazy: skip-worktree set by hand, then the file edited", func(t *testing.T, root string) {
			gittest.Git(t, root, "update-index", "--skip-worktree", settings)
			gittest.Write(t, root, settings, "{}\n")
		}, settings},
		{"lazy: a cone without .claude, then the file written back edited", func(t *testing.T, root string) {
			gittest.Git(t, root, "sparse-checkout", "set", "--cone", "src")
			gittest.Write(t, root, settings, "{}\n")
		}, settings},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, flowProtocol)
			e.engine.Config.Protect = true
			ctx := context.Background()
			gittest.Commit(t, e.root, "project", map[string]string{"SESSION-PROTOCOL.md": flowProtocol,
				settings: "{\"hooks\":{\"PreToolUse\":[]}}\n", "src/code.go": "package src\n"})
			if _, err := e.engine.ProtectedChanges(ctx, e.repo); err != nil { // first use trusts the commit
				t.Fatal(err)
			}
			c.change(t, e.root)
			_, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "x"})
			if c.refused == "" {
				if err != nil {
					t.Fatalf("start refused: %v", err)
				}
				return
			}
			if !errors.Is(err, session.ErrProtectedChanged) || !strings.Contains(err.Error(), c.refused) {
				t.Fatalf("start: got %v, want a refusal naming %q", err, c.refused)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
