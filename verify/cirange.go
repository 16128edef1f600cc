package verify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// Range is what a run checks: the rev-list arguments, the commit whose
// records and tree are read, and, for the report, how it was chosen.
type Range struct {
	Revs []string // rev-list arguments: "A..B", or "B", "--not", "A"
	Head string   // the range's tip (a commit id once resolved)
	Base string   // the range's base commit, "" for none (every ancestor)
	Text string   // what the report shows, e.g. "1a2b3c4d5e6f..6f5e4d3c2b1a"
	How  string   // how it was chosen, in a sentence
	// Fetched lists the fetches made to complete a shallow clone.
	Fetched []string
	// Branch is the branch the CI says the commits are on, DefaultBranch
	// the repository's ("" when the CI does not say).
	Branch, DefaultBranch string
	named                 bool // a range from the command line: Revs[0] is git's syntax
	// defaultPush: a push to the default branch, before..after; the
	// window below before is re-checked too (earlier.go).
	defaultPush bool
	baselineRev string // a re-check segment's baseline (earlier.go)
	// tipOnly: a default-branch build naming no earlier commit; Complete
	// makes it parent..tip (cishapes.go).
	tipOnly bool
	// depthChosen: --recheck was given; tag: a tag of a default-branch
	// commit (deeppush.go).
	depthChosen, tag bool
	// wholeHistory: a push creating the default branch; the window below
	// its tip is the whole history since the adoption (RecheckEarlier).
	wholeHistory bool
	// pushed: the commits a GitHub push event lists (beforegone.go).
	pushed []string
	// partial: a range whose base may lie above where the push started
	// (a cut list of pushed commits, beforegone.go): only the --recheck
	// window reaches below it.
	partial bool
	// compare: the push event's compare URL; goneBefore: a push's before
	// origin no longer has. Both for an exit 2 (beforegone.go, deeppush.go).
	compare, goneBefore string
	// ci: the CI whose variables chose the range ("Azure Pipelines"),
	// "" for GitHub, GitLab or none (shallowError names its setting).
	ci string
	// target: the branch tip the work lands on when Base is where it
	// forks (a merge request's target, the default branch for a branch's
	// push); a protocol changed there binds (targetprotocol.go).
	target landsOn
	// notes: what choosing the range could not do (a ref not refreshed).
	notes []string
}

// Named is a range given on the command line ("A..B", "B^!").
func Named(rng, tip string) *Range {
	rg := &Range{Revs: []string{rng}, Head: tip, Text: rng, How: "named on the command line", named: true}
	if b, _, ok := strings.Cut(rng, ".."); ok && b != "" && !strings.Contains(rng, "...") {
		rg.Base = b
	}
	return rg
}

// BaseCommit is the commit the range starts from, as an id: its base, or
// the merge base of its head and what it excludes; "" for none.
func (rg *Range) BaseCommit(ctx context.Context, repo *gitrepo.Repo) (string, error) {
	if rg.Base != "" {
		return repo.ResolveRev(ctx, rg.Base)
	}
	for i, v := range rg.Revs {
		if v == "--not" && i+1 < len(rg.Revs) {
			return repo.MergeBase(ctx, rg.Head, rg.Revs[i+1])
		}
	}
	return "", nil
}

// EnvError is a range verify cannot choose or complete from what the
// environment gives: exit 2 with what to set.
type EnvError struct{ Msg string }

func (e *EnvError) Error() string { return e.Msg }

func envErrorf(format string, a ...any) error { return &EnvError{Msg: fmt.Sprintf(format, a...)} }

const zeroSHA = "0000000000000000000000000000000000000000"

func isZero(sha string) bool { return sha != "" && strings.Trim(sha, "0") == "" }

