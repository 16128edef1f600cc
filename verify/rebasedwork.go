package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// GitHub's "Rebase and merge" (and a rebase by hand before a push) lands
// the pull request's commits rewritten: same message and trailers, same
// change, new parent, new committer, new id. The session recorded the old
// ids, so each rewritten commit failed "trailers copied" after the pull
// request had verified: a false block on every rebase-merged push.
//
// A rewritten commit passes when its change is byte for byte (git
// patch-id --verbatim: whitespace counts) the change of an original that
// verifies on its own, in this run, from the refs the remote holds. The
// originals are found by asking the remote (git ls-remote) for the tips of
// its branches and pull/merge request heads that one of the range's
// sessions recorded as a commit of its own: GitHub keeps refs/pull/N/head
// after the branch is deleted, GitLab refs/merge-requests/N/head. A ref
// the agent wrote in its own clone never reaches CI's, and an original
// with hooks off fails its own check, so a copy of it passes nothing.

// maxOriginTips bounds the remote tips whose commits are verified as the
// originals of one run's rewritten commits.
const maxOriginTips = 10

// rebasedWork passes the failed one-parent commits of rep that rewrite a
// verified original; it reports whether it changed a verdict.
func rebasedWork(ctx context.Context, repo *gitrepo.Repo, rep *Report, records map[string]*recordCheck, opts Options) bool {
	if opts.inSquash {
		return false // an original's own run: no originals of originals
	}
	var failed []string
	at := map[string]int{}
	for i, cr := range rep.Commits {
		if cr.Status == "fail" {
			failed = append(failed, cr.SHA)
			at[cr.SHA] = i
		}
	}
	if len(failed) == 0 {
		return false
	}
	want, err := repo.VerbatimPatchIDs(ctx, failed)
	if err != nil {
		return false
	}
	// Merges and empty commits have no patch: nothing to match.
	failed = slices.DeleteFunc(failed, func(s string) bool { return want[s] == "" })
	if len(failed) == 0 {
		return false
	}
	tips, why := originTips(ctx, repo, rep, records, opts)
	if len(tips) == 0 {
		for _, s := range failed {
			cr := &rep.Commits[at[s]]
			if strings.Contains(strings.Join(cr.Problems, "\n"), "trailers copied") {
				cr.Problems = append(cr.Problems, rebasedWorkHint+why)
			}
		}
		return false
	}
	originals := map[string]string{} // verbatim patch id -> "sha on ref"
	var notes []string
	for _, tip := range tips {
		o, note := verifiedOriginals(ctx, repo, tip, rep.Tip, opts)
		if note != "" {
			notes = append(notes, note)
		}
		for id, what := range o {
			if _, ok := originals[id]; !ok {
				originals[id] = what
			}
		}
	}
	changed := false
	for _, s := range failed {
		cr := &rep.Commits[at[s]]
		what, ok := originals[want[s]]
		if !ok {
			if strings.Contains(strings.Join(cr.Problems, "\n"), "trailers copied") {
				msg := "no commit of the remote's refs that the range's sessions recorded has this change byte for byte (git patch-id --verbatim) and verifies: not a rebase of verified work"
				if len(notes) > 0 {
					msg += " (" + strings.Join(notes, "; ") + ")"
				}
				cr.Problems = append(cr.Problems, shorten.Bytes(msg, 1000, "..."))
			}
			continue
		}
		cr.Status = statusOf(what)
		cr.Problems = []string{"a rebase of verified work (GitHub's rebase merge): its change is, byte for byte (git patch-id --verbatim), that of " + what + ", which verifies"}
		changed = true
	}
	return changed
}

