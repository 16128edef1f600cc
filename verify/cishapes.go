package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// The CI shapes beyond a GitHub push or pull request and a GitLab
// pipeline (issue 25). Each CI checks out the pushed commit its own way,
// and several leave a branch whose upstream is the pushed branch itself
// (actions/checkout on workflow_dispatch or schedule: `checkout -B B
// refs/remotes/origin/B`; Bitbucket's `clone --branch`; CircleCI's cloned
// main): @{upstream}..HEAD was empty there, and verify passed a hooks-off
// tip as "0 commit(s)" (TestVerifyAdvCIMoreShapes). So the range comes
// from the CI's own variables where it has them, and an empty upstream
// range is never the answer.

// ciFacts is what a CI's environment says about the build.
type ciFacts struct {
	ci      string // "Jenkins", for the report
	head    string // the commit built (the pull request's head, not a CI merge)
	branch  string // the branch built, "" for a tag or unknown
	tag     string // the tag built
	target  string // a pull request's target branch, "" for none
	def     string // the default branch, when the CI says it
	before  string // the commit a default-branch build starts after, when the CI says it
	vars    string // the variables read, for the report
	prNoSHA bool   // a pull request whose head commit the CI does not name
}

// ciFromEnv reads the CIs that set no GITHUB_EVENT_PATH or CI_COMMIT_*:
// Jenkins, Buildkite, CircleCI, Azure Pipelines, Bitbucket Pipelines.
func ciFromEnv(getenv func(string) string) *ciFacts {
	heads := func(s string) string { return strings.TrimPrefix(s, "refs/heads/") }
	switch {
	case getenv("JENKINS_URL") != "" && getenv("GIT_COMMIT") != "":
		f := &ciFacts{ci: "Jenkins", head: getenv("GIT_COMMIT"), vars: "GIT_COMMIT"}
		f.branch = getenv("BRANCH_NAME")
		if f.branch == "" {
			f.branch = strings.TrimPrefix(getenv("GIT_BRANCH"), "origin/")
		}
		if id := getenv("CHANGE_ID"); id != "" {
			f.target, f.vars = getenv("CHANGE_TARGET"), "GIT_COMMIT, CHANGE_TARGET"
		} else if p := getenv("GIT_PREVIOUS_SUCCESSFUL_COMMIT"); p != "" {
			// The last green build, not the last build: a failed push
			// stays in the range until a build passes.
			f.before = p
		}
		return f
	case getenv("BUILDKITE") == "true" && getenv("BUILDKITE_COMMIT") != "":
		f := &ciFacts{ci: "Buildkite", head: getenv("BUILDKITE_COMMIT"), branch: getenv("BUILDKITE_BRANCH"), tag: getenv("BUILDKITE_TAG"),
			def: getenv("BUILDKITE_PIPELINE_DEFAULT_BRANCH"), vars: "BUILDKITE_COMMIT, BUILDKITE_BRANCH"}
		if pr := getenv("BUILDKITE_PULL_REQUEST"); pr != "" && pr != "false" {
			f.target = getenv("BUILDKITE_PULL_REQUEST_BASE_BRANCH")
		}
		return f
	case getenv("CIRCLECI") == "true" && getenv("CIRCLE_SHA1") != "":
		return &ciFacts{ci: "CircleCI", head: getenv("CIRCLE_SHA1"), branch: getenv("CIRCLE_BRANCH"), tag: getenv("CIRCLE_TAG"), vars: "CIRCLE_SHA1, CIRCLE_BRANCH"}
	case strings.EqualFold(getenv("TF_BUILD"), "true"):
		f := &ciFacts{ci: "Azure Pipelines", head: getenv("BUILD_SOURCEVERSION"), vars: "BUILD_SOURCEVERSION, BUILD_SOURCEBRANCH"}
		if t := getenv("SYSTEM_PULLREQUEST_TARGETBRANCH"); t != "" || getenv("BUILD_REASON") == "PullRequest" {
			// The build checks out the merge the host made; the work is
			// the pull request's head.
			f.head, f.target, f.vars = getenv("SYSTEM_PULLREQUEST_SOURCECOMMITID"), heads(t), "SYSTEM_PULLREQUEST_SOURCECOMMITID, SYSTEM_PULLREQUEST_TARGETBRANCH"
			f.prNoSHA = f.head == "" || f.target == ""
			return f
		}
		if src := getenv("BUILD_SOURCEBRANCH"); strings.HasPrefix(src, "refs/tags/") {
			f.tag = strings.TrimPrefix(src, "refs/tags/")
		} else {
			f.branch = heads(src)
		}
		if f.head == "" {
			return nil
		}
		return f
	case getenv("BITBUCKET_BUILD_NUMBER") != "" && getenv("BITBUCKET_COMMIT") != "":
		// A pull request pipeline merges the destination into the source
		// first; BITBUCKET_COMMIT is the source's commit.
		return &ciFacts{ci: "Bitbucket Pipelines", head: getenv("BITBUCKET_COMMIT"), branch: getenv("BITBUCKET_BRANCH"), tag: getenv("BITBUCKET_TAG"),
			target: getenv("BITBUCKET_PR_DESTINATION_BRANCH"), vars: "BITBUCKET_COMMIT, BITBUCKET_BRANCH"}
	}
	return nil
}

