package verify

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// completeRecords makes the records ref's history whole when a shallow
// fetch cut it (`git fetch --depth=1 origin refs/sessiongate/records:...`,
// a CI step copied from its branch fetch). Verify reads that history: the
// records commits the commits' Session-Pin trailers name, the event pins
// and acceptances. Cut, every pinned commit below the cut was "not held"
// and an honest branch failed with RECORDS_REWOUND; a rewind is a ref
// that does not hold them, never a fetch that did not bring them. Returns
// what it fetched ("" for nothing); with fetch off, or when fetching does
// not complete it, an *EnvError naming the command.
func completeRecords(ctx context.Context, repo *gitrepo.Repo, ref, tip string, fetch bool) (string, error) {
	if ref == "" || tip == "" {
		return "", nil
	}
	cut, err := recordsCut(ctx, repo, tip)
	if err != nil || cut == "" {
		return "", err
	}
	cmd := "git fetch --unshallow origin " + ref
	msg := fmt.Sprintf("the records ref %s was fetched shallow (its history stops at %s): the records commits its sessions pinned are in that history, and one not fetched would read as a rewound ref. Fetch the ref without --depth (git fetch origin %s:%s in a full clone), or run `%s` before verify", ref, shorten.SHA(cut), ref, ref, cmd)
	if !fetch {
		return "", &EnvError{Msg: msg + "; fetching is off (--no-fetch)"}
	}
	// --unshallow completes the whole clone: git has no way to deepen one
	// ref's history alone once the clone is shallow.
	if err := repo.FetchRevs(ctx, "origin", []string{"--unshallow"}, ref); err != nil {
		return "", &EnvError{Msg: msg + "; fetching it failed: " + err.Error()}
	}
	if cut, err = recordsCut(ctx, repo, tip); err != nil {
		return "", err
	}
	if cut != "" {
		return "", &EnvError{Msg: msg + "; still cut at " + shorten.SHA(cut) + " after " + cmd + " (origin's " + ref + " does not hold this clone's " + shorten.SHA(tip) + ": fetch the ref again)"}
	}
	return cmd, nil
}

// recordsCut is a shallow cut-off commit in the records ref's history,
// "" for none.
func recordsCut(ctx context.Context, repo *gitrepo.Repo, tip string) (string, error) {
	cuts, err := repo.ShallowCommits()
	if err != nil || len(cuts) == 0 {
		return "", err
	}
	list, err := repo.RevList(ctx, []string{tip})
	if err != nil {
		return "", fmt.Errorf("list the records ref's history: %w", err)
	}
	for _, c := range list {
		if cuts[c] {
			return c, nil
		}
	}
	return "", nil
}
