package verify

import (
	"context"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// forcedBase is where the re-check window starts for a push to the default
// branch: before, or, on a force push (before is not an ancestor of
// after), the merge base of the two. The commits a force push replaced
// are no longer on the branch: re-checking them kept main red after a team
// rewound it past a failed commit, the one way to fix that history. What
// both share is still main's and is re-checked; what after adds is in
// before..after. "" is no shared history: nothing below to re-check.
func forcedBase(ctx context.Context, repo *gitrepo.Repo, rg *Range, before string, depth int, fetch bool) (string, error) {
	head, err := repo.ResolveRev(ctx, rg.Head)
	if err != nil {
		return before, nil // Complete made sure of the range; the window reads before alone
	}
	if anc, err := repo.IsAncestor(ctx, before, head); err != nil || anc {
		return before, err
	}
	mb, err := repo.MergeBase(ctx, before, head)
	if err != nil {
		return "", err
	}
	for _, opt := range []string{deepenOpt(depth), "--unshallow"} {
		if mb != "" || !fetch {
			break
		}
		// A shallow clone may hold the merge base's descendants alone.
		if shallow, err := repo.IsShallow(ctx); err != nil || !shallow {
			break
		}
		if err := repo.FetchRevs(ctx, "origin", []string{opt}, head, before); err != nil {
			return "", &EnvError{Msg: "find where the force push to " + rg.DefaultBranch + " left its history (" + shorten.SHA(before) + " is not below " + shorten.SHA(head) + "): fetching failed (" + err.Error() + "). Check out the whole history (fetch-depth: 0; GIT_DEPTH: \"0\"), or turn the re-check off with --recheck 0"}
		}
		rg.Fetched = append(rg.Fetched, "git fetch "+opt+" origin")
		if mb, err = repo.MergeBase(ctx, before, head); err != nil {
			return "", err
		}
	}
	if mb == "" {
		// No merge base in a shallow clone is history not fetched, not
		// history not shared: returning "" dropped the window without a
		// word (--no-fetch).
		if shallow, err := repo.IsShallow(ctx); err != nil {
			return "", err
		} else if shallow {
			how := "fetching is off (--no-fetch)"
			if fetch {
				how = "still cut off after git fetch --unshallow"
			}
			return "", &EnvError{Msg: "find where the force push to " + rg.DefaultBranch + " left its history (" + shorten.SHA(before) + " is not below " + shorten.SHA(head) + "): this shallow clone holds no commit both share and " + how + ", so the --recheck window below the push cannot be re-checked. Check out the whole history (fetch-depth: 0; GIT_DEPTH: \"0\"; git fetch --unshallow origin) and drop --no-fetch, or turn the re-check off with --recheck 0"}
		}
	}
	return mb, nil
}