// ciEnvRange is the range a CI's variables tell, nil when no known CI
// says which commit it built. The range keeps the CI's name, so that a
// shallow clone's exit 2 names that CI's own setting.
func ciEnvRange(ctx context.Context, repo *gitrepo.Repo, getenv func(string) string) (*Range, error) {
	f := ciFromEnv(getenv)
	if f == nil {
		return nil, nil
	}
	rg, err := f.rangeOf(ctx, repo)
	if rg != nil {
		rg.ci = f.ci
	}
	return rg, err
}

func (f *ciFacts) rangeOf(ctx context.Context, repo *gitrepo.Repo) (*Range, error) {
	if f.prNoSHA {
		return nil, envErrorf("%s pull request build without SYSTEM_PULLREQUEST_SOURCECOMMITID and SYSTEM_PULLREQUEST_TARGETBRANCH: the build's commit is a merge the host made, so the pull request's commits cannot be told; name them (sessiongate verify \"origin/$TARGET..$HEAD_SHA\")", f.ci)
	}
	head, err := repo.ResolveRev(ctx, f.head)
	if err != nil && isHex(f.head) {
		head, err = f.head, nil // not fetched yet: Complete fetches it
	}
	if err != nil {
		return nil, envErrorf("%s names commit %q (%s), which this clone cannot resolve: fetch it, or name the range (sessiongate verify BASE..HEAD)", f.ci, f.head, f.vars)
	}
	how := f.ci + " (" + f.vars + ")"
	switch {
	case f.target != "":
		return newBranchRange(ctx, repo, head, "", f.target, how+": a pull request into "+f.target)
	case f.tag != "":
		return newBranchRange(ctx, repo, head, "refs/tags/"+f.tag, f.def, how+": tag "+f.tag)
	case f.branch == "":
		return nil, nil
	}
	def, err := defaultOf(ctx, repo, f.def)
	if err != nil {
		return nil, err
	}
	if def == "" {
		return nil, envErrorf("%s build of %s: the default branch is unknown (no origin/HEAD, origin/main or origin/master in this clone), so which commits are new cannot be told; fetch it, or name the range (sessiongate verify BASE..HEAD)", f.ci, f.branch)
	}
	f.branch = remoteBranchName(ctx, repo, f.branch)
	if f.branch != def {
		// A branch name the CI spells another way (Jenkins' GIT_BRANCH
		// as refs/remotes/origin/main or upstream/main) whose head is
		// already on the default branch made an empty range: "0
		// commit(s)", exit 0 over a hooks-off tip. Such a head is checked
		// as a default-branch build.
		if on, err := repo.IsAncestor(ctx, head, "refs/remotes/origin/"+def); err == nil && on {
			return tipRange(head, def, how+" on "+f.branch+", whose head is on the default branch "+def), nil
		}
		return newBranchRange(ctx, repo, head, f.branch, def, how+" on "+f.branch+" (every commit of the branch)")
	}
	if f.before != "" && !isZero(f.before) {
		rg := span(f.before, head, how+" on the default branch "+def+": GIT_PREVIOUS_SUCCESSFUL_COMMIT..GIT_COMMIT")
		rg.Branch, rg.DefaultBranch, rg.defaultPush = def, def, true
		return rg, nil
	}
	return tipRange(head, def, how+" on the default branch "+def), nil
}

