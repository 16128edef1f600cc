package verify

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// AdoptedBaseline is the baseline for a range whose base has no config, or
// that has no base (bl read the work tree's: "this range adopts
// sessiongate"). An orphan branch has no base, and a branch
// forked from a commit older than the adoption has such a base too, so
// the work tree's config was the branch's own: a lazy agent's branch from
// the first commit carrying `.sessiongate.yaml` with `missing_trailer: warn`
// and `unsessioned: allow` (a name main's sessiongate.yaml does not clash
// with, so the request merges cleanly) passed its GitLab merge request
// and its GitHub push with a hooks-off commit, exit 0 (helper 319). When the
// commits the range is compared with (its `--not` side), or the default
// branch, hold a config, the repository adopted sessiongate already: that
// config and protocol are trusted. A candidate that holds the range's head
// is skipped: its config could be the range's own (a push adopting on
// main). No candidate with a config leaves bl as it is.
func AdoptedBaseline(ctx context.Context, repo *gitrepo.Repo, rg *Range, bl *Baseline, fetch bool) (*Baseline, error) {
	if bl == nil || bl.Rev != "" {
		return bl, nil
	}
	var cands []string
	for i, v := range rg.Revs {
		if v == "--not" {
			cands = append(cands, rg.Revs[i+1:]...)
		}
	}
	if def, err := defaultOf(ctx, repo, rg.DefaultBranch); err == nil && def != "" {
		ref := "refs/remotes/origin/" + def
		if _, err := repo.ResolveRev(ctx, ref); err != nil && fetch {
			_ = repo.FetchRevs(ctx, "origin", nil, "+refs/heads/"+def+":"+ref) // not fetched: one candidate fewer
		}
		cands = append(cands, ref)
	}
	head, err := repo.ResolveRev(ctx, rg.Head)
	if err != nil {
		return bl, nil
	}
	for _, c := range cands {
		rev, err := repo.ResolveRev(ctx, c)
		if err != nil || rev == "" {
			continue
		}
		if on, err := repo.IsAncestor(ctx, head, rev); err != nil || on {
			continue
		}
		cb, err := BaselineAt(ctx, repo, rev)
		if err != nil {
			return nil, err
		}
		if cb.Rev == "" {
			continue
		}
		cb.Adopted = fmt.Sprintf("the range's base has no sessiongate.yaml (or there is none), but %s (%s) has: sessiongate was adopted there, so its config is trusted, not the work tree's (a branch forked before the adoption, or an orphan)", c, shorten.SHA(rev))
		return cb, nil
	}
	return bl, nil
}
