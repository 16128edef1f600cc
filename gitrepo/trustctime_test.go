//go:build unix

package gitrepo_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// A file rewritten in place at the same size with its mtime set back is
// clean to a plain `git status` when git may not use ctime
// (core.trustctime=false, core.checkStat=minimal) or when the rewrite falls
// in the second of the last refresh (git keeps ctime to the second).
// sessiongate's own status trusts ctime whatever the config, and
// StatHiddenFiles compares content, so both see the edit; honest twins
// (the same config, nothing changed; an edit status shows) list nothing
// hidden.
func TestStatHiddenEdits(t *testing.T) {
	for _, tt := range []struct {
		name     string
		config   [][2]string
		edit     string // "later": rewrite greet.sh in place, mtime set back, a second after the refresh; "same": within its second
		plain    bool   // a plain edit git status shows
		inStatus bool   // sessiongate's StatusSince (the clean-tree check) lists greet.sh
		changed  bool   // ChangedFiles lists it (git status alone: no content read)
		hidden   bool   // StatHiddenFiles lists greet.sh
	}{
		{"trustctime=false hides an edit", [][2]string{{"core.trustctime", "false"}}, "later", false, true, true, false},
		{"checkStat=minimal and trustctime=false hide an edit", [][2]string{{"core.checkStat", "minimal"}, {"core.trustctime", "false"}}, "later", false, true, true, false},
		// The same second: StatusSince compares by content the entries
		// whose ctime is the session's (racyctime.go); it read them clean.
		{"same second as the refresh hides an edit", nil, "same", false, true, false, true},
		{"same second, trustctime=false", [][2]string{{"core.trustctime", "false"}}, "same", false, true, false, true},
		{"honest: trustctime=false, nothing changed", [][2]string{{"core.trustctime", "false"}}, "", false, false, false, false},
		{"honest: an edit status shows", nil, "", true, true, true, false},
		// Honest twin of the same second: touched and refreshed in one
		// second, content kept.
		{"honest: same second, nothing changed", nil, "touch", false, false, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := gittest.New(t, nil)
			gittest.Write(t, dir, "greet.sh", "echo hellp\n")
			p := filepath.Join(dir, "greet.sh")
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "greet")
			for _, kv := range tt.config {
				gittest.Git(t, dir, "config", kv[0], kv[1])
			}
			gittest.Git(t, dir, "update-index", "-q", "--refresh")
			start := time.Now().Add(-time.Second) // the session's start
			if tt.plain {
				gittest.Write(t, dir, "greet.sh", "echo hello, world\n")
			}
			switch tt.edit {
			case "touch":
				hideEdit(t, dir, "greet.sh", "echo hellp\n", "echo hellp\n")
			case "same":
				hideEdit(t, dir, "greet.sh", "echo hello\n", "echo hellp\n")
			case "later":
				// Past the refresh's second, so ctime alone tells the edit.
				time.Sleep(1100 * time.Millisecond)
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				gittest.Write(t, dir, "greet.sh", "echo hello\n")
				if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
					t.Fatal(err)
				}
				if out := gittest.Git(t, dir, "status", "--porcelain"); strings.Contains(out, "greet.sh") {
					t.Skipf("this git sees the edit by itself (status %q): nothing is hidden", out)
				}
			}
			ctx := context.Background()
			repo, err := gitrepo.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			// The clean-tree check's status: a git status under load may
			// write the index a second later, so the index's own second
			// (Status) is not enough; the session's start is.
			st, err := repo.StatusSince(ctx, start)
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.ContainsFunc(st, func(e string) bool { return strings.HasSuffix(e, "greet.sh") }); got != tt.inStatus {
				t.Errorf("StatusSince = %q: greet.sh listed %v, want %v", st, got, tt.inStatus)
			}
			changed, err := repo.ChangedFiles(ctx, "HEAD")
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(changed, "greet.sh"); got != tt.changed {
				t.Errorf("ChangedFiles = %q: greet.sh listed %v, want %v", changed, got, tt.changed)
			}
			// The hook path's list of the session's files: as the
			// clean-tree check, given the session's start.
			since, err := repo.ChangedFilesSince(ctx, "HEAD", start)
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(since, "greet.sh"); got != tt.inStatus {
				t.Errorf("ChangedFilesSince = %q: greet.sh listed %v, want %v", since, got, tt.inStatus)
			}
			hidden, err := repo.StatHiddenFiles(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(hidden, "greet.sh"); got != tt.hidden {
				t.Errorf("StatHiddenFiles = %q: greet.sh listed %v, want %v", hidden, got, tt.hidden)
			}
		})
	}
}

// hideEdit rewrites rel in place (same inode, same size) with its mtime
// set back, within one second of a refresh, retrying until a plain `git
// status` with ctime trusted reads clean, as the lazy agent would.
func hideEdit(t *testing.T, dir, rel, body, undo string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	for range 20 {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		m := fi.ModTime()
		if err := os.Chtimes(p, m, m); err != nil { // ctime now
			t.Fatal(err)
		}
		gittest.Git(t, dir, "update-index", "-q", "--refresh")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, m, m); err != nil {
			t.Fatal(err)
		}
		// Asked with ctime trusted: under load the write may fall in the
		// next second, which only a trustctime=false config hides.
		if !strings.Contains(gittest.Git(t, dir, "-c", "core.trustctime=true", "status", "--porcelain"), rel) {
			return
		}
		if err := os.WriteFile(p, []byte(undo), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, m, m); err != nil {
			t.Fatal(err)
		}
		gittest.Git(t, dir, "update-index", "-q", "--refresh")
	}
	t.Skip("git saw the in-place edit on every try (it keeps ctime below the second): nothing is hidden")
}

// TestStatusSinceAfterIndexWrite: a rewrite hidden in a refresh's second
// stays hidden once git writes the index again a second later (`git add`
// of another file, as the lazy agent's commit does): the entry's ctime no
// longer falls in the index's second. StatusSince, given the session's
// start, compares the files touched since by content and still lists it;
// the honest twin (touched, refreshed, content kept, index written again)
// lists nothing.
func TestStatusSinceAfterIndexWrite(t *testing.T) {
	for _, tt := range []struct {
		name string
		body string
		want bool
	}{
		{"hidden rewrite, then git add", "echo hello\n", true},
		{"honest: touched, content kept", "echo hellp\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := gittest.New(t, nil)
			gittest.Write(t, dir, "greet.sh", "echo hellp\n")
			p := filepath.Join(dir, "greet.sh")
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "greet")
			start := time.Now().Add(-time.Second)
			hideEdit(t, dir, "greet.sh", tt.body, "echo hellp\n")
			time.Sleep(1100 * time.Millisecond)
			gittest.Write(t, dir, "README.md", "# greet\n")
			gittest.Git(t, dir, "add", "README.md")
			ctx := context.Background()
			repo, err := gitrepo.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			has := func(st []string) bool {
				return slices.ContainsFunc(st, func(e string) bool { return strings.HasSuffix(e, "greet.sh") })
			}
			st, err := repo.Status(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if has(st) {
				t.Logf("Status sees it without the start (%q)", st)
			}
			st, err = repo.StatusSince(ctx, start)
			if err != nil {
				t.Fatal(err)
			}
			if has(st) != tt.want {
				t.Errorf("StatusSince = %q: greet.sh listed %v, want %v", st, has(st), tt.want)
			}
		})
	}
}
