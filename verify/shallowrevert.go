package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// A revert of a commit from before the range (gitrepo.RevertedBefore) is
// settled by the reverted commit's patch, so the clone must hold it and
// its parent. A shallow CI clone (`fetch-depth: 1` or 50) often does not:
// the honest revert failed as "holds nothing it replays" (exit 1). Here
// the clone is deepened until it holds them; when it cannot be, verify
// stops with an environment error (exit 2) that says what to set.

// completeForRevert makes sure a shallow clone holds, with its parent,
// each commit c's message says it reverts; fetched lists the fetches made.
func completeForRevert(ctx context.Context, repo *gitrepo.Repo, c string, opts Options, fetched *[]string) error {
	shallow, err := repo.IsShallow(ctx)
	if err != nil || !shallow {
		return err
	}
	targets, err := repo.RevertTargets(ctx, c)
	if err != nil || len(targets) == 0 {
		return err
	}
	// lacking is the first target absent or cut off (its parent absent).
	lacking := func() (string, error) {
		cuts, err := repo.ShallowCommits()
		if err != nil {
			return "", err
		}
		for _, t := range targets {
			if !repo.HasCommit(ctx, t) {
				return t, nil
			}
			id, err := repo.ResolveRev(ctx, t)
			if err != nil {
				return "", err
			}
			if cuts[id] {
				return t, nil
			}
		}
		return "", nil
	}
	envErr := func(t string, ferr error) error {
		msg := fmt.Sprintf("commit %s reverts %s, which this shallow clone does not hold with its parent: verify cannot tell whether the revert is exact", shorten.SHA(c), shorten.SHA(t))
		if ferr != nil {
			msg += "; fetching it failed: " + strings.TrimRight(ferr.Error(), ". \n")
		} else {
			msg += " and fetching is off (--no-fetch)"
		}
		return &EnvError{Msg: msg + ". Check out the whole history: GitHub Actions `actions/checkout` with `fetch-depth: 0`; GitLab CI `GIT_DEPTH: \"0\"`; or run `git fetch --unshallow origin` before verify"}
	}
	for depth, try := 64, 0; ; try, depth = try+1, depth*4 {
		t, err := lacking()
		if err != nil || t == "" {
			return err
		}
		if opts.NoFetch {
			return envErr(t, nil)
		}
		if try > 8 {
			return envErr(t, fmt.Errorf("still missing after --unshallow"))
		}
		fopts := []string{fmt.Sprintf("--deepen=%d", depth)}
		if try >= 8 {
			fopts = []string{"--unshallow"}
		}
		if err := repo.FetchRevs(ctx, "origin", fopts, c); err != nil {
			return envErr(t, err)
		}
		if fetched != nil {
			*fetched = append(*fetched, "git fetch "+fopts[0]+" origin "+shorten.SHA(c))
		}
		if still, err := repo.IsShallow(ctx); err != nil || !still {
			return err
		}
	}
}