// githubEvent holds the fields of GITHUB_EVENT_PATH that name commits.
type githubEvent struct {
	Before string `json:"before"`
	After  string `json:"after"`
	Ref    string `json:"ref"`
	// Compare: the page of the compare of before and after.
	Compare string `json:"compare"`
	// Commits: a push's commits in the compare of before and after (at
	// most 2048), listed by GitHub, not by whoever pushed (beforegone.go).
	Commits []struct {
		ID string `json:"id"`
	} `json:"commits"`
	PullRequest *struct {
		Number int `json:"number"`
		Base   struct {
			SHA string `json:"sha"`
			Ref string `json:"ref"`
		} `json:"base"`
		Head struct {
			SHA string `json:"sha"`
			Ref string `json:"ref"`
		} `json:"head"`
	} `json:"pull_request"`
	MergeGroup *struct {
		BaseSHA string `json:"base_sha"`
		HeadSHA string `json:"head_sha"`
	} `json:"merge_group"`
	Repository struct {
		DefaultBranch string `json:"default_branch"`
		FullName      string `json:"full_name"`
	} `json:"repository"`
	// workflow_run, check_suite: the run's commit, not GITHUB_SHA (cishapes.go).
	WorkflowRun *ghRun `json:"workflow_run"`
	CheckSuite  *ghRun `json:"check_suite"`
}

// ChooseRange picks the commits to check when none is named: the CI
// event's (GitHub Actions, GitLab CI), else the upstream's, else those
// not on the default branch. A range it cannot tell is an *EnvError, never
// a guess that checks less.
func ChooseRange(ctx context.Context, repo *gitrepo.Repo, getenv func(string) string) (*Range, error) {
	switch {
	case getenv("GITHUB_ACTIONS") == "true":
		rg, err := githubRange(ctx, repo, getenv)
		if rg != nil || err != nil {
			return rg, err
		}
	case getenv("GITLAB_CI") == "true":
		if err := checkGitLabVars(ctx, repo, getenv); err != nil {
			return nil, err
		}
		rg, err := gitlabRange(ctx, repo, getenv)
		if rg != nil || err != nil {
			return rg, err
		}
	default:
		rg, err := ciEnvRange(ctx, repo, getenv)
		if rg != nil || err != nil {
			return rg, err
		}
	}
	return localRange(ctx, repo)
}

func span(base, head, how string) *Range {
	return &Range{Revs: []string{base + ".." + head}, Base: base, Head: head,
		Text: shorten.SHA(base) + ".." + shorten.SHA(head), How: how}
}

func githubRange(ctx context.Context, repo *gitrepo.Repo, getenv func(string) string) (*Range, error) {
	name, path := getenv("GITHUB_EVENT_NAME"), getenv("GITHUB_EVENT_PATH")
	if path == "" {
		return nil, envErrorf("GITHUB_ACTIONS=true but GITHUB_EVENT_PATH is unset, so the pushed commits are unknown: run verify in the workflow's job, or name a range (sessiongate verify BASE..HEAD)")
	}
	b, err := boundedread.File(path, boundedread.DefaultLimit)
	if err != nil {
		return nil, envErrorf("read the GitHub event (GITHUB_EVENT_PATH): %v", err)
	}
	var ev githubEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		return nil, envErrorf("parse the GitHub event %s: %v", path, err)
	}
	switch {
	case ev.PullRequest != nil:
		pr := ev.PullRequest
		if pr.Base.SHA == "" || pr.Head.SHA == "" {
			return nil, envErrorf("GitHub %s event without pull_request.base.sha and head.sha", name)
		}
		// GitHub checks out refs/pull/N/merge, a commit it made: the work
		// is the PR's own commits, base..head, never HEAD.
		rg := span(pr.Base.SHA, pr.Head.SHA, fmt.Sprintf("GitHub %s #%d: the pull request's own commits, pull_request.base.sha..pull_request.head.sha (not the merge commit GitHub checked out)", name, pr.Number))
		rg.Branch, rg.DefaultBranch = pr.Head.Ref, ev.Repository.DefaultBranch
		return rg, nil
	case ev.MergeGroup != nil && ev.MergeGroup.BaseSHA != "" && ev.MergeGroup.HeadSHA != "":
		return span(ev.MergeGroup.BaseSHA, ev.MergeGroup.HeadSHA, "GitHub merge_group: merge_group.base_sha..merge_group.head_sha"), nil
	case ev.After != "":
		branch := strings.TrimPrefix(ev.Ref, "refs/heads/")
		if ev.Before == "" || isZero(ev.Before) {
			return githubBranchRange(ctx, repo, ev.After, branch, ev.Repository.DefaultBranch, "GitHub push creating "+ev.Ref)
		}
		if isZero(ev.After) {
			return nil, envErrorf("GitHub push event deleting %s: no commit to check", ev.Ref)
		}
		// A push to a branch other than the default is checked whole, as
		// the pull request will be: with before..after, a second push on
		// top of a failed one checked only its own commits, against the
		// config committed at the failed tip, and its green status on the
		// branch's tip hid the first's hooks-off commit or weakened
		// config (TestVerifyAdvCILaterPush). The default branch keeps
		// before..after: every push to it was checked when it landed.
		if def := ev.Repository.DefaultBranch; def != "" && branch != def {
			return githubBranchRange(ctx, repo, ev.After, branch, def, "GitHub push to "+ev.Ref+" (every commit of the branch, not only before..after: a later push does not make an earlier one's unchecked commit pass)")
		}
		rg := span(ev.Before, ev.After, fmt.Sprintf("GitHub %s to %s: before..after from the event", name, ev.Ref))
		rg.Branch, rg.DefaultBranch = branch, ev.Repository.DefaultBranch
		rg.defaultPush = branch != "" && branch == ev.Repository.DefaultBranch
		for _, c := range ev.Commits {
			rg.pushed = append(rg.pushed, c.ID)
		}
		rg.compare = ev.Compare
		return rg, nil
	}
	if rg, err := githubRunRange(ctx, repo, name, &ev); rg != nil || err != nil {
		return rg, err
	}
	// workflow_dispatch, schedule...: no commits in the event.
	return githubRefRange(ctx, repo, getenv, name, ev.Ref, ev.Repository.DefaultBranch)
}

