package verify

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// pipelineVarsFix is what closes the route the checks below read: on
// GitLab a pipeline variable (`git push -o ci.variable="NAME=value"`, a
// manual or API run) overrides the predefined variables verify takes its
// range from, and anyone who may push may set one unless the project says
// otherwise.
const pipelineVarsFix = "a pipeline variable overrides GitLab's own (anyone who may push can set one with git push -o ci.variable=..., or in a manual or API run): set Settings > CI/CD > Variables > \"Minimum role to use pipeline variables\" to \"No one allowed\" (docs/security.md, \"Pipeline variables a pusher sets\")"

// checkGitLabVars compares the GitLab variables a range was chosen from
// with what git says, where git can say it: the commit the runner checked
// out (the job's own, from the job payload, never a variable) and the
// default branch origin names. A push setting CI_COMMIT_SHA to an honest
// commit had verify check that commit and pass the hooks-off one checked
// out; CI_DEFAULT_BRANCH set to a branch holding the hooks-off commit left
// it "on the default branch": both exit 0 on the old code
// (TestVerifyAdvGitLabPipelineVariables).
func checkGitLabVars(ctx context.Context, repo *gitrepo.Repo, getenv func(string) string) error {
	if sha := getenv("CI_COMMIT_SHA"); sha != "" {
		if head, err := repo.ResolveRev(ctx, "HEAD"); err == nil && head != "" {
			if want, err := repo.ResolveRev(ctx, sha+"^{commit}"); err != nil || want != head {
				return envErrorf("CI_COMMIT_SHA is %s, but this job checked out %s (GitLab's runner checks out the pipeline's own commit): %s; to check the checkout, name the range (sessiongate verify BASE..%s)",
					shorten.SHA(sha), shorten.SHA(head), pipelineVarsFix, shorten.SHA(head))
			}
		}
	}
	if def := getenv("CI_DEFAULT_BRANCH"); def != "" {
		if origin := remoteHead(ctx, repo); origin != "" && origin != def {
			return envErrorf("CI_DEFAULT_BRANCH is %q, but origin's default branch is %q (git ls-remote --symref origin HEAD): %s", def, origin, pipelineVarsFix)
		}
	}
	return nil
}

// onDefaultIsTip: a branch pipeline whose commit is already on the default
// branch made an empty range ("0 commit(s)", exit 0). GitLab sets
// CI_COMMIT_BRANCH from the ref pushed, but a pipeline variable can name
// another branch on a push to main, and the hooks-off commit on main then
// sat under "the commits not on the default branch". Such a commit is
// checked as a default-branch build of it (its tip and the --recheck
// window), as a tag of a commit on main is.
func onDefaultIsTip(ctx context.Context, repo *gitrepo.Repo, rg *Range, def string) *Range {
	if rg == nil || rg.tipOnly || len(rg.Revs) != 3 || rg.Revs[1] != "--not" {
		return rg
	}
	if on, err := repo.IsAncestor(ctx, rg.Head, rg.Revs[2]); err != nil || !on {
		return rg
	}
	return tipRange(rg.Head, def, fmt.Sprintf("%s; %s is already on the default branch %s", rg.How, shorten.SHA(rg.Head), def))
}

// mergeRequestOnDefault: a merge request's head already on the default
// branch is checked as a default-branch build of it (its tip and the
// --recheck window). A pipeline variable can name a diff base
// (CI_MERGE_REQUEST_DIFF_BASE_SHA) on a push to main: the hooks-off commit
// as the base, or as the base and the head, made the range hold nothing
// of it and exit 0 (TestVerifyAdvGitLabPipelineVariables). A real merge
// request's head is its source branch's, not yet on the target; one whose
// source is the default branch itself (main into a release branch) holds
// commits main's own pipelines checked, and its tip build passes them.
func mergeRequestOnDefault(ctx context.Context, repo *gitrepo.Repo, rg *Range, def string) *Range {
	if rg == nil || rg.tipOnly || def == "" {
		return rg
	}
	ref := "refs/remotes/origin/" + def
	if tip, err := repo.ResolveRev(ctx, ref+"^{commit}"); err != nil || tip == "" {
		return rg
	}
	if on, err := repo.IsAncestor(ctx, rg.Head, ref); err != nil || !on {
		return rg
	}
	how := fmt.Sprintf("%s; %s is already on the default branch %s", rg.How, shorten.SHA(rg.Head), def)
	if p := pushedFrom(rg.Base, rg.Head, def, how+", checked as a push to it from the diff base"); p != nil {
		return p
	}
	return tipRange(rg.Head, def, how)
}

// pushedFrom is a range whose head is already on the default branch and
// whose pipeline names a base below it (a push's CI_COMMIT_BEFORE_SHA, a
// merge request's diff base), checked as a push to the default branch from
// that base: base..head and the --recheck window below it, the base
// included, as main's own push runs are; nil when the base is none or the
// head itself. As a tip build naming no before, an honest release branch
// fast-forwarded to a main deeper than the window, and a promotion
// request from main, exited 2 ("the build names no commit
// the push started from"), though the pipeline named it (helper 330's F3,
// F4). It trusts the base as main's push runs already trust a push's
// before; a forged one lands the hooks-off commit in the window.
func pushedFrom(base, head, def, how string) *Range {
	if base == "" || isZero(base) || base == head {
		return nil
	}
	// Not asked whether base is below head: a shallow clone may not hold
	// it yet (completing the range deepens to it), and a base that is not
	// is a force push, which a push to main's range handles (forcepush.go).
	rg := span(base, head, how)
	rg.Branch, rg.DefaultBranch, rg.defaultPush = def, def, true
	return rg
}