// originTips are the tips the originals may be under: refs of the remote
// (fetched when missing) and of this clone's remote-tracking refs whose
// commit a session of the range recorded as its own, newest first by name
// order, at most maxOriginTips; why says what to fetch when there is none.
func originTips(ctx context.Context, repo *gitrepo.Repo, rep *Report, records map[string]*recordCheck, opts Options) (tips []string, why string) {
	recorded := map[string]bool{}
	for _, rc := range records {
		if rc == nil {
			continue
		}
		for h := range rc.commits {
			if !rc.bypassed[h] {
				recorded[h] = true
			}
		}
	}
	if len(recorded) == 0 {
		// No session of the range: nothing to find originals by, and no
		// reason to ask the remote.
		return nil, "no session of the range recorded a commit to find its originals by"
	}
	inRange := map[string]bool{}
	for _, c := range rep.Commits {
		inRange[c.SHA] = true
	}
	take := func(sha string) bool {
		sum := sha256.Sum256([]byte(sha))
		return recorded[hex.EncodeToString(sum[:])] && !inRange[sha] && !slices.Contains(tips, sha) && len(tips) < maxOriginTips
	}
	const fetchAll = "git fetch origin '+refs/heads/*:refs/remotes/origin/*' '+refs/pull/*/head:refs/remotes/origin/pull/*/head' (GitLab: '+refs/merge-requests/*/head:refs/remotes/origin/merge-requests/*/head')"
	if local, err := repo.RemoteRefs(ctx, ".", "refs/remotes/*"); err == nil {
		for _, r := range local {
			if take(r.SHA) {
				tips = append(tips, r.SHA)
			}
		}
	}
	if opts.NoFetch {
		if len(tips) == 0 {
			return nil, "its originals are not in this clone and fetching is off (--no-fetch): " + fetchAll
		}
		return tips, ""
	}
	remote, err := repo.RemoteRefs(ctx, "origin", "refs/heads/*", "refs/pull/*/head", "refs/merge-requests/*/head")
	if err != nil {
		if len(tips) == 0 {
			return nil, fmt.Sprintf("its originals could not be looked up on origin (%v): %s", err, fetchAll)
		}
		return tips, ""
	}
	for _, r := range remote {
		if !take(r.SHA) {
			continue
		}
		if !repo.HasCommit(ctx, r.SHA) {
			local := "refs/remotes/origin/" + strings.TrimPrefix(r.Name, "refs/heads/")
			if !strings.HasPrefix(r.Name, "refs/heads/") {
				local = "refs/remotes/origin/" + strings.TrimPrefix(r.Name, "refs/")
			}
			if err := repo.FetchRevs(ctx, "origin", nil, "+"+r.Name+":"+local); err != nil {
				continue
			}
		}
		tips = append(tips, r.SHA)
	}
	if len(tips) == 0 {
		return nil, "no branch or pull request head on origin is a commit the range's sessions recorded, so its originals cannot be found: fetch them (" + fetchAll + ")"
	}
	return tips, ""
}

// verifiedOriginals verifies tip's commits not on the range's tip (a pull
// request's own commits) and maps the patch id of each that passed to
// what it is; note says why none did.
func verifiedOriginals(ctx context.Context, repo *gitrepo.Repo, tip, rangeTip string, opts Options) (map[string]string, string) {
	rg := &Range{Revs: []string{tip, "--not", rangeTip}, Head: tip,
		Text: shorten.SHA(tip) + " not on " + shorten.SHA(rangeTip), How: "the originals of rewritten commits"}
	if err := rg.Complete(ctx, repo, !opts.NoFetch); err != nil {
		return nil, fmt.Sprintf("the commits under %s cannot all be read: %v", shorten.SHA(tip), err)
	}
	sub := opts
	sub.inSquash = true
	// The originals' branch is not the push's: its claims were judged on
	// the pull request's own run.
	sub.Branch, sub.DefaultBranch = "", ""
	rep, err := RunRange(ctx, repo, rg, sub)
	if err != nil {
		return nil, fmt.Sprintf("the commits under %s could not be verified: %v", shorten.SHA(tip), err)
	}
	var ok []string
	warns := map[string][]string{}
	for _, cr := range rep.Commits {
		if cr.Status != "fail" {
			ok = append(ok, cr.SHA)
			warns[cr.SHA] = notCleanOf(cr)
		}
	}
	if len(ok) == 0 {
		return nil, fmt.Sprintf("none of the %d commit(s) under %s verifies", len(rep.Commits), shorten.SHA(tip))
	}
	ids, err := repo.VerbatimPatchIDs(ctx, ok)
	if err != nil {
		return nil, err.Error()
	}
	out := map[string]string{}
	for _, s := range ok {
		if ids[s] != "" {
			out[ids[s]] = shorten.SHA(s) + " (under " + shorten.SHA(tip) + ")"
			if len(warns[s]) > 0 {
				out[ids[s]] += " with a warning: " + strings.Join(warns[s], "; ")
			}
		}
	}
	return out, ""
}

// rebasedWorkHint starts the note rebasedWork adds to a commit it could
// not pass (continued.go reads it).
const rebasedWorkHint = "if this is a rebase of verified work (GitHub's rebase merge), "