func gitlabRange(ctx context.Context, repo *gitrepo.Repo, getenv func(string) string) (*Range, error) {
	head := getenv("CI_COMMIT_SHA")
	if rg, err := gitlabNoDiffBase(ctx, repo, getenv); rg != nil || err != nil {
		return rg, err
	}
	if base := getenv("CI_MERGE_REQUEST_DIFF_BASE_SHA"); base != "" {
		how := "GitLab merge request !" + getenv("CI_MERGE_REQUEST_IID") + ": CI_MERGE_REQUEST_DIFF_BASE_SHA..CI_COMMIT_SHA"
		// A merged-results pipeline runs on a merge commit GitLab made; the
		// work is the source branch's commits.
		if src := getenv("CI_MERGE_REQUEST_SOURCE_BRANCH_SHA"); src != "" {
			head = src
			how = "GitLab merge request !" + getenv("CI_MERGE_REQUEST_IID") + ": CI_MERGE_REQUEST_DIFF_BASE_SHA..CI_MERGE_REQUEST_SOURCE_BRANCH_SHA (not the merged-results commit)"
		}
		if head == "" {
			return nil, envErrorf("GitLab merge request pipeline without CI_COMMIT_SHA")
		}
		rg := span(base, head, how)
		// A merged-results pipeline names the target's tip it merged
		// onto. A target force-pushed past the diff base dropped commits
		// that lie below the diff base yet come back with this merge:
		// base..source left them out, so the request passed with a
		// commit main's team had rewound away (TestGitLabTargetRewound).
		// What the merge lands is the source's commits not on that tip;
		// the same commits whenever the target only moved forward.
		if tgt := getenv("CI_MERGE_REQUEST_TARGET_BRANCH_SHA"); tgt != "" && tgt != base && head != getenv("CI_COMMIT_SHA") {
			rg = &Range{Revs: []string{head, "--not", tgt}, Head: head, Text: shorten.SHA(tgt) + ".." + shorten.SHA(head),
				How: "GitLab merge request !" + getenv("CI_MERGE_REQUEST_IID") + ": the commits of CI_MERGE_REQUEST_SOURCE_BRANCH_SHA not on CI_MERGE_REQUEST_TARGET_BRANCH_SHA (what the merged-results commit lands; not that commit)"}
		}
		rg.Branch, rg.DefaultBranch = getenv("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME"), getenv("CI_DEFAULT_BRANCH")
		if name := getenv("CI_MERGE_REQUEST_TARGET_BRANCH_NAME"); name != "" {
			rg.target = landsOn{rev: "refs/remotes/origin/" + name, branch: name}
		}
		if tgt := getenv("CI_MERGE_REQUEST_TARGET_BRANCH_SHA"); isHex(tgt) {
			rg.target.rev = tgt
		}
		return mergeRequestOnDefault(ctx, repo, rg, getenv("CI_DEFAULT_BRANCH")), nil
	}
	before := getenv("CI_COMMIT_BEFORE_SHA")
	if head == "" || before == "" {
		return nil, nil
	}
	if isZero(before) {
		if tag := getenv("CI_COMMIT_TAG"); tag != "" {
			return newBranchRange(ctx, repo, head, "refs/tags/"+tag, getenv("CI_DEFAULT_BRANCH"), "GitLab pipeline for tag "+tag)
		}
		// A pipeline no push started (schedule, web, api, trigger) has an
		// all-zero before too: on the default branch it is a build of the
		// tip, as a GitHub schedule is. Read as a push creating the branch,
		// it checked every commit of main's history and failed those from
		// before the adoption on every run (TestVerifyAdvGitLabScheduleOnMain).
		if src, br, def := getenv("CI_PIPELINE_SOURCE"), getenv("CI_COMMIT_BRANCH"), getenv("CI_DEFAULT_BRANCH"); src != "" && src != "push" && br != "" && br == def {
			return tipRange(head, def, "GitLab "+src+" pipeline on the default branch "+def+" (CI_COMMIT_BEFORE_SHA is all zeros: no push started it)"), nil
		}
		return newBranchRange(ctx, repo, head, getenv("CI_COMMIT_REF_NAME"), getenv("CI_DEFAULT_BRANCH"), "GitLab pipeline for a new branch "+getenv("CI_COMMIT_REF_NAME"))
	}
	// As a GitHub push to a branch: the whole branch (githubRange).
	if br, def := getenv("CI_COMMIT_BRANCH"), getenv("CI_DEFAULT_BRANCH"); br != "" && def != "" && br != def {
		rg, err := newBranchRange(ctx, repo, head, br, def, "GitLab push pipeline for "+br+" (every commit of the branch, not only CI_COMMIT_BEFORE_SHA..CI_COMMIT_SHA: a later push does not make an earlier one's unchecked commit pass)")
		if err != nil {
			return nil, err
		}
		if tip := onDefaultIsTip(ctx, repo, rg, def); tip != rg {
			if p := pushedFrom(before, head, def, tip.How+", checked as a push to it from CI_COMMIT_BEFORE_SHA"); p != nil {
				return p, nil
			}
			return tip, nil
		}
		return rg, nil
	}
	rg := span(before, head, "GitLab push pipeline: CI_COMMIT_BEFORE_SHA..CI_COMMIT_SHA")
	rg.Branch, rg.DefaultBranch = getenv("CI_COMMIT_BRANCH"), getenv("CI_DEFAULT_BRANCH")
	rg.defaultPush = rg.Branch != "" && rg.Branch == rg.DefaultBranch
	return rg, nil
}

