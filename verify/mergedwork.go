package verify

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
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
var prTitle = regexp.MustCompile(`\(#([0-9]{1,9})\)$`)

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
		return squashOf(ctx, repo, c, parents[0], tree, m[1], opts)
	}
	return "", ""
}

// squashOf checks c as GitHub's squash of pull request n onto parent.
func squashOf(ctx context.Context, repo *gitrepo.Repo, c *gitrepo.Commit, parent, tree, n string, opts Options) (note, why string) {
	ref := "refs/pull/" + n + "/head"
	local := "refs/remotes/origin/pull/" + n + "/head"
	head, err := repo.ResolveRev(ctx, local)
	if err != nil {
		if opts.NoFetch {
			return "", fmt.Sprintf("titled as GitHub's squash of pull request #%s, whose head is not in this clone and fetching is off: git fetch origin +%s:%s", n, ref, local)
		}
		if err := repo.FetchRevs(ctx, "origin", nil, "+"+ref+":"+local); err != nil {
			return "", fmt.Sprintf("titled as GitHub's squash of pull request #%s, but its head could not be fetched (%v)", n, err)
		}
		if head, err = repo.ResolveRev(ctx, local); err != nil {
			return "", fmt.Sprintf("titled as GitHub's squash of pull request #%s, but %s did not resolve after fetching it", n, ref)
		}
	}
	pr := &Range{Revs: []string{head, "--not", parent}, Head: head, Base: "",
		Text: "pull request #" + n + " (" + shorten.SHA(head) + " not on " + shorten.SHA(parent) + ")", How: "the squashed pull request's own commits"}
	if err := pr.Complete(ctx, repo, !opts.NoFetch); err != nil {
		return "", fmt.Sprintf("titled as GitHub's squash of pull request #%s, but its commits cannot all be read: %v", n, err)
	}
	got, clean, err := repo.MergeTree(ctx, parent, head)
	switch {
	case err != nil || !clean:
		return "", fmt.Sprintf("titled as GitHub's squash of pull request #%s, but its head does not merge cleanly onto the parent (%v)", n, err)
	case got != tree:
		return "", fmt.Sprintf("titled as GitHub's squash of pull request #%s, but its tree is not the merge of its parent and the pull request's head %s: it holds a change the pull request's commits do not", n, shorten.SHA(head))
	}
	sub := opts
	sub.inSquash = true
	// The pull request's branch is not the push's: the branch claims are
	// judged on the pull request's own run.
	sub.Branch, sub.DefaultBranch = "", ""
	rep, err := RunRange(ctx, repo, pr, sub)
	if err != nil {
		return "", fmt.Sprintf("titled as GitHub's squash of pull request #%s, but its commits could not be verified: %v", n, err)
	}
	if len(rep.Commits) == 0 {
		return "", fmt.Sprintf("titled as GitHub's squash of pull request #%s, whose head %s has no commits of its own", n, shorten.SHA(head))
	}
	var bad []string
	for _, cr := range rep.Commits {
		if cr.Status == "fail" {
			bad = append(bad, shorten.SHA(cr.SHA)+" ("+strings.Join(cr.Problems, "; ")+")")
		}
	}
	if len(bad) > 0 || !rep.OK {
		return "", shorten.Bytes(fmt.Sprintf("GitHub's squash of pull request #%s, whose commits do not all verify: %s", n, strings.Join(bad, ", ")), 1000, "...")
	}
	return fmt.Sprintf("GitHub's squash of pull request #%s: its tree is the merge of its parent and the pull request's head %s, whose %d commit(s) verify", n, shorten.SHA(head), len(rep.Commits)), ""
}
