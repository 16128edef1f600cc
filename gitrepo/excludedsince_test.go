package gitrepo

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestHiddenSinceSession: what "Commit all changes" must see though git
// status does not (lazy pass 28), and what a person set up before the
// session that it must leave alone.
func TestHiddenSinceSession(t *testing.T) {
	gittest.Require(t)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx := context.Background()
	files := map[string]string{"README.md": "# r\n", "local.cfg": "a=1\n"}
	cases := []struct {
		name     string
		before   func(t *testing.T, root string) // the person's, before the session
		during   func(t *testing.T, root string) // the session's
		flagged  []string
		excluded []string
	}{
		{"lazy: skip-worktree on a file the session changed", nil, func(t *testing.T, root string) {
			gittest.Write(t, root, "README.md", "# r\nmore\n")
			gittest.Git(t, root, "update-index", "--skip-worktree", "README.md")
		}, []string{"README.md"}, nil},
		{"lazy: assume-unchanged on a file the session changed", nil, func(t *testing.T, root string) {
			gittest.Write(t, root, "README.md", "# r\nmore\n")
			gittest.Git(t, root, "update-index", "--assume-unchanged", "README.md")
		}, []string{"README.md"}, nil},
		{"lazy: a new file hidden by an exclude written in the session", nil, func(t *testing.T, root string) {
			gittest.Write(t, root, "docs/usage.md", "usage\n")
			gittest.Write(t, root, ".git/info/exclude", "docs/\n")
		}, nil, []string{"docs/usage.md"}},
		{"honest: a person's flag on a local config the session never touched", func(t *testing.T, root string) {
			gittest.Write(t, root, "local.cfg", "a=2\n")
			gittest.Git(t, root, "update-index", "--assume-unchanged", "local.cfg")
		}, nil, nil, nil},
		{"honest: a person's exclude; the session makes a file it hides", func(t *testing.T, root string) {
			gittest.Write(t, root, ".git/info/exclude", "notes/\n")
		}, func(t *testing.T, root string) {
			gittest.Write(t, root, "notes/todo.md", "x\n")
		}, nil, nil},
		{"honest: a long-standing exclude line hides the app's log; another line added during the session", func(t *testing.T, root string) {
			gittest.Write(t, root, ".git/info/exclude", "*.log\n")
		}, func(t *testing.T, root string) {
			gittest.Write(t, root, "app.log", "x\n")
			gittest.Write(t, root, ".git/info/exclude", "*.log\nscratch/\n")
		}, nil, nil},
		{"lazy: a line added beside a long-standing one hides the work", func(t *testing.T, root string) {
			gittest.Write(t, root, ".git/info/exclude", "*.log\n")
		}, func(t *testing.T, root string) {
			gittest.Write(t, root, "app.log", "x\n")
			gittest.Write(t, root, "docs/usage.md", "usage\n")
			gittest.Write(t, root, ".git/info/exclude", "*.log\ndocs/\n")
		}, nil, []string{"docs/usage.md"}},
		{"lazy: a new file hidden by a .gitignore the session writes, which ignores itself", nil, func(t *testing.T, root string) {
			gittest.Write(t, root, "docs/usage.md", "usage\n")
			gittest.Write(t, root, "docs/.gitignore", "*\n")
		}, nil, []string{"docs/usage.md"}},
		{"honest: a build folder the tool marks, ignoring itself", nil, func(t *testing.T, root string) {
			gittest.Write(t, root, "build/out.o", "x\n")
			gittest.Write(t, root, "build/CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n")
			gittest.Write(t, root, "build/.gitignore", "*\n")
		}, nil, nil},
		{"lazy: a CACHEDIR.TAG the session writes beside a self-ignoring docs/new/.gitignore", nil, func(t *testing.T, root string) {
			gittest.Write(t, root, "docs/new/usage.md", "usage\n")
			gittest.Write(t, root, "docs/new/CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n")
			gittest.Write(t, root, "docs/new/.gitignore", "*\n")
		}, nil, []string{"docs/new/CACHEDIR.TAG", "docs/new/usage.md"}},
		{"honest: a marked cache folder from before the session, ignoring itself", func(t *testing.T, root string) {
			gittest.Write(t, root, "gen/CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n")
		}, func(t *testing.T, root string) {
			gittest.Write(t, root, "gen/out.bin", "x\n")
			gittest.Write(t, root, "gen/.gitignore", "*\n")
		}, nil, nil},
		{"honest: pytest's cache, ignoring itself", nil, func(t *testing.T, root string) {
			gittest.Write(t, root, ".pytest_cache/v/cache/nodeids", "[]\n")
			gittest.Write(t, root, ".pytest_cache/.gitignore", "# Created by pytest automatically.\n*\n")
		}, nil, nil},
		{"lazy: core.excludesFile pointed at an old tracked file that lists docs/", func(t *testing.T, root string) {
			gittest.Write(t, root, ".dockerignore", "docs/\n")
		}, func(t *testing.T, root string) {
			gittest.Write(t, root, "docs/usage.md", "usage\n")
			gittest.Git(t, root, "config", "core.excludesFile", root+"/.dockerignore")
		}, nil, []string{"docs/usage.md"}},
		// An exclude file over boundedread's limit (git reads it whole):
		// its lines were skipped unread, so the new one was no new line.
		{"lazy: a line appended to the per-clone exclude file, padded past the read limit", func(t *testing.T, root string) {
			gittest.Write(t, root, ".git/info/exclude", "*.log\n")
		}, func(t *testing.T, root string) {
			gittest.Write(t, root, "docs/usage.md", "usage\n")
			gittest.Write(t, root, ".git/info/exclude", "*.log\n"+excludePadding()+"docs/\n")
		}, nil, []string{"docs/usage.md"}},
		{"honest: a person's exclude file over the read limit from before the session hides the app's log", func(t *testing.T, root string) {
			gittest.Write(t, root, ".git/info/exclude", "*.log\n"+excludePadding())
		}, func(t *testing.T, root string) {
			gittest.Write(t, root, "app.log", "x\n")
		}, nil, nil},
		{"honest: a runner's folder under a new exclude", nil, func(t *testing.T, root string) {
			gittest.Write(t, root, ".venv/lib/x.py", "x\n")
			gittest.Write(t, root, ".git/info/exclude", ".venv/\n")
		}, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := gittest.New(t, files)
			if tc.before != nil {
				tc.before(t, root)
			}
			// The gate's since: a second before the session started
			// (ctime in whole seconds on some file systems).
			time.Sleep(2100 * time.Millisecond)
			since := time.Now().Add(-time.Second)
			r0, err := Open(ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			atStart := r0.ExcludeLines(ctx)
			if tc.during != nil {
				tc.during(t, root)
			}
			r, err := Open(ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			fl, err := r.FlaggedSince(ctx, since)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for p := range fl {
				got = append(got, p)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.flagged) {
				t.Errorf("FlaggedSince = %v, want %v", got, tc.flagged)
			}
			ex, err := r.ExcludedSince(ctx, since, atStart)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ex, tc.excluded) {
				t.Errorf("ExcludedSince = %v, want %v", ex, tc.excluded)
			}
		})
	}
}

// excludePadding is comment lines past boundedread.DefaultLimit.
func excludePadding() string {
	line := "# generated by the editor's plugin, keep\n"
	return strings.Repeat(line, boundedread.DefaultLimit/len(line)+1)
}