// newBranchRange is a push that created a branch (before is all zeros): the
// commits not on the default branch. Not "on no other branch": a commit on
// a branch nobody merged was checked by a pipeline nobody had to pass.
func newBranchRange(ctx context.Context, repo *gitrepo.Repo, head, branch, defBranch, how string) (*Range, error) {
	if defBranch == "" {
		var err error
		if defBranch, err = repo.DefaultBranch(ctx); err != nil {
			return nil, fmt.Errorf("find the default branch: %w", err)
		}
	}
	if defBranch == "" {
		return nil, envErrorf("%s: the default branch is unknown, so which commits are new cannot be told; name a range (sessiongate verify BASE..HEAD)", how)
	}
	if branch == defBranch {
		// Every commit since the adoption: its tip and the whole
		// first-parent window below it (earlier.go leaves out the adoption
		// and what came before, which nothing checked). "Every commit"
		// failed each pre-adoption commit of a repository moved to a new
		// host with its history (TestVerifyAdvGitLabScheduleOnMain).
		rg := tipRange(head, defBranch, how+", the default branch")
		rg.How = how + ", the default branch: its tip and every first-parent commit below it since sessiongate was adopted"
		rg.wholeHistory = true
		return rg, nil
	}
	ref := "refs/remotes/origin/" + defBranch
	// Fetched every run, not only when missing: CI clones often hold the
	// pushed branch alone, and a build folder a runner keeps between jobs
	// (GitLab's GIT_STRATEGY fetch, a self-hosted runner) holds the
	// origin/main an earlier job left. With that one a hooks-off commit
	// main's own job had failed, then rewound away, read as main's and
	// passed on the branch (helper 330's F1).
	var notes []string
	if err := repo.FetchRevs(ctx, "origin", nil, "+refs/heads/"+defBranch+":"+ref); err != nil {
		if _, rerr := repo.ResolveRev(ctx, ref); rerr != nil {
			return nil, envErrorf("%s: the default branch %s is not in this clone and fetching it failed (%v): fetch it before verify (git fetch origin %s:%s) or name a range", how, defBranch, err, defBranch, ref)
		}
		notes = append(notes, fmt.Sprintf("warning: could not refresh origin/%s (%v): the clone's own is used, which an earlier job in a kept build folder may have left behind; fetch it before verify", defBranch, err))
	}
	// A tag of a commit on the default branch made an empty range: "0
	// commit(s)", exit 0, and a release job gated on the tag's run
	// published a hooks-off commit main's own run had failed. Such a tag
	// is checked as a default-branch build of its commit.
	if strings.HasPrefix(branch, "refs/tags/") {
		if on, err := repo.IsAncestor(ctx, head, ref); err == nil && on {
			rg := tipRange(head, defBranch, how+", a commit on the default branch "+defBranch)
			rg.tag = true
			return rg, nil
		}
	}
	return &Range{Revs: []string{head, "--not", ref}, Head: head, Text: "origin/" + defBranch + ".." + shorten.SHA(head),
		How: how + ": the commits not on the default branch " + defBranch, Branch: branch, DefaultBranch: defBranch,
		target: landsOn{rev: ref, branch: defBranch, fresh: true}, notes: notes}, nil
}

