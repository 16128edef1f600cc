package verify

import (
	"context"

	"github.com/sessiongate/sessiongate/gitrepo"
)

// A GitLab merge request pipeline names its commits by
// CI_MERGE_REQUEST_DIFF_BASE_SHA..head. A pipeline without that variable
// (a downstream or child pipeline given only some variables, an older
// GitLab) read as a push creating a branch: CI_COMMIT_SHA, which in a
// merged-results pipeline is the merge GitLab made, against the default
// branch, not the request's target (the target's own commits came in
// too), and a fork's main into main as a push creating the default
// branch (its whole history since the adoption). Its commits
// are the source head's not on the target branch: exactly what the merge
// would land (TestGitLabNoDiffBase, round 24). The diff base itself is
// never pruned while the pipeline runs: it is an ancestor of the head
// that refs/pipelines/<id> keeps.

// gitlabNoDiffBase is a merge request pipeline without
// CI_MERGE_REQUEST_DIFF_BASE_SHA: the source head's commits not on the
// target branch; nil for any other pipeline.
func gitlabNoDiffBase(ctx context.Context, repo *gitrepo.Repo, getenv func(string) string) (*Range, error) {
	if getenv("CI_MERGE_REQUEST_DIFF_BASE_SHA") != "" || (getenv("CI_MERGE_REQUEST_IID") == "" && getenv("CI_PIPELINE_SOURCE") != "merge_request_event") {
		return nil, nil
	}
	head, what := getenv("CI_MERGE_REQUEST_SOURCE_BRANCH_SHA"), "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA"
	if head == "" {
		head, what = getenv("CI_COMMIT_SHA"), "CI_COMMIT_SHA"
	}
	target, iid := getenv("CI_MERGE_REQUEST_TARGET_BRANCH_NAME"), getenv("CI_MERGE_REQUEST_IID")
	if head == "" || target == "" {
		lacks := "CI_COMMIT_SHA"
		if head != "" {
			lacks = "CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
		}
		return nil, envErrorf("GitLab merge request pipeline !%s without CI_MERGE_REQUEST_DIFF_BASE_SHA and without %s: which commits the request adds cannot be told; pass the variables to this job, or name the range (sessiongate verify \"origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME..$CI_MERGE_REQUEST_SOURCE_BRANCH_SHA\")", iid, lacks)
	}
	rg, err := mrTargetRange(ctx, repo, head, target, getenv("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME"),
		"GitLab merge request !"+iid+" without CI_MERGE_REQUEST_DIFF_BASE_SHA: the commits of "+what)
	if rg != nil {
		if def := getenv("CI_DEFAULT_BRANCH"); def != "" {
			rg.DefaultBranch = def
		}
	}
	return rg, err
}

// mrTargetRange is the commits of head not on the request's target
// branch. The source branch is not passed as the branch newBranchRange
// compares with the target: a fork's main into the project's main has the
// same name on both sides, which read as a push of the default branch.
func mrTargetRange(ctx context.Context, repo *gitrepo.Repo, head, target, source, how string) (*Range, error) {
	rg, err := newBranchRange(ctx, repo, head, "", target, how)
	if err != nil || rg == nil {
		return rg, err
	}
	rg.Branch = source
	return rg, nil
}