// githubRefRange is a GitHub event that names no commits (workflow_dispatch,
// schedule, release, repository_dispatch, workflow_run...): the commit
// GITHUB_SHA on GITHUB_REF, checked as a push of that ref would be. nil when
// the environment does not say.
func githubRefRange(ctx context.Context, repo *gitrepo.Repo, getenv func(string) string, name, evRef, def string) (*Range, error) {
	ref, sha := getenv("GITHUB_REF"), getenv("GITHUB_SHA")
	if ref == "" {
		ref = evRef
	}
	if sha == "" {
		return nil, nil
	}
	how := fmt.Sprintf("GitHub %s on %s (GITHUB_REF, GITHUB_SHA: the event names no commits)", name, ref)
	branch, isBranch := strings.CutPrefix(ref, "refs/heads/")
	def, err := defaultOf(ctx, repo, def)
	if err != nil {
		return nil, err
	}
	if isBranch && branch == def {
		return tipRange(sha, def, how+", the default branch"), nil
	}
	if !isBranch {
		branch = ref
	}
	return newBranchRange(ctx, repo, sha, branch, def, how)
}

// ghRun is the commit a workflow_run or check_suite event is about.
type ghRun struct {
	HeadSHA        string `json:"head_sha"`
	HeadBranch     string `json:"head_branch"`
	HeadRepository struct {
		FullName string `json:"full_name"`
	} `json:"head_repository"`
}

// githubRunRange: a workflow_run or check_suite event runs on the default
// branch (GITHUB_SHA is main's tip) about another commit, often a fork's
// pull request whose status the workflow then posts. Checking main's tip
// there put a status on a head nobody checked; the range is the head's.
func githubRunRange(ctx context.Context, repo *gitrepo.Repo, name string, ev *githubEvent) (*Range, error) {
	run, what := ev.WorkflowRun, "workflow_run"
	if run == nil {
		run, what = ev.CheckSuite, "check_suite"
	}
	if run == nil || run.HeadSHA == "" {
		return nil, nil
	}
	// A workflow_run always names its head repository; none is a fork
	// deleted since (GitHub sends null). Taken as this repository, a
	// fork's "main" was checked as this default branch: its tip and the
	// window below it, and its other commits passed unchecked.
	if what == "workflow_run" && run.HeadRepository.FullName == "" {
		return nil, envErrorf("GitHub %s: workflow_run.head_repository is empty (a deleted fork: GitHub sends null), so which branch %s (head_branch %q) is on cannot be told and it is not checked as %s's; name the range (sessiongate verify BASE..%s, BASE the pull request's base)", name, shorten.SHA(run.HeadSHA), run.HeadBranch, orNone(ev.Repository.FullName), shorten.SHA(run.HeadSHA))
	}
	def, err := defaultOf(ctx, repo, ev.Repository.DefaultBranch)
	if err != nil {
		return nil, err
	}
	how := fmt.Sprintf("GitHub %s: %s.head_sha on %s (not GITHUB_SHA, the default branch's tip)", name, what, run.HeadBranch)
	sameRepo := run.HeadRepository.FullName == "" || run.HeadRepository.FullName == ev.Repository.FullName
	if sameRepo && run.HeadBranch == def {
		return tipRange(run.HeadSHA, def, how+", the default branch"), nil
	}
	branch := run.HeadBranch
	if !sameRepo || branch == "" {
		branch = run.HeadRepository.FullName + ":" + branch // a fork's branch is never this default
	}
	return newBranchRange(ctx, repo, run.HeadSHA, branch, def, how)
}

