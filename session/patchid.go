package session

import (
	"context"
	"slices"
)

// A platform that rewrites a session's commits after they were pushed
// (GitLab's "rebase, then fast-forward"; a squash fast-forwarded) lands
// commits no session recorded, and CI's clone no longer holds the
// originals: verify failed honest work ("trailers copied"). What git
// loses, the record keeps: each commit's exact patch id (git patch-id
// --verbatim, gitrepo.ExactPatchIDs), and the span's, the change from the
// session's start commit to this commit, which is what a squash of the
// session's commits holds. verify passes a rewritten commit whose change
// equals a recorded one (verify/patchid.go). Both are functions of the
// commit id the record already lists, so they add no trust the id did not
// have: they keep its change where CI can compare it.

// patchIDRepo is what recording patch ids needs of a repository (gitrepo
// has it; a repository without it records none, as before: verify then
// keeps failing a rewritten commit).
type patchIDRepo interface {
	ExactPatchIDs(ctx context.Context, changes []PatchChange) ([]string, error)
	SpanCommits(base, tip string, max int) ([]string, bool)
}

// PatchChange is one change to take a patch id of: Commit against its
// first parent, or against Base when set (a span of commits).
type PatchChange struct{ Commit, Base string }

// setPatchIDs fills ev's patch ids for commit c of session s. The span id
// is set only when every commit from the start to c is this session's
// (recorded, or c itself) and none is a merge: a span over a pulled or
// hooks-off commit would let a squash of unchecked work pass as the
// session's. A failure records no id (the commit is recorded all the
// same; verify keeps today's verdict for it).
func (e *Engine) setPatchIDs(ctx context.Context, s *Session, repo Repo, ev *Evidence, c string) {
	pr, ok := repo.(patchIDRepo)
	if !ok || ev == nil || ev.Kind != EvidenceCommitSHA {
		return
	}
	changes := []PatchChange{{Commit: c}}
	if s.StartCommit != "" && s.StartCommit != c {
		span, ok := pr.SpanCommits(s.StartCommit, c, maxSpanCommits)
		if ok && len(span) > 1 {
			others := slices.DeleteFunc(slices.Clone(span), func(x string) bool { return x == c })
			known, err := e.Store.RecordedCommits(ctx, s.ID, others...)
			if err == nil && !slices.ContainsFunc(others, func(x string) bool { return !known[x] }) {
				changes = append(changes, PatchChange{Commit: c, Base: s.StartCommit})
			}
		}
	}
	ids, err := pr.ExactPatchIDs(ctx, changes)
	if err != nil {
		e.Logger.Warn("record the commit's patch id", "session", s.ID, "commit", shortSHA(c), "err", err)
		return
	}
	ev.PatchID = ids[0]
	if len(ids) > 1 {
		ev.SpanPatchID = ids[1]
	}
}

// maxSpanCommits bounds the span a commit's hook walks (loose objects, no
// git process): a session of more commits records no span id past it (a
// squash of them then fails closed, as before).
const maxSpanCommits = 200
