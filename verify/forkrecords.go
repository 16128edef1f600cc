package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// A pull request from a fork keeps its session records on the fork: the
// contributor's pre-push sends them to the remote the code goes to. The
// pull request's own run fetches them from there (action.yml), but the
// push to the default branch that GitHub's merge makes runs on origin,
// whose records ref never got them. Every merged commit then failed with
// "no session record" and a RECORDS_REWOUND accusation, nothing saying
// why or what to do (round 21, TestVerifyAdvCIForkMerged). The verdict
// stays: a commit is never passed without its record, and nothing in git
// says where the fork is (the merge's subject names its owner, not its
// URL). The report names the pull request and the step that fixes it.

// prMergeSubject is GitHub's merge commit subject ("Create a merge
// commit"): "Merge pull request #N from OWNER/BRANCH".
var prMergeSubject = lazyregexp.New(`^Merge pull request #([0-9]{1,9}) from ([^\s/]+)/(\S+)$`)

// forkRecordsHint adds, to each failed commit of rep whose session record
// is missing and that a GitHub pull request merge of the range brought in
// (an ancestor of the merge's second parent, not of its first), where its
// records likely are and how to bring them over.
func forkRecordsHint(ctx context.Context, repo *gitrepo.Repo, rep *Report, commits []gitrepo.Commit, ref string) {
	type prMerge struct{ sha, n, from, first, second string }
	var merges []prMerge
	missing := false
	for _, cr := range rep.Commits {
		if cr.Status == "fail" && missingRecord(cr.Problems) {
			missing = true
			break
		}
	}
	if !missing {
		return
	}
	for _, c := range commits {
		m := prMergeSubject.FindStringSubmatch(c.Subject)
		if m == nil {
			continue
		}
		parents, err := repo.Parents(ctx, c.SHA)
		if err != nil || len(parents) != 2 {
			continue
		}
		merges = append(merges, prMerge{sha: c.SHA, n: m[1], from: m[2] + "/" + m[3], first: parents[0], second: parents[1]})
	}
	hinted := 0
	for i := range rep.Commits {
		cr := &rep.Commits[i]
		if cr.Status != "fail" || !missingRecord(cr.Problems) {
			continue
		}
		// A squash (mergedwork.go) failed for its request's commits, whose
		// records are missing: the same step brings them.
		if n := squashedPR(cr.Problems); n != "" {
			cr.Problems = append(cr.Problems, fmt.Sprintf("%s (squashed into %s): %s", n, shorten.SHA(cr.SHA), forkStep(ref)))
			hinted++
			continue
		}
		before := hinted
		for _, m := range merges {
			in, err := repo.IsAncestor(ctx, cr.SHA, m.second)
			if err != nil || !in {
				continue
			}
			if on, err := repo.IsAncestor(ctx, cr.SHA, m.first); err != nil || on {
				continue
			}
			cr.Problems = append(cr.Problems, fmt.Sprintf("pull request #%s (merged by %s from %s): %s", m.n, shorten.SHA(m.sha), m.from, forkStep(ref)))
			hinted++
			break
		}
		if hinted == before {
			// A rebase merge (or a fast-forward) leaves no merge commit
			// naming the pull request: the same step, unnamed
			// (TestVerifyAdvCIForkRecordsAction).
			cr.Problems = append(cr.Problems, "if a pull request brought it in (a rebase merge leaves no merge commit naming it): "+forkStep(ref))
			hinted++
		}
	}
	if hinted > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d commit(s) of merged pull requests have no session record on %s: from a fork, their records are on the fork until a maintainer brings them over (sessiongate records pull <the fork's URL> && sessiongate records push)", hinted, ref))
	}
}

// forkStep says where a fork's records are and the step that brings them.
func forkStep(ref string) string {
	return "when it came from a fork, its session records are on the fork's " + ref +
		" (the contributor's pre-push sent them there) until a maintainer brings them to origin: " +
		"`sessiongate records pull <the fork's URL> && sessiongate records push`, then re-run this job (docs/team.md, \"Pull requests from forks\"); " +
		"from this repository, the clone that ran the session has not pushed its records"
}

// squashPrefix is how mergedWork begins the failure of a GitHub squash
// whose pull request's commits do not all verify.
var squashPrefix = lazyregexp.New(`^(?:GitHub's squash of pull request #|GitLab's squash of merge request !)([0-9]{1,9}), whose commits do not all verify`)

// squashedPR returns "#N" (GitHub) or "!N" (GitLab) when a problem says
// the squash of that request failed for its commits' missing records, ""
// otherwise.
func squashedPR(problems []string) string {
	for _, p := range problems {
		if m := squashPrefix.FindStringSubmatch(p); m != nil && strings.Contains(p, "no session record for ") {
			if strings.HasPrefix(p, "GitLab") {
				return "merge request !" + m[1]
			}
			return "pull request #" + m[1]
		}
	}
	return ""
}

// missingRecord says whether a commit's problems include a session record
// not found on the records ref (source.load's wording).
func missingRecord(problems []string) bool {
	for _, p := range problems {
		if strings.Contains(p, "no session record for ") {
			return true
		}
	}
	return false
}
