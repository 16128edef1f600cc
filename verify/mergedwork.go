package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// A pull request merged on GitHub lands on the default branch as a commit
// no session made: a merge commit ("Create a merge commit"), or one commit
// whose message lists the pull request's commits and their trailers
// ("Squash and merge"). With the documented workflow (`on: [push,
// pull_request]`), every such push failed verify, "no Session-Id trailer"
// or "trailers copied", although each change in it had passed on the pull
// request. Such a commit passes when its content is provably the verified
// work and nothing else:
//
//   - a merge commit whose tree is what git makes merging its parents
//     (`git merge-tree`: no change of its own, no conflict resolved by
//     hand); the commits it brings in are in the range and checked
//     themselves, or were on the branch already;
//   - a squash commit titled "... (#N)" whose tree is the merge of its
//     parent and the pull request's head (refs/pull/N/head, which GitHub
//     keeps), every commit of that head not on the parent verifying.
//
// Anything else (a conflict resolved in the merge, a squash with an extra
// change, a pull request with an unchecked commit) keeps its failure.
// Rebase merges are not recognised: the rewritten commits carry trailers
// their sessions never recorded, and fail "trailers copied".

// prTitle is GitHub's squash title: the pull request's title and "(#N)".
var prTitle = lazyregexp.New(`\(#([0-9]{1,9})\)$`)

// mergedWork says whether commit c, which failed on its own, is a merge
// of verified work (note: why it passes), or why it is not ("" when it is
// no merge at all).
func mergedWork(ctx context.Context, repo *gitrepo.Repo, c *gitrepo.Commit, opts Options) (note, why string) {
	parents, err := repo.Parents(ctx, c.SHA)
	if err != nil {
		return "", ""
	}
	tree, err := repo.TreeOf(ctx, c.SHA)
	if err != nil {
		return "", ""
	}
	switch len(parents) {
	case 2:
		got, clean, err := repo.MergeTree(ctx, parents[0], parents[1])
		switch {
		case err != nil || !clean:
			return "", fmt.Sprintf("a merge commit, but git cannot merge its parents cleanly here (%v): a hand-resolved merge is a change of its own", err)
		case got != tree:
			return "", "a merge commit whose tree is not the merge of its parents (git merge-tree gives " + shorten.SHA(got) + "): it holds a change of its own that no session made"
		}
		return "a clean merge of " + shorten.SHA(parents[0]) + " and " + shorten.SHA(parents[1]) + " (its tree is git merge-tree's): no change of its own; the commits it brings in are checked on their own", ""
	case 1:
		m := prTitle.FindStringSubmatch(c.Subject)
		if m == nil || opts.inSquash {
			return "", ""
		}
		return squashOf(ctx, repo, c, parents[0], tree, githubPR(m[1]), opts)
	}
	return "", ""
}

// request is a pull or merge request as squashOf names and fetches it.
type request struct {
	what       string // "GitHub's squash of pull request #1"
	n          string // "#1", "!1"
	ref, local string // its head on the remote, and where it is fetched to
}

func githubPR(n string) request {
	return request{what: "GitHub's squash of pull request #" + n, n: "#" + n,
		ref: "refs/pull/" + n + "/head", local: "refs/remotes/origin/pull/" + n + "/head"}
}

func gitlabMR(n string) request {
	return request{what: "GitLab's squash of merge request !" + n, n: "!" + n,
		ref: "refs/merge-requests/" + n + "/head", local: "refs/remotes/origin/merge-requests/" + n + "/head"}
}

