package verify

import (
	"context"
	"fmt"
	"slices"
	"strconv"

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
	if listed := rg.listedBase(ctx, repo, fetchErr); listed != nil {
		*rg = *listed
		return true
	}
	tip := tipRange(rg.Head, rg.DefaultBranch, rg.How+"; its before "+shorten.SHA(before)+" is gone from origin (a force push's old tip, pruned: "+
		shorten.Bytes(fetchErr.Error(), 120, "...")+"), so which commits the push added is unknown")
	tip.Branch, tip.depthChosen, tip.Fetched = rg.Branch, rg.depthChosen, rg.Fetched
	tip.goneBefore, tip.compare, tip.pushed = before, rg.compare, rg.pushed
	*rg = *tip
	return true
}

// maxListed is the most commits a GitHub push event lists in Actions
// (github.event.commits stops at 20, though the webhook documentation
// says 2,048 for deliveries); a list this long may be cut, so it does not
// say where the push started.
const maxListed = 20

// listedBase finds where a GitHub push whose before is gone started, from
// the commits the event lists (the compare of before and after: every
// commit since their merge base, listed by GitHub): the first commit on
// the tip's first-parent line the list does not hold. A force push over a
// main deeper than the --recheck window exited 2 asking for --recheck by
// hand (TestVerifyAdvCIDepthShapes, round 23). The cost is bounded: one
// fetch of the tip at the list's length + 2. nil when the event lists no
// commit (a rewind, or a CI that does not list them), a list that may be
// cut and no --recheck given, or a line the list does not end on within
// its length.
func (rg *Range) listedBase(ctx context.Context, repo *gitrepo.Repo, fetchErr error) *Range {
	n := len(rg.pushed)
	// A list that may be cut says only that the push starts at or below
	// its end: with --recheck N chosen, the window then reaches N below
	// the listed commits, not N below the tip (round 24); without it, the
	// build of the tip exits 2 saying so (goneBeforeError).
	cut := n >= maxListed
	if n == 0 || cut && !rg.depthChosen {
		return nil
	}
	depth := n + 2
	opt := "--depth=" + strconv.Itoa(depth)
	shallow, err := repo.IsShallow(ctx)
	if err != nil {
		return nil
	}
	fetched := ""
	if shallow {
		if err := repo.FetchRevs(ctx, "origin", []string{opt}, rg.Head); err != nil {
			return nil
		}
		fetched = "git fetch " + opt + " origin " + shorten.SHA(rg.Head)
	}
	line, err := repo.RevList(ctx, []string{"--first-parent", "--max-count=" + strconv.Itoa(n+1), rg.Head})
	if err != nil {
		return nil
	}
	base := ""
	for _, c := range line {
		if !slices.Contains(rg.pushed, c) {
			base = c
			break
		}
	}
	if base == "" || base == line[0] {
		// The list does not hold the tip: it is not this push's (GitHub
		// lists after whenever before does not hold it), and base..tip
		// would check nothing.
		return nil
	}
	before := rg.Base
	how := fmt.Sprintf("%s; its before %s is gone from origin (a force push's old tip, pruned: %s), so the push starts where the %d commit(s) the event lists end on %s's first-parent line, at %s",
		rg.How, shorten.SHA(before), shorten.Bytes(fetchErr.Error(), 120, "..."), n, rg.DefaultBranch, shorten.SHA(base))
	if cut {
		how = fmt.Sprintf("%s; its before %s is gone from origin (a force push's old tip, pruned: %s) and the event lists %d commits, the most Actions passes, so the push starts at or below where they end on %s's first-parent line, at %s: the --recheck window (chosen) reaches below that",
			rg.How, shorten.SHA(before), shorten.Bytes(fetchErr.Error(), 120, "..."), n, rg.DefaultBranch, shorten.SHA(base))
	}
	out := span(base, rg.Head, how)
	out.Branch, out.DefaultBranch, out.defaultPush, out.depthChosen, out.pushed = rg.Branch, rg.DefaultBranch, true, rg.depthChosen, rg.pushed
	out.partial, out.compare, out.goneBefore = cut, rg.compare, before
	out.Fetched = slices.Clone(rg.Fetched)
	if fetched != "" {
		out.Fetched = append(out.Fetched, fetched)
	}
	return out
}
