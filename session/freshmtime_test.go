package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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
	now := time.Now().Add(time.Second).Truncate(time.Second) // after every file the test wrote
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

// TestFreshenFuture: a build output dated in the future (`touch -d '+1
// year' build/greet`) stayed newer than sources set to now, so make kept
// it. Anything in the work tree dated after now, ignored folders included,
// is set back before it; .git and files dated in the past keep theirs; a
// link to a future-dated file outside the work tree stops the command.
func TestFreshenFuture(t *testing.T) {
	gittest.Require(t)
	now := time.Now().Add(time.Second).Truncate(time.Second) // after every file the test wrote
	future := now.Add(365 * 24 * time.Hour)
	old := now.Add(-time.Hour)
	for _, c := range []struct {
		name    string
		set     map[string]time.Time // path: mtime, made before the call
		link    bool                 // build/out links to a future-dated file outside
		want    map[string]time.Time // path: mtime after
		wantErr string
	}{
		{name: "future output set back", set: map[string]time.Time{"build/greet": future, "greet.c": old},
			want: map[string]time.Time{"build/greet": now.Add(-2 * time.Second), "greet.c": now}},
		{name: "future folder set back", set: map[string]time.Time{"build": future},
			want: map[string]time.Time{"build": now.Add(-2 * time.Second)}},
		{name: "past output kept", set: map[string]time.Time{"build/greet": old},
			want: map[string]time.Time{"build/greet": old}},
		{name: "future .git kept", set: map[string]time.Time{".git/HEAD": future},
			want: map[string]time.Time{".git/HEAD": future}},
		{name: "link outside refused", link: true, wantErr: "in the future"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := gittest.New(t, map[string]string{".gitignore": "build/\n", "greet.c": "a\n"})
			start := gittest.Git(t, root, "rev-parse", "HEAD")
			if err := os.WriteFile(filepath.Join(root, "greet.c"), []byte("b\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(root, "build"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "build", "greet"), []byte("\x7fELF"), 0o755); err != nil {
				t.Fatal(err)
			}
			if c.link {
				out := filepath.Join(t.TempDir(), "greet")
				if err := os.WriteFile(out, []byte("\x7fELF"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(out, future, future); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(out, filepath.Join(root, "build", "out")); err != nil {
					t.Fatal(err)
				}
			}
			for f, m := range c.set {
				if err := os.Chtimes(filepath.Join(root, f), m, m); err != nil {
					t.Fatal(err)
				}
			}
			repo, err := gitrepo.Open(context.Background(), root)
			if err != nil {
				t.Fatal(err)
			}
			_, err = session.FreshenChanged(context.Background(), repo, &session.Session{StartCommit: start}, now)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want one saying %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for f, want := range c.want {
				fi, err := os.Stat(filepath.Join(root, f))
				if err != nil {
					t.Fatal(err)
				}
				if !fi.ModTime().Equal(want) {
					t.Errorf("%s: mtime %v, want %v", f, fi.ModTime(), want)
				}
			}
		})
	}
}