// squashOf checks c as the squash of request rq onto parent.
func squashOf(ctx context.Context, repo *gitrepo.Repo, c *gitrepo.Commit, parent, tree string, rq request, opts Options) (note, why string) {
	ref, local, n := rq.ref, rq.local, rq.n
	head, err := repo.ResolveRev(ctx, local)
	if err != nil {
		if opts.NoFetch {
			return "", fmt.Sprintf("taken for %s, whose head is not in this clone and fetching is off: git fetch origin +%s:%s", rq.what, ref, local)
		}
		if err := repo.FetchRevs(ctx, "origin", nil, "+"+ref+":"+local); err != nil {
			return "", fmt.Sprintf("taken for %s, but its head could not be fetched (%v)", rq.what, err)
		}
		if head, err = repo.ResolveRev(ctx, local); err != nil {
			return "", fmt.Sprintf("taken for %s, but %s did not resolve after fetching it", rq.what, ref)
		}
	}
	pr := &Range{Revs: []string{head, "--not", parent}, Head: head, Base: "",
		Text: "request " + n + " (" + shorten.SHA(head) + " not on " + shorten.SHA(parent) + ")", How: "the squashed pull request's own commits"}
	if err := pr.Complete(ctx, repo, !opts.NoFetch); err != nil {
		return "", fmt.Sprintf("taken for %s, but its commits cannot all be read: %v", rq.what, err)
	}
	got, clean, err := repo.MergeTree(ctx, parent, head)
	switch {
	case err != nil || !clean:
		return "", fmt.Sprintf("taken for %s, but its head does not merge cleanly onto the parent (%v)", rq.what, err)
	case got != tree:
		return "", fmt.Sprintf("taken for %s, but its tree is not the merge of its parent and the request's head %s: it holds a change the pull request's commits do not", rq.what, shorten.SHA(head))
	}
	sub := opts
	sub.inSquash = true
	// The pull request's branch is not the push's: the branch claims are
	// judged on the pull request's own run.
	sub.Branch, sub.DefaultBranch = "", ""
	rep, err := RunRange(ctx, repo, pr, sub)
	if err != nil {
		return "", fmt.Sprintf("taken for %s, but its commits could not be verified: %v", rq.what, err)
	}
	if len(rep.Commits) == 0 {
		return "", fmt.Sprintf("taken for %s, whose head %s has no commits of its own", rq.what, shorten.SHA(head))
	}
	var bad []string
	for _, cr := range rep.Commits {
		if cr.Status == "fail" {
			bad = append(bad, shorten.SHA(cr.SHA)+" ("+strings.Join(cr.Problems, "; ")+")")
		}
	}
	if len(bad) > 0 || !rep.OK {
		return "", shorten.Bytes(fmt.Sprintf("%s, whose commits do not all verify: %s", rq.what, strings.Join(bad, ", ")), 1000, "...")
	}
	note = fmt.Sprintf("%s: its tree is the merge of its parent and the request's head %s, whose %d commit(s) verify", rq.what, shorten.SHA(head), len(rep.Commits))
	if warns := notCleanOf(rep.Commits...); len(warns) > 0 {
		note += " with a warning: " + strings.Join(warns, "; ")
	}
	return note, ""
}

// GitLab's "Squash commits" with a merge commit (the default merge
// method) lands two commits: the squash, titled after the merge request
// (%{title}, no number) on the request's start, and a merge commit whose
// message ends "See merge request group/project!N" (GitLab's default
// merge commit template). The merge passes as any clean merge; the squash
// failed "no Session-Id trailer". It is checked as GitHub's squash is,
// against refs/merge-requests/N/head, which GitLab keeps.
var mergeRequestRef = lazyregexp.New(`(?m)^See merge request \S*!([0-9]{1,9})\s*$`)

// gitlabSquashes passes the failed one-parent commits of rep that a merge
// commit of the range brings in as GitLab's squash of its merge request;
// it reports whether it changed a verdict.
func gitlabSquashes(ctx context.Context, repo *gitrepo.Repo, rep *Report, commits []gitrepo.Commit, opts Options) bool {
	if opts.inSquash {
		return false
	}
	failed := map[string]int{}
	for i, cr := range rep.Commits {
		if cr.Status == "fail" {
			failed[cr.SHA] = i
		}
	}
	if len(failed) == 0 {
		return false
	}
	changed := false
	for _, cr := range rep.Commits {
		parents, err := repo.Parents(ctx, cr.SHA)
		if err != nil || len(parents) != 2 {
			continue
		}
		i, ok := failed[parents[1]]
		if !ok {
			continue
		}
		msg, err := repo.Message(ctx, cr.SHA)
		if err != nil {
			continue
		}
		m := mergeRequestRef.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		sq := &commits[i]
		own, err := repo.Parents(ctx, sq.SHA)
		if err != nil || len(own) != 1 {
			continue
		}
		tree, err := repo.TreeOf(ctx, sq.SHA)
		if err != nil {
			continue
		}
		note, why := squashOf(ctx, repo, sq, own[0], tree, gitlabMR(m[1]), opts)
		scr := &rep.Commits[i]
		if note == "" {
			scr.Problems = append(scr.Problems, "merged by "+shorten.SHA(cr.SHA)+" (\"See merge request ...!"+m[1]+"\"): "+why)
			continue
		}
		scr.Status, scr.Problems = statusOf(note), []string{note + " (merged by " + shorten.SHA(cr.SHA) + ")"}
		changed = true
	}
	return changed
}