// githubBranchRange is newBranchRange for a GitHub push of a branch, whose
// head on the default branch is checked as that branch's tag is: a
// release branch created at a hooks-off commit main's own run had failed
// read "0 commit(s)", exit 0, and a deploy gated on the branch's run
// shipped it (helper 330's F2). Only GitHub's: its event is GitHub's, where
// GitLab's branch name and before can come from pipeline variables a
// pusher sets, and checking a disguised push of main as a tip let a
// hooks-off commit below the window through.
func githubBranchRange(ctx context.Context, repo *gitrepo.Repo, head, branch, defBranch, how string) (*Range, error) {
	rg, err := newBranchRange(ctx, repo, head, branch, defBranch, how)
	if err != nil || rg.tipOnly || rg.target.rev == "" {
		return rg, err
	}
	if on, err := repo.IsAncestor(ctx, head, rg.target.rev); err == nil && on {
		tip := tipRange(head, rg.DefaultBranch, how+", a commit on the default branch "+rg.DefaultBranch)
		tip.tag, tip.notes = true, rg.notes
		return tip, nil
	}
	return rg, nil
}

// localRange: no CI event. The upstream's range, else the commits not on
// the default branch; when HEAD is on the default branch there is nothing
// to tell new commits by, and saying "0 commits, OK" would pass pushed
// commits unchecked.
func localRange(ctx context.Context, repo *gitrepo.Repo) (*Range, error) {
	// An upstream range is the work not pushed yet: empty, it is a CI
	// clone's branch tracking itself (cishapes.go), not "nothing to check".
	if up, err := repo.ResolveRev(ctx, "@{upstream}"); err == nil && upstreamAhead(ctx, repo, up) {
		return &Range{Revs: []string{"@{upstream}..HEAD"}, Head: "HEAD", Base: up, Text: "@{upstream}..HEAD", How: "the upstream of the current branch: @{upstream}..HEAD"}, nil
	}
	head, err := repo.ResolveRev(ctx, "HEAD")
	if err != nil {
		return nil, envErrorf("HEAD has no commit: nothing to verify")
	}
	def, err := repo.DefaultBranch(ctx)
	if err != nil {
		return nil, fmt.Errorf("find the default branch: %w", err)
	}
	refs := []string{"refs/remotes/origin/" + def, "refs/heads/" + def}
	if def == "" {
		// A CI clone (git init + fetch) has no origin/HEAD and no local branch.
		refs = []string{"refs/remotes/origin/main", "refs/remotes/origin/master"}
	}
	for _, ref := range refs {
		tip, err := repo.ResolveRev(ctx, ref)
		if err != nil {
			continue
		}
		mb, err := repo.MergeBase(ctx, head, tip)
		if err != nil {
			return nil, err
		}
		if mb == head {
			break
		}
		if mb == "" {
			return nil, envErrorf("HEAD shares no history with %s in this clone (shallow?): name a range, or fetch the history (git fetch --unshallow)", ref)
		}
		return &Range{Revs: []string{head, "--not", ref}, Head: head, Base: mb, Text: strings.TrimPrefix(strings.TrimPrefix(ref, "refs/remotes/"), "refs/heads/") + "..HEAD",
			How: "no CI event and no upstream: the commits of HEAD not on the default branch (" + ref + ")"}, nil
	}
	return nil, envErrorf("cannot tell which commits to check: no CI variables say (%s), "+
		"no upstream is behind HEAD, and HEAD (%s) is on the default branch or there is none; name the range: sessiongate verify BASE..HEAD, BASE the last commit a verify passed", knownCIVars, shorten.SHA(head))
}

