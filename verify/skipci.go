package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// A push whose head commit says "[skip ci]" starts no CI run (GitHub
// Actions, GitLab CI): nothing verified its commits when they landed. The
// re-check window below a later push to the default branch is counted
// from that push's before, so a hooks-off commit pushed under a skip
// marker and buried by later skipped pushes (one commit each) fell below
// the window and was never checked: exit 0 (TestVerifyAdvCISkippedPush).
// The marker is in git, where CI can read it: the window reaches
// --recheck commits below every skip-marked first-parent commit it holds,
// again for markers found there. A single skipped push deeper than
// --recheck still reaches below (where it started is not in git:
// docs/security.md), and `git push -o ci.skip` leaves no mark in git (the
// agent hooks deny it, pre-push blocks its config form: shellline.SkipsCI).

// maxSkipReach bounds the window a chain of markers reaches, in windows:
// a repository whose release bot marks a commit every few pushes
// (semantic-release's "chore(release): ... [skip ci]") chained the window
// down to the adoption, re-checking the whole history on every push and
// keeping main red for any commit that ever failed there.
const maxSkipReach = 4

// skipMarkers are the message markers GitHub Actions, GitLab CI and Azure Pipelines honour
// (case-insensitive); matching more than a CI does only re-checks more.
var skipMarkers = []string{"[skip ci]", "[ci skip]", "[no ci]", "[skip actions]", "[actions skip]",
	// Azure Pipelines (a tip build and the window, team.md's CI table).
	"***no_ci***", "[skip azp]", "[azp skip]", "[skip azpipelines]", "[azpipelines skip]", "[skip azurepipelines]", "[azurepipelines skip]"}

// ciSkipMarker returns the CI-skip marker msg carries, "" for none.
func ciSkipMarker(msg string) string {
	low := strings.ToLower(msg)
	for _, m := range skipMarkers {
		if strings.Contains(low, m) {
			return m
		}
	}
	// GitHub: a "skip-checks: true" trailer.
	for _, line := range strings.Split(low, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok && strings.TrimSpace(k) == "skip-checks" && strings.TrimSpace(v) == "true" {
			return "skip-checks: true"
		}
	}
	return ""
}

// skippedPushes returns how many first-parent commits from before (itself
// first) the window must hold so that depth commits below each
// skip-marked one are in it, and a note naming the deepest marked commit
// ("" when none is in the window). deepen brings n first-parent commits
// into a shallow clone (nil: nothing to fetch).
func skippedPushes(ctx context.Context, repo *gitrepo.Repo, before string, depth int, deepen func(n int) error) (int, string, error) {
	need := depth
	if depth <= 0 || depth >= RecheckAll {
		return need, "", nil // off, or the whole history already
	}
	limit := RecheckAll // maxSkipReach windows, without overflowing a 32-bit int
	if depth < RecheckAll/maxSkipReach {
		limit = maxSkipReach * depth
	}
	note := ""
	for {
		shas, msgs, err := repo.FirstParentMessages(ctx, before, need)
		if err != nil {
			return 0, "", err
		}
		deepest, mark := -1, ""
		for i := range shas {
			if m := ciSkipMarker(msgs[i]); m != "" {
				deepest, mark = i, m
			}
		}
		if deepest < 0 || deepest+1+depth <= need || need >= limit {
			return need, note, nil
		}
		need = deepest + 1 + depth
		note = fmt.Sprintf("%d below %s, whose message says %q: its push started no CI run", depth, shorten.SHA(shas[deepest]), mark)
		if need > limit {
			need = limit
			note = fmt.Sprintf("%d commits, %d times --recheck, the most skip markers extend it to (%s says %q: deeper skipped pushes are not re-checked; --recheck all re-checks them)", limit, maxSkipReach, shorten.SHA(shas[deepest]), mark)
		}
		if deepen != nil {
			if err := deepen(need); err != nil {
				return 0, "", err
			}
		}
	}
}