// tipRange is a default-branch build that names no earlier commit (a
// schedule, CircleCI, Buildkite): its tip, with the --recheck window below
// it (earlier.go) for what was pushed with it. Complete sets the base to
// the tip's parent once the clone holds it.
func tipRange(head, def, how string) *Range {
	return &Range{Revs: []string{head + "^!"}, Head: head, Text: shorten.SHA(head), tipOnly: true, defaultPush: true,
		How: how + ": its tip, the commits below it in the --recheck window (no earlier commit is named)", Branch: def, DefaultBranch: def}
}

// TipOnly: the range is a default-branch build's tip, its other commits
// left to the --recheck window (with --recheck 0 it would check one commit
// of a push of several: the caller refuses that). A push creating the
// default branch is not: its window is the whole history, whatever --recheck.
func (rg *Range) TipOnly() bool { return rg.tipOnly && !rg.wholeHistory }

// NeedsWindow: the range may not hold every commit of the push (a tip
// build, or a base read from a list of pushed commits that may be cut), so
// --recheck 0 would pass the rest unchecked: the caller refuses it.
func (rg *Range) NeedsWindow() bool { return rg.TipOnly() || rg.partial }

// resolveTip makes a tipRange base..tip once the tip's parent is here (a
// depth-1 clone is deepened by one); a root commit is the range alone.
func (rg *Range) resolveTip(ctx context.Context, repo *gitrepo.Repo, fetch bool) error {
	if !rg.tipOnly || rg.Base != "" {
		return nil
	}
	if !repo.HasCommit(ctx, rg.Head) {
		if !fetch {
			return shallowError(rg, true, "the tip "+shorten.SHA(rg.Head)+" is not in this clone", nil)
		}
		if err := repo.FetchRevs(ctx, "origin", []string{"--depth=2"}, rg.Head); err != nil {
			return shallowError(rg, true, "the tip "+shorten.SHA(rg.Head)+" is not in this clone", err)
		}
		rg.Fetched = append(rg.Fetched, "git fetch --depth=2 origin "+shorten.SHA(rg.Head))
	}
	parent, err := repo.ResolveRev(ctx, rg.Head+"^")
	if err != nil {
		shallow, serr := repo.IsShallow(ctx)
		if serr != nil {
			return serr
		}
		if shallow {
			what := "the tip " + shorten.SHA(rg.Head) + "'s parent is not fetched"
			if !fetch {
				return shallowError(rg, true, what, nil)
			}
			if err := repo.FetchRevs(ctx, "origin", []string{"--deepen=1"}, rg.Head); err != nil {
				return shallowError(rg, true, what, err)
			}
			rg.Fetched = append(rg.Fetched, "git fetch --deepen=1 origin")
			parent, err = repo.ResolveRev(ctx, rg.Head+"^")
		}
	}
	if err != nil {
		// The root commit: it is the whole range.
		rg.Revs, rg.defaultPush = []string{rg.Head}, false
		return nil
	}
	rg.Base, rg.Revs, rg.Text = parent, []string{parent + ".." + rg.Head}, shorten.SHA(parent)+".."+shorten.SHA(rg.Head)
	return nil
}