// Complete makes sure the clone holds every commit of the range: in a
// shallow clone it fetches missing ends and deepens until no commit of the
// range is a cut-off point; when fetch is false, or fetching fails, it is
// an *EnvError saying what to set. A commit git cannot see is a commit
// verify would pass unchecked.
func (rg *Range) Complete(ctx context.Context, repo *gitrepo.Repo, fetch bool) error {
	if err := rg.refuseAmbiguous(ctx, repo); err != nil {
		return err
	}
	if err := rg.resolveTip(ctx, repo, fetch); err != nil {
		return err
	}
	named, err := rg.fetchNamedBase(ctx, repo, fetch)
	if err != nil {
		return err
	}
	shallow, err := repo.IsShallow(ctx)
	if err != nil {
		return err
	}
	var ends []string // commit ids the range names
	if rg.Base != "" && isHex(rg.Base) {
		ends = append(ends, rg.Base)
	}
	if named != "" {
		ends = append(ends, named) // deepened with the rest
	}
	if isHex(rg.Head) {
		ends = append(ends, rg.Head)
	}
	for _, v := range rg.Revs {
		if v != "--not" && isHex(v) && !contains(ends, v) {
			ends = append(ends, v)
		}
	}
	var missing []string
	for _, sha := range ends {
		if !repo.HasCommit(ctx, sha) {
			missing = append(missing, sha)
		}
	}
	if len(missing) > 0 {
		if !fetch {
			return shallowError(rg, shallow, fmt.Sprintf("commit(s) %s of the range are not in this clone", shortList(missing)), nil)
		}
		opts := []string{}
		if shallow {
			opts = append(opts, "--depth=1") // the deepening below brings what lies between
		}
		if err := repo.FetchRevs(ctx, "origin", opts, missing...); err != nil {
			if rg.beforeGone(ctx, repo, missing, opts, err) {
				return rg.Complete(ctx, repo, fetch)
			}
			return shallowError(rg, shallow, fmt.Sprintf("commit(s) %s of the range are not in this clone", shortList(missing)), err)
		}
		rg.Fetched = append(rg.Fetched, "git fetch "+strings.Join(opts, " ")+" origin "+shortList(missing))
		if shallow, err = repo.IsShallow(ctx); err != nil {
			return err
		}
	}
	if !shallow {
		return nil
	}
	// Deepen until no listed commit is a cut-off point (its parents
	// absent): doubling, then the whole history.
	tips := ends
	for depth, try := 64, 0; ; try++ {
		cut, err := cutInRange(ctx, repo, rg.Revs)
		if err != nil {
			return err
		}
		what := ""
		if len(cut) > 0 {
			what = fmt.Sprintf("the range reaches past this shallow clone's history (commit %s's parents are not fetched)", shorten.SHA(cut[0]))
		} else if b, err := rg.cutBase(ctx, repo); err != nil {
			return err
		} else if b != "" {
			// A base whose parents are not here excludes nothing below
			// it: base..head ran past the merge base into history the
			// base shares (a force push's before fetched at depth 1), and
			// failed commits judged against the wrong config.
			what = fmt.Sprintf("the range's base %s is a shallow cut-off point (its parents are not fetched), so the commits below it are not told from the range's", shorten.SHA(b))
		}
		if what == "" {
			return nil
		}
		if !fetch {
			return shallowError(rg, true, what, nil)
		}
		opts := []string{fmt.Sprintf("--deepen=%d", depth)}
		if try >= 8 {
			opts = []string{"--unshallow"}
		}
		if try > 8 {
			return shallowError(rg, true, what, errors.New("still cut off after --unshallow"))
		}
		if err := repo.FetchRevs(ctx, "origin", opts, tips...); err != nil {
			return shallowError(rg, true, what, err)
		}
		rg.Fetched = append(rg.Fetched, "git fetch "+opts[0]+" origin")
		depth *= 4
		if still, err := repo.IsShallow(ctx); err != nil || !still {
			return err
		}
	}
}

