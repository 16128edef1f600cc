package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// TargetSettings are the verify settings a run on rg applies: the base's,
// each made the stricter of it and the one at the branch the work lands
// on when the range's base is where the work forks (a merge request's
// diff base, a branch push's merge base with the default branch). A
// person's `missing_trailer: fail` on main after the fork did not bind a
// lazy branch begun from the fork on those shapes: its hooks-off commit
// passed with a warning there, and failed only in the pull request run
// and main's push after the merge (helper 326). The branch is judged as
// its pull request will be. note says which settings came from where.
func TargetSettings(ctx context.Context, repo *gitrepo.Repo, rg *Range, bl *Baseline, fetch bool) (config.Verify, string) {
	v := bl.Config.Verify
	if rg == nil || rg.target.rev == "" || bl.Rev == "" {
		return v, ""
	}
	t := &protocolTrust{repo: repo, bl: bl, target: rg.target, noFetch: !fetch}
	tip, _ := t.targetTip(ctx)
	if tip == "" {
		return v, "" // the protocol check notes a target it cannot read
	}
	if t.targetBL.Config == nil {
		return v, ""
	}
	tv := t.targetBL.Config.Verify
	var took []string
	failOrWarn := func(name string, base *string, target string) {
		if *base == "warn" && target == "fail" {
			*base = "fail"
			took = append(took, name+": fail")
		}
	}
	failOrWarn("missing_trailer", &v.MissingTrailer, tv.MissingTrailer)
	failOrWarn("unrecorded", &v.Unrecorded, tv.Unrecorded)
	failOrWarn("violations", &v.Violations, tv.Violations)
	// UnsessionedPolicies lists the strictest first.
	if b, tt := slices.Index(UnsessionedPolicies, v.Unsessioned), slices.Index(UnsessionedPolicies, tv.Unsessioned); tt >= 0 && (b < 0 || tt < b) {
		v.Unsessioned = tv.Unsessioned
		took = append(took, "unsessioned: "+tv.Unsessioned)
	}
	if tv.RequireSigned && !v.RequireSigned {
		v.RequireSigned = true
		took = append(took, "require_signed: true")
	}
	if len(took) == 0 {
		return v, ""
	}
	return v, fmt.Sprintf("verify settings stricter where the work lands (%s at %s) than at the base %s apply: %s (a branch is judged as its pull request will be)",
		t.targetName(), shorten.SHA(tip), shorten.SHA(bl.Rev), strings.Join(took, ", "))
}
