package verify_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/verify"
)

// TestNamedRemoteBaseFetched (lazy pass 49's CI-shape log): `verify
// origin/main..HEAD` in a checkout of one branch (`git clone --branch feat
// --depth 1`, actions/checkout's default) stopped at "resolve origin/main".
// The named branch is fetched into its remote-tracking ref, the shallow
// history deepened, and the range lists the branch's own commits, no
// more, no fewer. With --no-fetch it is an exit 2 that says what to fetch;
// a base no remote names stays an error of its own.
func TestNamedRemoteBaseFetched(t *testing.T) {
	t.Parallel()
	src := gittest.New(t, map[string]string{"a.txt": "a\n"})
	for i := range 3 {
		gittest.Commit(t, src, fmt.Sprintf("main %d", i), map[string]string{fmt.Sprintf("m%d.txt", i): "x\n"})
	}
	gittest.Git(t, src, "checkout", "-q", "-b", "feat")
	var feat []string
	for i := range 3 {
		feat = append(feat, gittest.Commit(t, src, fmt.Sprintf("feat %d", i), map[string]string{fmt.Sprintf("f%d.txt", i): "x\n"}))
	}
	gittest.Git(t, src, "checkout", "-q", "main")
	origin := filepath.Join(t.TempDir(), "origin.git")
	gittest.Git(t, src, "clone", "-q", "--bare", "--no-local", src, origin)
	clone := func(t *testing.T) *gitrepo.Repo {
		dir := filepath.Join(t.TempDir(), "c")
		gittest.Git(t, filepath.Dir(dir), "clone", "-q", "--depth=1", "--single-branch", "--branch=feat", "file://"+origin, dir)
		repo, err := gitrepo.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		return repo
	}
	t.Run("fetched and deepened", func(t *testing.T) {
		t.Parallel()
		ctx := context.Background()
		repo := clone(t)
		rg := verify.Named("origin/main..HEAD", "HEAD")
		if err := rg.Complete(ctx, repo, true); err != nil {
			t.Fatalf("Complete: %v", err)
		}
		if !strings.Contains(strings.Join(rg.Fetched, "; "), "main:refs/remotes/origin/main") {
			t.Errorf("Fetched = %q, want the named branch fetched", rg.Fetched)
		}
		got, err := repo.RevList(ctx, rg.Revs)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(feat) {
			t.Fatalf("the range lists %d commits (%q), want feat's %d", len(got), got, len(feat))
		}
		for i, c := range got {
			if c != feat[len(feat)-1-i] {
				t.Errorf("commit %d = %s, want %s", i, c, feat[len(feat)-1-i])
			}
		}
	})
	t.Run("no fetch: exit 2 saying what to fetch", func(t *testing.T) {
		t.Parallel()
		rg := verify.Named("origin/main..HEAD", "HEAD")
		err := rg.Complete(context.Background(), clone(t), false)
		var env *verify.EnvError
		if !errors.As(err, &env) || !strings.Contains(err.Error(), "git fetch origin main:refs/remotes/origin/main") {
			t.Errorf("Complete = %v, want an *EnvError naming the fetch", err)
		}
	})
	t.Run("a branch the remote lacks", func(t *testing.T) {
		t.Parallel()
		rg := verify.Named("origin/nope..HEAD", "HEAD")
		err := rg.Complete(context.Background(), clone(t), true)
		var env *verify.EnvError
		if !errors.As(err, &env) || !strings.Contains(err.Error(), "origin/nope") {
			t.Errorf("Complete = %v, want an *EnvError naming origin/nope", err)
		}
	})
}
