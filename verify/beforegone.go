package verify

import (
	"context"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// beforeGone turns a push to the default branch whose before the remote no
// longer has into a default-branch build of its tip: its tip and the
// --recheck window below it, as a build naming no earlier commit is judged
// (cishapes.go, deeppush.go: deeper history than the window without
// --recheck is an exit 2 naming what to set). A force push replaces
// main's tip and the remote prunes what it left: fetching before failed
// ("not our ref") and an honest force push exited 2 asking for
// fetch-depth: 0, which cannot bring a commit that exists nowhere
// (TestVerifyAdvCIDepthShapes). It reports false, changing nothing, when
// the range is not such a push, before is not the only missing end, or the
// head itself cannot be fetched.
func (rg *Range) beforeGone(ctx context.Context, repo *gitrepo.Repo, missing, opts []string, fetchErr error) bool {
	if !rg.defaultPush || rg.named || rg.tipOnly || rg.Base == "" || len(missing) != 1 || missing[0] != rg.Base {
		return false
	}
	if !repo.HasCommit(ctx, rg.Head) {
		if err := repo.FetchRevs(ctx, "origin", opts, rg.Head); err != nil {
			return false
		}
	}
	before := rg.Base
	tip := tipRange(rg.Head, rg.DefaultBranch, rg.How+"; its before "+shorten.SHA(before)+" is gone from origin (a force push's old tip, pruned: "+
		shorten.Bytes(fetchErr.Error(), 120, "...")+"), so which commits the push added is unknown")
	tip.Branch, tip.depthChosen, tip.Fetched = rg.Branch, rg.depthChosen, rg.Fetched
	*rg = *tip
	return true
}
