package gitrepo_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestChangedGitlinks: a submodule added from its URL is published (its
// clone's remote-tracking ref holds the commit); moved to a commit made
// only here, it is present but not published; a gitlink no .gitmodules
// names has no URL a clone could fetch from.
func TestChangedGitlinks(t *testing.T) {
	ctx := context.Background()
	up := gittest.New(t, map[string]string{"lib.txt": "v1\n"})
	root := gittest.New(t, nil)
	start := gittest.Git(t, root, "rev-parse", "HEAD")
	gittest.Git(t, root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", up, "sub")
	gittest.Git(t, root, "commit", "-q", "-m", "add sub")
	published := gittest.Git(t, filepath.Join(root, "sub"), "rev-parse", "HEAD")

	check := func(name string, want []session.Gitlink) {
		t.Run(name, func(t *testing.T) {
			r, err := gitrepo.Open(ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.ChangedGitlinks(ctx, start)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("ChangedGitlinks = %+v, want %+v", got, want)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("gitlink %d = %+v, want %+v", i, got[i], want[i])
				}
			}
		})
	}
	check("added from its URL", []session.Gitlink{{Path: "sub", Commit: published, URL: up, Present: true, Published: true}})

	local := gittest.Commit(t, filepath.Join(root, "sub"), "local only", map[string]string{"lib.txt": "v2\n"})
	gittest.Git(t, root, "add", "sub")
	gittest.Git(t, root, "commit", "-q", "-m", "move sub")
	check("moved to a commit made here", []session.Gitlink{{Path: "sub", Commit: local, URL: up, Present: true}})

	gittest.Git(t, root, "update-index", "--add", "--cacheinfo", "160000,"+local+",lonely")
	gittest.Git(t, root, "commit", "-q", "-m", "lonely gitlink")
	check("a gitlink .gitmodules does not name", []session.Gitlink{
		{Path: "lonely", Commit: local}, {Path: "sub", Commit: local, URL: up, Present: true}})

	r, err := gitrepo.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r.ChangedGitlinks(ctx, "HEAD"); err != nil || len(got) != 0 {
		t.Errorf("no change: %+v, %v", got, err)
	}
}
