package verify

import (
	"context"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// CheckNamed refuses a range named on the command line that cannot be what
// a CI config meant. git reads an empty end of "A..B" as HEAD, so
// `sessiongate verify "$BASE..HEAD"` with BASE empty (a variable the event
// does not set: ${{ github.event.pull_request.base.sha }} on a push,
// $CI_MERGE_REQUEST_DIFF_BASE_SHA outside a merge request pipeline) was
// HEAD..HEAD: "0 commit(s)", exit 0, over whatever the push held (round
// 21, TestVerifyNamedRangeEmptyEnd). An all-zero end is git's "no commit"
// (a new branch's before), which no fetch can bring.
func CheckNamed(rng string) error {
	if strings.TrimSpace(rng) == "" {
		return envErrorf("the range to verify is empty (a CI variable that expanded to nothing?): name it as BASE..HEAD, or give none to take it from the CI")
	}
	sep := ".."
	if strings.Contains(rng, "...") {
		sep = "..."
	}
	base, head, ok := strings.Cut(rng, sep)
	if !ok {
		return nil // one revision ("B", "B^!"): every commit it reaches
	}
	const why = "git reads an empty end as HEAD, so the range would hold no commit and nothing would be checked"
	const fix = "name both ends (sessiongate verify BASE..HEAD), or give no range to take it from the CI's event (docs/policy.md, \"Which commits\")"
	for _, end := range []struct{ name, rev string }{{"base", base}, {"head", head}} {
		rev := strings.TrimSpace(end.rev)
		switch {
		case rev == "":
			return envErrorf("the range %q has no %s (a CI variable that expanded to nothing? e.g. ${{ github.event.before }} on an event without one, or $CI_MERGE_REQUEST_DIFF_BASE_SHA outside a merge request pipeline): %s; %s", rng, end.name, why, fix)
		case isZero(rev):
			return envErrorf("the range %q has %s %s, git's \"no commit\" (a new branch's or a deleted branch's push event): no commit can be fetched for it; %s", rng, end.name, rev, fix)
		}
	}
	return nil
}

// CheckNotEmpty refuses a named range whose two ends are one commit
// ("A..A"): it holds no commit by construction, and "0 commit(s)", exit 0,
// passed a hooks-off A (TestVerifyAdvCIDepthShapes). A range whose head is
// below its base (a branch rewound) stays "0 commit(s)": nothing new landed.
func (rg *Range) CheckNotEmpty(ctx context.Context, repo *gitrepo.Repo) error {
	if !rg.named || len(rg.Revs) != 1 || strings.Contains(rg.Revs[0], "...") {
		return nil
	}
	base, head, ok := strings.Cut(rg.Revs[0], "..")
	if !ok {
		return nil
	}
	b, err := repo.ResolveRev(ctx, base)
	if err != nil {
		return nil // the run names the bad revision
	}
	h, err := repo.ResolveRev(ctx, head)
	if err != nil || b != h {
		return nil
	}
	return envErrorf("the range %q names commit %s at both ends, so it holds no commit and nothing would be checked (a CI's before and after set to the same commit?): to check that commit name %s^!, or name the range from the last commit a verify passed (sessiongate verify BASE..HEAD)", rg.Revs[0], shorten.SHA(h), shorten.SHA(h))
}
