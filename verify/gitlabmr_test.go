package verify_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/verify"
)

// TestGitLabNoDiffBase: a GitLab merge request pipeline without
// CI_MERGE_REQUEST_DIFF_BASE_SHA (a downstream or child pipeline given
// some variables only), in the runner's checkout (refs/pipelines/<id>
// alone at GIT_DEPTH 20 or 50, detached HEAD), checks the source head's
// commits not on the target branch: never GitLab's merged-results commit,
// never against the default branch when the target is another, never a
// fork's main taken for the default branch. Before, it was read as a push
// creating a branch: CI_COMMIT_SHA (the merged-results commit) against the
// default branch, and a fork's main into main as a push creating the
// default branch.
func TestGitLabNoDiffBase(t *testing.T) {
	t.Parallel()
	src := gittest.New(t, nil)
	for i := range 3 {
		gittest.Commit(t, src, fmt.Sprintf("main %d", i), map[string]string{fmt.Sprintf("m%d.txt", i): "x\n"})
	}
	gittest.Git(t, src, "checkout", "-q", "-b", "release")
	release := gittest.Commit(t, src, "release fix", map[string]string{"rel.txt": "x\n"})
	gittest.Git(t, src, "checkout", "-q", "-b", "feat")
	for i := range 25 {
		gittest.Commit(t, src, fmt.Sprintf("feat %02d", i), map[string]string{fmt.Sprintf("f%02d.txt", i): "x\n"})
	}
	feat := gittest.Git(t, src, "rev-parse", "HEAD")
	// GitLab's merged-results commit: the target merged with the source.
	gittest.Git(t, src, "checkout", "-q", "--detach", release)
	gittest.Git(t, src, "merge", "-q", "--no-ff", "-m", "Merge commit for merged results", feat)
	merged := gittest.Git(t, src, "rev-parse", "HEAD")
	gittest.Git(t, src, "checkout", "-q", "main")
	gittest.Git(t, src, "update-ref", "refs/pipelines/7", feat)
	gittest.Git(t, src, "update-ref", "refs/pipelines/8", merged)
	gittest.Git(t, src, "branch", "-q", "-D", "feat")
	bare := filepath.Join(t.TempDir(), "origin.git")
	gittest.Git(t, src, "clone", "-q", "--mirror", "--no-local", src, bare)

	mr := func(extra ...string) map[string]string {
		env := map[string]string{"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event", "CI_DEFAULT_BRANCH": "main",
			"CI_MERGE_REQUEST_IID": "4", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "release", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "feat",
			"CI_COMMIT_REF_NAME": "feat", "CI_COMMIT_BEFORE_SHA": strings.Repeat("0", 40), "CI_COMMIT_SHA": feat}
		for i := 0; i+1 < len(extra); i += 2 {
			env[extra[i]] = extra[i+1]
		}
		return env
	}
	for _, c := range []struct {
		name     string
		pipeline string
		depth    int
		env      map[string]string
		n        int    // commits in the range; 0: an *EnvError
		how      string // in the range's How
	}{
		{"into release, GIT_DEPTH 20: not against main", "7", 20, mr(), 25, "without CI_MERGE_REQUEST_DIFF_BASE_SHA"},
		{"into release, GIT_DEPTH 50", "7", 50, mr(), 25, "not on the default branch release"},
		{"merged results: the source's commits, not GitLab's merge", "8", 20,
			mr("CI_COMMIT_SHA", merged, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA", feat), 25, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA"},
		{"a fork's main into main: not the default branch's whole history", "7", 20,
			mr("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "main", "CI_COMMIT_REF_NAME", "main"), 26, "without CI_MERGE_REQUEST_DIFF_BASE_SHA"},
		{"no target either: exit 2 naming the variable", "7", 20,
			mr("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", ""), 0, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			clone := gittest.Init(t)
			gittest.Git(t, clone, "remote", "add", "origin", "file://"+bare)
			ref := "refs/pipelines/" + c.pipeline
			gittest.Git(t, clone, "fetch", "-q", fmt.Sprintf("--depth=%d", c.depth), "origin", "+"+ref+":"+ref)
			gittest.Git(t, clone, "checkout", "-q", "--detach", ref)
			repo, err := gitrepo.Open(ctx, clone)
			if err != nil {
				t.Fatal(err)
			}
			rg, err := verify.ChooseRange(ctx, repo, func(k string) string { return c.env[k] })
			if err == nil {
				err = rg.Complete(ctx, repo, true)
			}
			var envErr *verify.EnvError
			if c.n == 0 {
				if !errors.As(err, &envErr) || !strings.Contains(err.Error(), c.how) {
					t.Fatalf("err %v, want an exit 2 naming %s", err, c.how)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			list, err := repo.RevList(ctx, rg.Revs)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != c.n || slices.Contains(list, merged) || !slices.Contains(list, feat) || !strings.Contains(rg.How, c.how) {
				t.Errorf("range %s (%s): %d commit(s), merged-results commit in it %v; want %d, the source head's, how naming %q",
					rg.Text, rg.How, len(list), slices.Contains(list, merged), c.n, c.how)
			}
		})
	}
}

// TestGitLabTargetRewound: a merged-results pipeline whose target branch
// was force-pushed past the request's diff base (main rewound past three
// commits, one of them the team's reason to rewind) lands those commits
// again with the merge: they lie below CI_MERGE_REQUEST_DIFF_BASE_SHA, so
// base..source (25 commits) left them out and the request passed. The
// range is the source's commits not on CI_MERGE_REQUEST_TARGET_BRANCH_SHA
// (28). Honest twin: a target that only moved forward gives the same 25
// commits as before. GitLab-runner checkout: refs/pipelines/<id> alone at
// GIT_DEPTH 20, detached.
func TestGitLabTargetRewound(t *testing.T) {
	t.Parallel()
	src := gittest.New(t, nil)
	root := gittest.Git(t, src, "rev-parse", "HEAD")
	for i := range 3 {
		gittest.Commit(t, src, fmt.Sprintf("main %d", i), map[string]string{fmt.Sprintf("m%d.txt", i): "x\n"})
	}
	diffBase := gittest.Git(t, src, "rev-parse", "HEAD")
	gittest.Git(t, src, "checkout", "-q", "-b", "feat")
	for i := range 25 {
		gittest.Commit(t, src, fmt.Sprintf("feat %02d", i), map[string]string{fmt.Sprintf("f%02d.txt", i): "x\n"})
	}
	feat := gittest.Git(t, src, "rev-parse", "HEAD")
	mergeOnto := func(name, target string) string {
		gittest.Git(t, src, "checkout", "-q", "--detach", target)
		gittest.Git(t, src, "merge", "-q", "--no-ff", "-m", "Merge commit for merged results", feat)
		m := gittest.Git(t, src, "rev-parse", "HEAD")
		gittest.Git(t, src, "update-ref", "refs/pipelines/"+name, m)
		return m
	}
	gittest.Git(t, src, "checkout", "-q", "--detach", root)
	rewound := gittest.Commit(t, src, "main rewound", map[string]string{"r.txt": "x\n"})
	gittest.Git(t, src, "checkout", "-q", "--detach", diffBase)
	forward := gittest.Commit(t, src, "main moved on", map[string]string{"n.txt": "x\n"})
	mergedRewound, mergedForward := mergeOnto("11", rewound), mergeOnto("12", forward)
	gittest.Git(t, src, "checkout", "-q", "-B", "main", rewound)
	gittest.Git(t, src, "branch", "-q", "-D", "feat")
	bare := filepath.Join(t.TempDir(), "origin.git")
	gittest.Git(t, src, "clone", "-q", "--mirror", "--no-local", src, bare)

	for _, c := range []struct {
		name, pipeline, merged, target string
		n                              int
	}{
		{"target rewound past the diff base: the dropped commits are checked", "11", mergedRewound, rewound, 28},
		{"target moved forward: the request's own commits", "12", mergedForward, forward, 25},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			clone := gittest.Init(t)
			gittest.Git(t, clone, "remote", "add", "origin", "file://"+bare)
			ref := "refs/pipelines/" + c.pipeline
			gittest.Git(t, clone, "fetch", "-q", "--depth=20", "origin", "+"+ref+":"+ref)
			gittest.Git(t, clone, "checkout", "-q", "--detach", ref)
			env := map[string]string{"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event", "CI_DEFAULT_BRANCH": "main",
				"CI_MERGE_REQUEST_IID": "9", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "feat",
				"CI_MERGE_REQUEST_DIFF_BASE_SHA": diffBase, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA": feat, "CI_MERGE_REQUEST_TARGET_BRANCH_SHA": c.target,
				"CI_MERGE_REQUEST_EVENT_TYPE": "merged_result", "CI_COMMIT_SHA": c.merged, "CI_COMMIT_BEFORE_SHA": strings.Repeat("0", 40)}
			repo, err := gitrepo.Open(ctx, clone)
			if err != nil {
				t.Fatal(err)
			}
			rg, err := verify.ChooseRange(ctx, repo, func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if err := rg.Complete(ctx, repo, true); err != nil {
				t.Fatal(err)
			}
			list, err := repo.RevList(ctx, rg.Revs)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != c.n || slices.Contains(list, c.merged) {
				t.Errorf("range %s (%s): %d commit(s), the merged-results commit in it %v; want %d", rg.Text, rg.How, len(list), slices.Contains(list, c.merged), c.n)
			}
			if base, err := rg.BaseCommit(ctx, repo); err != nil || base == "" {
				t.Errorf("base commit %q %v: the config is read at the merge base with the target", base, err)
			}
		})
	}
}