// defaultOf is the default branch: the CI's word, else the clone's
// (origin/HEAD, a local main or master), else origin/main or origin/master
// when only one is here (Jenkins' `git init` + fetch leaves no origin/HEAD),
// else the remote's HEAD (Bitbucket's single-branch clone holds neither).
func defaultOf(ctx context.Context, repo *gitrepo.Repo, given string) (string, error) {
	if given != "" {
		return given, nil
	}
	def, err := repo.DefaultBranch(ctx)
	if err != nil || def != "" {
		return def, err
	}
	var found []string
	for _, b := range []string{"main", "master"} {
		if _, err := repo.ResolveRev(ctx, "refs/remotes/origin/"+b); err == nil {
			found = append(found, b)
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	return remoteHead(ctx, repo), nil
}

// remoteHead is the branch origin's HEAD names (`git ls-remote --symref`),
// "" when it cannot be asked.
func remoteHead(ctx context.Context, repo *gitrepo.Repo) string {
	cmd := gitenv.Command(ctx, repo.Root(), nil, "ls-remote", "--symref", "origin", "HEAD")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "ref: refs/heads/"); ok {
			if name, _, ok := strings.Cut(rest, "\tHEAD"); ok && name != "" {
				return name
			}
		}
	}
	return ""
}

// upstreamAhead: the upstream range holds a commit. In CI the upstream
// is the pushed branch itself, so an empty range says nothing was checked,
// not that nothing is new.
func upstreamAhead(ctx context.Context, repo *gitrepo.Repo, up string) bool {
	head, err := repo.ResolveRev(ctx, "HEAD")
	if err != nil {
		return false
	}
	in, err := repo.IsAncestor(ctx, head, up)
	return err == nil && !in
}

// knownCIVars names, for an exit 2 in a CI verify does not know, the
// variables it reads and the argument that replaces them.
const knownCIVars = "verify reads GitHub Actions (GITHUB_EVENT_PATH, GITHUB_REF, GITHUB_SHA), GitLab CI (CI_COMMIT_SHA, CI_COMMIT_BEFORE_SHA, CI_MERGE_REQUEST_DIFF_BASE_SHA), " +
	"Jenkins (GIT_COMMIT, GIT_PREVIOUS_SUCCESSFUL_COMMIT, CHANGE_TARGET), Buildkite (BUILDKITE_COMMIT, BUILDKITE_BRANCH), CircleCI (CIRCLE_SHA1, CIRCLE_BRANCH), " +
	"Azure Pipelines (BUILD_SOURCEVERSION, SYSTEM_PULLREQUEST_SOURCECOMMITID) and Bitbucket Pipelines (BITBUCKET_COMMIT, BITBUCKET_BRANCH)"

// ExplainGitError turns a partial clone's failed object fetch into an exit
// 2 that says what fixes it. actions/checkout's `filter: blob:none` leaves
// file contents on the remote until git reads them; with
// `persist-credentials: false` (or no access) that read fails mid-run, and
// git's own message is buried under its graft-file hints (verify sets
// GIT_GRAFT_FILE, ObjectHistory). Other errors pass through unchanged.
func ExplainGitError(err error) error {
	if err == nil || !strings.Contains(err.Error(), "from promisor remote") {
		return err
	}
	var kept []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if i := strings.Index(l, "hint:"); i >= 0 {
			l = strings.TrimSpace(l[:i]) // "...: git ls-tree: hint: ..." keeps its step
		}
		if strings.TrimSpace(l) != "" {
			kept = append(kept, l)
		}
	}
	return &EnvError{Msg: strings.Join(kept, "\n") + "\nThis is a partial clone (actions/checkout `filter: blob:none` or `tree:0`, `git clone --filter`): git fetches a file's content when it is read, and that fetch failed (persist-credentials: false, or no access to origin). Check out without `filter:`, or keep the checkout's credentials until verify has run"}
}

// remoteBranchName strips what names a branch through a remote
// (refs/heads/, refs/remotes/R/, or R/ for a remote-tracking ref that
// exists) from a CI's branch variable.
func remoteBranchName(ctx context.Context, repo *gitrepo.Repo, b string) string {
	b = strings.TrimPrefix(b, "refs/heads/")
	if rest, ok := strings.CutPrefix(b, "refs/remotes/"); ok {
		if _, after, ok := strings.Cut(rest, "/"); ok {
			return after
		}
	}
	if _, after, ok := strings.Cut(b, "/"); ok {
		if _, err := repo.ResolveRev(ctx, "refs/remotes/"+b); err == nil {
			return after
		}
	}
	return b
}
