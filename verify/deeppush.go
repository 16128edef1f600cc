package verify

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// RecheckAll is --recheck all: the whole first-parent history since
// sessiongate was adopted.
const RecheckAll = 1 << 30

// RecheckFlag is --recheck: a depth, or "all"; Chosen when the command
// line gave it (the CI config on the default branch, which the policed
// agent does not write).
type RecheckFlag struct {
	N      int
	Chosen bool
}

func (f *RecheckFlag) String() string {
	if f.N >= RecheckAll {
		return "all"
	}
	return strconv.Itoa(f.N)
}

// Set parses N or "all".
func (f *RecheckFlag) Set(s string) error {
	if strings.EqualFold(s, "all") {
		f.N, f.Chosen = RecheckAll, true
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a number of commits (0: off) or all, not %q", s)
	}
	if n > RecheckAll {
		n = RecheckAll
	}
	f.N, f.Chosen = n, true
	return nil
}

// Type names the value in usage text.
func (f *RecheckFlag) Type() string { return "N|all" }

// ChooseDepth tells the range whether --recheck was given: a
// default-branch build that names no earlier commit (tipRange) checks the
// default window only when it reaches what nothing checked.
func (rg *Range) ChooseDepth(chosen bool) { rg.depthChosen = chosen }

// deepTip answers for a default-branch build that names no before
// (CircleCI, Buildkite, Azure, Bitbucket, a GitHub schedule) whose window
// stops at bound, above commits sessiongate judged: nothing says how deep
// the push went. 25 commits pushed at once with the hooks-off one first
// passed under the default 20 (TestVerifyAdvCIMoreShapes/DeepAndShallow). A mark on
// the records ref saying "verified through X" would end the window
// soundly only if the agent could not write it, and it can push that ref;
// so verify asks the CI config (which the agent does not write) to say:
// without --recheck it is an *EnvError; with --recheck N it is the team's
// bound, and the report names what lies below it.
func deepTip(ctx context.Context, repo *gitrepo.Repo, rg *Range, bound string, depth int) (string, error) {
	if !rg.tipOnly || bound == "" {
		return "", nil
	}
	if adopted, err := hasConfig(ctx, repo, bound); err != nil || !adopted {
		return "", err // below the window lies what nothing checked
	}
	if rg.tag {
		// A tag names a commit main's own runs judged, deep push and
		// all: refusing here blocked every release tag of a repository
		// with history, and caught nothing main's run does not.
		return fmt.Sprintf("the commits of %s from %s down (a tag of a default-branch commit: the default branch's own runs judge how deep its pushes went)", rg.DefaultBranch, shorten.SHA(bound)), nil
	}
	if rg.depthChosen {
		return fmt.Sprintf("the commits of %s from %s down (--recheck %d chosen; the build names no earlier commit, so a push deeper than that is not re-checked whole)", rg.DefaultBranch, shorten.SHA(bound), depth), nil
	}
	if rg.goneBefore != "" {
		return "", goneBeforeError(rg, bound, depth)
	}
	return "", envErrorf("%s: the build names no commit the push started from, and %s has more than %d first-parent commits below %s since sessiongate was adopted, so a push deeper than the --recheck window would pass its older commits unchecked. "+
		"Name the push's before (sessiongate verify BEFORE..%s; CircleCI: << pipeline.git.base_revision >>..$CIRCLE_SHA1), re-check the whole history since the adoption (--recheck all), or give the depth your pushes stay within (--recheck N: below it nothing is re-checked)",
		rg.How, rg.DefaultBranch, depth, shorten.SHA(rg.Head), shorten.SHA(rg.Head))
}

// deepenOpt is the fetch that brings depth commits below a commit.
func deepenOpt(depth int) string {
	if depth >= RecheckAll {
		return "--unshallow"
	}
	return "--deepen=" + strconv.Itoa(depth+1)
}

// goneBeforeError is deepTip's exit 2 for a push whose before origin
// pruned: "name the push's before" cannot be followed there, so it says
// what can be set and where a person finds the base (round 24).
func goneBeforeError(rg *Range, bound string, depth int) error {
	where := "the push's old tip is named by the host's record of the push; BASE is `git merge-base OLD_TIP " + shorten.SHA(rg.Head) + "` in a clone that still holds it"
	switch {
	case rg.compare != "":
		where = "the event's compare page " + rg.compare + " shows where the old and the new tip meet"
	case strings.HasPrefix(rg.How, "GitLab"):
		where = "GitLab's pipeline variables list no pushed commit: the project's Activity page (the push event) names the old tip; BASE is `git merge-base OLD_TIP " + shorten.SHA(rg.Head) + "` in a clone that still holds it"
	}
	listed := ""
	if n := len(rg.pushed); n >= maxListed {
		listed = fmt.Sprintf("; the event lists %d commits, the most Actions passes (github.event.commits stops at %d), so the push holds at least %d commits and may hold more: --recheck N with N under %d cannot cover it, and only --recheck all is sure", n, maxListed, n, n-1)
	}
	return envErrorf("%s: nothing in git says where the push started (its before %s is gone from origin), and %s has more than %d first-parent commits below %s since sessiongate was adopted, so a push deeper than the --recheck window would pass its older commits unchecked%s. "+
		"Set one of: --recheck all (re-check every first-parent commit since the adoption), --recheck N (the depth your pushes to %s stay within: below it nothing is re-checked), or the range itself, sessiongate verify BASE..%s, BASE where the old and the new tip meet (%s)",
		rg.How, shorten.SHA(rg.goneBefore), rg.DefaultBranch, depth, shorten.SHA(bound), listed, rg.DefaultBranch, rg.Head, where)
}
