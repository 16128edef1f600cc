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

// TestShallowErrorNamesTheCI: a shallow clone verify cannot deepen (no
// credentials left after the checkout: Azure Pipelines' default
// persistCredentials is false, and its pipelines fetch at depth 1) exits
// 2, and the message names that CI's own setting: it named GitHub's
// `fetch-depth: 0` and GitLab's `GIT_DEPTH` on every CI, which an Azure,
// Bitbucket, Jenkins or Buildkite team cannot set. The range is never
// passed short (an *EnvError each time); GitHub keeps its words.
func TestShallowErrorNamesTheCI(t *testing.T) {
	t.Parallel()
	src := gittest.New(t, map[string]string{"a.txt": "a\n"})
	gittest.Git(t, src, "checkout", "-q", "-b", "feat")
	var head string
	for i := range 3 {
		head = gittest.Commit(t, src, fmt.Sprintf("feat %d", i), map[string]string{fmt.Sprintf("f%d.txt", i): "x\n"})
	}
	gittest.Git(t, src, "checkout", "-q", "main")
	origin := filepath.Join(t.TempDir(), "origin.git")
	gittest.Git(t, src, "clone", "-q", "--bare", "--no-local", src, origin)
	for _, c := range []struct {
		ci   string
		env  map[string]string
		want string
	}{
		{"Azure Pipelines", map[string]string{"TF_BUILD": "True", "BUILD_SOURCEBRANCH": "refs/heads/feat", "BUILD_SOURCEVERSION": head}, "fetchDepth: 0"},
		{"Bitbucket Pipelines", map[string]string{"BITBUCKET_BUILD_NUMBER": "3", "BITBUCKET_BRANCH": "feat", "BITBUCKET_COMMIT": head}, "clone: depth: full"},
		{"Jenkins", map[string]string{"JENKINS_URL": "https://jenkins.example/", "GIT_BRANCH": "origin/feat", "GIT_COMMIT": head}, "shallow: false"},
		{"Buildkite", map[string]string{"BUILDKITE": "true", "BUILDKITE_BRANCH": "feat", "BUILDKITE_COMMIT": head, "BUILDKITE_PIPELINE_DEFAULT_BRANCH": "main"}, "BUILDKITE_GIT_CLONE_FLAGS"},
		{"GitHub (a named range)", nil, "fetch-depth: 0"},
	} {
		t.Run(c.ci, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dir := filepath.Join(t.TempDir(), "c")
			gittest.Git(t, filepath.Dir(dir), "clone", "-q", "--depth=1", "--no-single-branch", "--branch=feat", "file://"+origin, dir)
			gittest.Git(t, dir, "remote", "set-url", "origin", "file://"+filepath.Join(t.TempDir(), "gone.git"))
			repo, err := gitrepo.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			var rg *verify.Range
			if c.env == nil {
				rg = verify.Named("origin/main.."+head, head)
			} else if rg, err = verify.ChooseRange(ctx, repo, func(k string) string { return c.env[k] }); err != nil || rg == nil {
				t.Fatalf("ChooseRange: %v, %v", rg, err)
			}
			err = rg.Complete(ctx, repo, true)
			var env *verify.EnvError
			if !errors.As(err, &env) {
				t.Fatalf("Complete = %v, want an *EnvError (exit 2)", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("the exit 2 does not name %q:\n%s", c.want, err)
			}
			if c.env != nil && strings.Contains(err.Error(), "fetch-depth") {
				t.Errorf("a %s build is told GitHub's setting:\n%s", c.ci, err)
			}
		})
	}
}
