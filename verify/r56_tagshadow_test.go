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

// TestR56NamedRangeTagShadowsRemoteBranch: a CI job runs the documented
// named range `sessiongate verify origin/main..HEAD` (release jobs, Jenkins,
// CircleCI, Buildkite) in a clone that fetched tags (actions/checkout with
// fetch-depth 0, GitLab GIT_DEPTH 0). The agent pushed a tag named
// "origin/main" at its own hooks-off commit: git resolves a short name to
// refs/tags/origin/main before refs/remotes/origin/main, so the range
// started at the agent's commit (left unchecked, and its sessiongate.yaml
// taken as the trusted base). Want: the range is the remote branch's
// (every feat commit), or an *EnvError naming the ambiguity.
func TestR56NamedRangeTagShadowsRemoteBranch(t *testing.T) {
	t.Parallel()
	src := gittest.New(t, map[string]string{"a.txt": "a\n"})
	for i := range 2 {
		gittest.Commit(t, src, fmt.Sprintf("main %d", i), map[string]string{fmt.Sprintf("m%d.txt", i): "x\n"})
	}
	gittest.Git(t, src, "checkout", "-q", "-b", "feat")
	var feat []string
	for i := range 3 {
		feat = append(feat, gittest.Commit(t, src, fmt.Sprintf("feat %d", i), map[string]string{fmt.Sprintf("f%d.txt", i): "x\n"}))
	}
	// The agent's tag at its first (hooks-off) commit, pushed like any tag.
	gittest.Git(t, src, "tag", "origin/main", feat[0])
	gittest.Git(t, src, "checkout", "-q", "main")
	origin := filepath.Join(t.TempDir(), "origin.git")
	gittest.Git(t, src, "clone", "-q", "--bare", "--no-local", src, origin)
	// actions/checkout, fetch-depth: 0: every branch and tag, the head detached.
	dir := filepath.Join(t.TempDir(), "c")
	gittest.Git(t, filepath.Dir(dir), "init", "-q", dir)
	gittest.Git(t, dir, "remote", "add", "origin", "file://"+origin)
	gittest.Git(t, dir, "fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*")
	gittest.Git(t, dir, "checkout", "-q", "--detach", feat[2])
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	rg := verify.Named("origin/main..HEAD", "HEAD")
	err = rg.Complete(ctx, repo, false)
	var env *verify.EnvError
	if errors.As(err, &env) && strings.Contains(err.Error(), "ambiguous") {
		return // refused, naming the tag: fine
	}
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	got, err := repo.RevList(ctx, rg.Revs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(feat) {
		t.Errorf("origin/main..HEAD lists %d commit(s) %q, want feat's %d: a tag named origin/main (refs/tags/origin/main, at the agent's commit %s) shadowed refs/remotes/origin/main", len(got), got, len(feat), feat[0])
	}
}