// cutBase is the range's base (or what it excludes after --not) when that
// commit is a shallow cut-off point and the range's head is not below it;
// "" otherwise.
func (rg *Range) cutBase(ctx context.Context, repo *gitrepo.Repo) (string, error) {
	cuts, err := repo.ShallowCommits()
	if err != nil || len(cuts) == 0 {
		return "", err
	}
	var bases []string
	if rg.Base != "" {
		bases = append(bases, rg.Base)
	}
	for i, v := range rg.Revs {
		if v == "--not" && i+1 < len(rg.Revs) {
			bases = append(bases, rg.Revs[i+1])
		}
	}
	for _, b := range bases {
		id, err := repo.ResolveRev(ctx, b)
		if err != nil || !cuts[id] {
			continue
		}
		// A base below the head excludes all it needs to: its own
		// history is the head's too.
		if in, err := repo.IsAncestor(ctx, id, rg.Head); err == nil && in {
			continue
		}
		return id, nil
	}
	return "", nil
}

// cutInRange lists the commits of the range that are shallow cut-off points.
func cutInRange(ctx context.Context, repo *gitrepo.Repo, revs []string) ([]string, error) {
	cuts, err := repo.ShallowCommits()
	if err != nil || len(cuts) == 0 {
		return nil, err
	}
	list, err := repo.RevList(ctx, revs)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range list {
		if cuts[c] {
			out = append(out, c)
		}
	}
	return out, nil
}

func shallowError(rg *Range, shallow bool, what string, err error) error {
	msg := fmt.Sprintf("cannot check every commit of %s (%s): %s", rg.Text, rg.How, what)
	if err != nil {
		msg += "; fetching them failed: " + err.Error()
	} else {
		msg += " and fetching is off (--no-fetch)"
	}
	if shallow {
		if how := fullHistory[rg.ci]; how != "" {
			msg += ". Check out the whole history: " + how + "; or run `git fetch --unshallow origin` before verify"
		} else {
			msg += ". Check out the whole history: GitHub Actions `actions/checkout` with `fetch-depth: 0`; GitLab CI `GIT_DEPTH: \"0\"`; or run `git fetch --unshallow origin` before verify"
		}
	} else {
		msg += ". Fetch them (git fetch origin), or name a range this clone holds"
	}
	return &EnvError{Msg: msg}
}

// fullHistory is each CI's own way to a whole-history checkout (or to
// credentials verify can fetch with), from its documentation: the exit 2
// of a shallow clone verify could not deepen names it, not GitHub's
// setting (TestShallowErrorNamesTheCI).
var fullHistory = map[string]string{
	"Azure Pipelines":     "Azure Pipelines `- checkout: self` with `fetchDepth: 0` (pipelines made since September 2022 fetch at depth 1), or `persistCredentials: true` so verify can fetch what it lacks",
	"Bitbucket Pipelines": "Bitbucket Pipelines `clone: depth: full` (the default clone is 50 commits deep)",
	"Jenkins":             "Jenkins' git plugin without the shallow clone option (`cloneOption shallow: false`), with credentials verify can fetch with",
	"Buildkite":           "Buildkite's default full clone: drop `--depth` from `BUILDKITE_GIT_CLONE_FLAGS` and `BUILDKITE_GIT_FETCH_FLAGS`",
	"CircleCI":            "a CircleCI `checkout` step that fetches the whole history (no shallow clone of your own)",
}

func isHex(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func contains(l []string, s string) bool {
	for _, v := range l {
		if v == s {
			return true
		}
	}
	return false
}

func shortList(l []string) string {
	s := make([]string, len(l))
	for i, v := range l {
		s[i] = shorten.SHA(v)
	}
	return strings.Join(s, " ")
}
