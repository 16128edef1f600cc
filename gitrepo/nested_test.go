package gitrepo_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestNestedRepoFilesListed: git lists a nested repository as one folder
// ("greet/") and a gitlink as "greet", and never looks inside. The lists
// the QA rules read (untracked files, the session's changed files) name the
// files under it instead, .git left out: a greet/__init__.py hidden there
// answered for a broken greet.py, and the folder made the skips check fail
// to read "greet/" as a file.
func TestNestedRepoFilesListed(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name      string
		setup     func(t *testing.T, dir string)
		untracked []string
		changed   []string
	}{
		{"untracked nested repository", func(t *testing.T, dir string) {},
			[]string{"greet/__init__.py", "greet/sub/x.py"}, []string{"greet/__init__.py", "greet/sub/x.py"}},
		{"excluded in .git/info/exclude, changed after the start", func(t *testing.T, dir string) {
			gittest.Write(t, dir, ".git/info/exclude", "greet/\n")
		}, []string{"greet/__init__.py", "greet/sub/x.py"}, nil},
		{"added as a gitlink", func(t *testing.T, dir string) {
			gittest.Git(t, filepath.Join(dir, "greet"), "add", "-A")
			gittest.Git(t, filepath.Join(dir, "greet"), "commit", "-q", "-m", "x")
			gittest.Git(t, dir, "add", "greet")
		}, nil, []string{"greet/__init__.py", "greet/sub/x.py"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			gittest.Git(t, dir, "init", "-q", "-b", "main")
			gittest.Write(t, dir, "greet.py", "x = 1\n")
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "init")
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			since := time.Now().Add(-time.Second)
			if err := os.MkdirAll(filepath.Join(dir, "greet", "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, filepath.Join(dir, "greet"), "init", "-q")
			gittest.Write(t, dir, "greet/__init__.py", "x = 2\n")
			gittest.Write(t, dir, "greet/sub/x.py", "x = 3\n")
			tt.setup(t, dir)
			r, err := gitrepo.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			un, err := r.UntrackedFiles(ctx, since)
			if err != nil {
				t.Fatal(err)
			}
			if got := sorted(un); !slices.Equal(got, tt.untracked) {
				t.Errorf("UntrackedFiles = %q, want %q", got, tt.untracked)
			}
			ch, err := r.ChangedFiles(ctx, start)
			if err != nil {
				t.Fatal(err)
			}
			if got := sorted(ch); !slices.Equal(got, tt.changed) {
				t.Errorf("ChangedFiles = %q, want %q", got, tt.changed)
			}
		})
	}
}
