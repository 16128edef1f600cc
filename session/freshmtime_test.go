package session_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestFreshenChanged: before a QA command, every file the session changed
// (committed, unstaged, untracked) gets now as its mtime, however far back
// it was set; files the session did not change, deleted ones and links
// keep theirs.
func TestFreshenChanged(t *testing.T) {
	gittest.Require(t)
	root := gittest.New(t, map[string]string{"kept.c": "a\n", "committed.c": "a\n", "unstaged.c": "a\n", "gone.c": "a\n"})
	start := gittest.Git(t, root, "rev-parse", "HEAD")
	write := func(rel, body string) {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("committed.c", "b\n")
	gittest.Git(t, root, "commit", "-qam", "change")
	write("unstaged.c", "b\n")
	write("untracked.c", "b\n")
	if err := os.Remove(filepath.Join(root, "gone.c")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("kept.c", filepath.Join(root, "link.c")); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-48 * time.Hour).Truncate(time.Second)
	for _, f := range []string{"kept.c", "committed.c", "unstaged.c", "untracked.c"} {
		if err := os.Chtimes(filepath.Join(root, f), old, old); err != nil {
			t.Fatal(err)
		}
	}
	repo, err := gitrepo.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().Truncate(time.Second)
	n, err := session.FreshenChanged(context.Background(), repo, &session.Session{StartCommit: start}, now)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("freshened %d files, want 3 (committed.c, unstaged.c, untracked.c)", n)
	}
	for _, c := range []struct {
		file string
		want time.Time
	}{
		{"committed.c", now},
		{"unstaged.c", now},
		{"untracked.c", now},
		{"kept.c", old}, // not the session's: a link to it is skipped too
	} {
		fi, err := os.Stat(filepath.Join(root, c.file))
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Equal(c.want) {
			t.Errorf("%s: mtime %v, want %v", c.file, fi.ModTime(), c.want)
		}
	}
}
