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
// its pull request will be. The Stricter says which settings came from
// where.
func TargetSettings(ctx context.Context, repo *gitrepo.Repo, rg *Range, bl *Baseline, fetch bool) (config.Verify, Stricter) {
	v := bl.Config.Verify
	if rg == nil || rg.target.rev == "" || bl.Rev == "" {
		return v, Stricter{}
	}
	t := &protocolTrust{repo: repo, bl: bl, target: rg.target, noFetch: !fetch}
	tip, _ := t.targetTip(ctx)
	if tip == "" {
		return v, Stricter{} // the protocol check notes a target it cannot read
	}
	if t.targetBL.Config == nil {
		return v, Stricter{}
	}
	tv := t.targetBL.Config.Verify
	var took, names []string
	failOrWarn := func(name string, base *string, target string) {
		if *base == "warn" && target == "fail" {
			*base = "fail"
			took = append(took, name+": fail")
			names = append(names, name)
		}
	}
	failOrWarn("missing_trailer", &v.MissingTrailer, tv.MissingTrailer)
	failOrWarn("unrecorded", &v.Unrecorded, tv.Unrecorded)
	failOrWarn("violations", &v.Violations, tv.Violations)
	// UnsessionedPolicies lists the strictest first.
	if b, tt := slices.Index(UnsessionedPolicies, v.Unsessioned), slices.Index(UnsessionedPolicies, tv.Unsessioned); tt >= 0 && (b < 0 || tt < b) {
		v.Unsessioned = tv.Unsessioned
		took = append(took, "unsessioned: "+tv.Unsessioned)
		names = append(names, "unsessioned")
	}
	if tv.RequireSigned && !v.RequireSigned {
		v.RequireSigned = true
		took = append(took, "require_signed: true")
		names = append(names, "require_signed")
	}
	if len(took) == 0 {
		return v, Stricter{}
	}
	target := fmt.Sprintf("%s at %s", t.targetName(), shorten.SHA(tip))
	return v, Stricter{
		Note: fmt.Sprintf("verify settings stricter where the work lands (%s) than at the base %s apply: %s (a branch is judged as its pull request will be)",
			target, shorten.SHA(bl.Rev), strings.Join(took, ", ")),
		target: target, base: bl.Config.Verify, raised: names,
	}
}

// Stricter is what TargetSettings raised: Note says so; Explain says which
// failing commits only the raised settings fail, and how to mend them.
type Stricter struct {
	Note   string
	target string
	base   config.Verify
	raised []string // the settings' names
}

// stricterFix says, per raised setting, what makes a commit pass it.
var stricterFix = map[string]string{
	"missing_trailer": "remake it, an agent's in its session (the commit-msg hook adds the Session-Id trailer), a person's with sessiongate's hooks installed (its post-commit hook records it as a person's)",
	"unsessioned":     "remake it, an agent's in its session, a person's with sessiongate's hooks installed (its post-commit hook records it as a person's)",
	"unrecorded":      "remake it inside the session its trailers name, so that session's record lists it",
	"violations":      "redo its work in a new session that records no violation",
	"require_signed":  "sign it with a key the target's allowed signers hold (git commit -S)",
}

// Explain names the commits of a failed rep that pass under the base's
// own settings, so fail only because the target's stricter ones apply,
// with the setting that fails each and what mends it: a person whose
// hooks-off commit passed last week and fails today reads why and what
// to do (helper 327's B1). Only when rep failed and settings were raised,
// it runs the range again once with the base's settings and once per
// raised setting with that one lowered; signedFlag is --require-signed,
// which no setting lowers.
func (s Stricter) Explain(ctx context.Context, repo *gitrepo.Repo, rg *Range, opts Options, signedFlag bool, rep *Report) ([]string, error) {
	if s.Note == "" || rep.OK {
		return nil, nil
	}
	opts.NoFetch = true // the first run fetched what the range needs
	opts.Rerun = false
	lower := func(o Options, name string) Options {
		switch name {
		case "missing_trailer":
			o.MissingTrailer = s.base.MissingTrailer
		case "unsessioned":
			o.Unsessioned = s.base.Unsessioned
		case "unrecorded":
			o.Unrecorded = s.base.Unrecorded
		case "violations":
			o.Violations = s.base.Violations
		case "require_signed":
			o.RequireSigned = signedFlag || s.base.RequireSigned
		}
		return o
	}
	failing := func(o Options) (map[string]bool, error) {
		r, err := RunRange(ctx, repo, rg, o)
		if err != nil {
			return nil, fmt.Errorf("re-run the range under the base's settings: %w", err)
		}
		m := make(map[string]bool, len(r.Commits))
		for _, c := range r.Commits {
			m[c.SHA] = c.Status == "fail"
		}
		return m, nil
	}
	lenient := opts
	for _, n := range s.raised {
		lenient = lower(lenient, n)
	}
	base, err := failing(lenient)
	if err != nil {
		return nil, err
	}
	alone := make([]map[string]bool, len(s.raised))
	if len(s.raised) > 1 {
		for i, n := range s.raised {
			if alone[i], err = failing(lower(opts, n)); err != nil {
				return nil, err
			}
		}
	}
	var out []string
	for _, c := range rep.Commits {
		if f, ok := base[c.SHA]; c.Status != "fail" || !ok || f {
			continue
		}
		var which []string
		for i, n := range s.raised {
			if alone[i] == nil || !alone[i][c.SHA] {
				which = append(which, n)
			}
		}
		if len(which) == 0 {
			which = s.raised // it takes lowering more than one
		}
		var fixes []string
		for _, n := range which {
			fixes = append(fixes, stricterFix[n])
		}
		out = append(out, fmt.Sprintf("commit %s (%s) passes under the base's settings but fails under the stricter %s of %s, as its pull request will; to mend it, %s",
			shorten.SHA(c.SHA), shorten.Bytes(c.Subject, 60, "..."), strings.Join(which, ", "), s.target, strings.Join(fixes, "; ")))
	}
	return out, nil
}
