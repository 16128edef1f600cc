package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// A push to the default branch is checked before..after. A lazy agent
// pushes a hooks-off commit to main (its run fails), then pushes an
// honest commit on top: the second run checked its own commit alone and
// put a green status on main's tip over the first. Nothing offline tells
// which earlier commits a green run checked: GitHub's statuses are not in
// git, and a marker on the records ref is writable by whoever can push
// (the agent), so it proves nothing unless a key the agent lacks signs it.
// So each push to the default branch also re-checks a bounded window: the
// last DefaultRecheckDepth first-parent commits below before (with what
// they merged). Plain commits cost little (BenchmarkVerifyDepth), but each
// squash or merge of a pull request in the window is verified again with
// its pull request's commits (a fetch of refs/pull/N/head in a fresh
// clone), so the window is kept short; a failed commit keeps the default
// branch red until it is that deep. Past the window a skipped red run is not seen: that residual is
// documented (docs/security.md, "What CI can and cannot see").

// DefaultRecheckDepth is how many first-parent commits below a default
// branch push's before are re-checked (--recheck).
const DefaultRecheckDepth = 20

// Earlier is the window of the default branch below a push that a run
// re-checks: segments of first-parent history, each with the config and
// protocol committed at its own base (split where they changed, as each
// push was judged), oldest first.
type Earlier struct {
	Segments []*Range
	Text     string // for the report: "the last N first-parent commits below X"
	Skipped  string // what the window left out and why ("" for nothing)
}

// EarlierWindow is the window below a push to the default branch, or nil
// when the range is not one (a pull request, another branch, a named range)
// or depth is 0. In a shallow clone it deepens before by depth first (the
// segments' Complete deepens the rest); with fetch off it leaves that to
// Complete, which names the fix.
func EarlierWindow(ctx context.Context, repo *gitrepo.Repo, rg *Range, depth int, fetch bool) (*Earlier, error) {
	if rg == nil || !rg.defaultPush || depth <= 0 || rg.Base == "" {
		return nil, nil
	}
	before, err := repo.ResolveRev(ctx, rg.Base)
	if err != nil {
		return nil, fmt.Errorf("resolve the push's before %s: %w", shorten.SHA(rg.Base), err)
	}
	pushed := before
	if before, err = forcedBase(ctx, repo, rg, before, depth, fetch); err != nil || before == "" {
		return nil, err
	}
	if shallow, err := repo.IsShallow(ctx); err != nil {
		return nil, err
	} else if shallow && fetch {
		if err := repo.FetchRevs(ctx, "origin", []string{deepenOpt(depth)}, before); err != nil {
			return nil, &EnvError{Msg: fmt.Sprintf("re-check the last %d commits of %s below %s: deepening this shallow clone failed (%v). Check out the whole history (fetch-depth: 0; GIT_DEPTH: \"0\"), or turn the re-check off with --recheck 0", depth, rg.DefaultBranch, shorten.SHA(before), err)}
		}
		rg.Fetched = append(rg.Fetched, fmt.Sprintf("git fetch %s origin %s", deepenOpt(depth), shorten.SHA(before)))
	}
	// A push whose CI run was skipped ([skip ci]) was never checked: the
	// window reaches depth commits below it too (skipci.go).
	var deepen func(int) error
	if shallow, err := repo.IsShallow(ctx); err == nil && shallow && fetch {
		deepen = func(n int) error {
			if err := repo.FetchRevs(ctx, "origin", []string{deepenOpt(n)}, before); err != nil {
				return &EnvError{Msg: fmt.Sprintf("re-check %d commits of %s below %s (a push whose CI run was skipped is among them): deepening this shallow clone failed (%v). Check out the whole history (fetch-depth: 0; GIT_DEPTH: \"0\")", n, rg.DefaultBranch, shorten.SHA(before), err)}
			}
			rg.Fetched = append(rg.Fetched, fmt.Sprintf("git fetch %s origin %s", deepenOpt(n), shorten.SHA(before)))
			return nil
		}
	}
	need, skipNote, err := skippedPushes(ctx, repo, before, depth, deepen)
	if err != nil {
		return nil, err
	}
	fp, err := repo.RevList(ctx, []string{"--first-parent", "-n", strconv.Itoa(need + 1), before})
	if err != nil {
		return nil, fmt.Errorf("list the first-parent history below %s: %w", shorten.SHA(before), err)
	}
	bound := "" // exclusive; "" = the root
	if len(fp) > need {
		bound, fp = fp[need], fp[:need]
	}
	below, err := deepTip(ctx, repo, rg, bound, depth)
	if err != nil {
		return nil, err
	}
	// Where sessiongate.yaml or the protocol changed on the first-parent
	// line: the window is split there, each part judged with the config at
	// its own base, as its push was.
	paths := append(append([]string{}, config.FileNames...), protocolHomes...)
	if bl, err := BaselineAt(ctx, repo, before); err == nil && bl.Config != nil && bl.Config.Protocol != "" && !slices.Contains(paths, bl.Config.Protocol) {
		paths = append(paths, bl.Config.Protocol)
	}
	revs := []string{"--first-parent", before}
	if bound != "" {
		revs = append(revs, "^"+bound)
	}
	var changed []string // newest first
	for _, p := range paths {
		cs, err := repo.PathCommits(ctx, revs, p)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			if !slices.Contains(changed, c) {
				changed = append(changed, c)
			}
		}
	}
	// The boundaries, oldest first: the window's bound, then each change.
	var cuts []string
	for i := len(fp) - 1; i >= 0; i-- {
		if slices.Contains(changed, fp[i]) {
			cuts = append(cuts, fp[i])
		}
	}
	w := &Earlier{Text: fmt.Sprintf("the last %d first-parent commits of %s below this push (%s and what it merged)", len(fp), rg.DefaultBranch, shorten.SHA(before))}
	if bound == "" {
		w.Text = fmt.Sprintf("the whole first-parent history of %s below this push (%d commits from %s)", rg.DefaultBranch, len(fp), shorten.SHA(before))
	}
	if skipNote != "" {
		w.Text += ", reaching " + skipNote
	}
	if before != pushed {
		w.Text += fmt.Sprintf(", from the merge base of a force push: %s is not below the pushed commit, and what it alone held left %s", shorten.SHA(pushed), rg.DefaultBranch)
	}
	if below != "" {
		w.Skipped = below
	}
	bases := append([]string{bound}, cuts...)
	heads := append(append([]string{}, cuts...), before)
	// Before sessiongate was adopted nothing was checked: segments whose
	// base and head both lack a config are left out, and the adoption's own
	// segment (its base lacks one) is too, as its push read the work tree's
	// config. A config deleted later does not end the window: that segment
	// is judged by the last config there was (lastCfg).
	lastCfg := ""
	for i := range heads {
		base, head := bases[i], heads[i]
		if base == head {
			continue // the bound itself changed the config
		}
		hasBase, err := hasConfig(ctx, repo, base)
		if err != nil {
			return nil, err
		}
		if hasBase {
			lastCfg = base
		}
		if lastCfg == "" {
			w.Skipped = "the adoption (" + shorten.SHA(head) + " brought sessiongate.yaml in) and the commits before it: nothing checked those, and the adoption's push read the work tree's config"
			continue
		}
		seg := span(base, head, "re-check of "+w.Text)
		seg.Branch, seg.DefaultBranch = rg.DefaultBranch, rg.DefaultBranch
		seg.baselineRev = lastCfg
		w.Segments = append(w.Segments, seg)
	}
	return w, nil
}

// BaselineRev is the commit whose config and protocol judge a re-check
// segment: its base, or the last one with a config.
func (rg *Range) BaselineRev() string { return rg.baselineRev }

func hasConfig(ctx context.Context, repo *gitrepo.Repo, rev string) (bool, error) {
	if rev == "" {
		return false, nil
	}
	for _, name := range config.FileNames {
		if _, err := repo.ReadAt(ctx, rev, name); err == nil {
			return true, nil
		} else if !errors.Is(err, gitrepo.ErrNoFile) {
			return false, fmt.Errorf("read %s at %s: %w", name, shorten.SHA(rev), err)
		}
	}
	return false, nil
}

// AddEarlier adds a re-check's verdicts to the push's report: each
// commit of the window that does not pass fails the run, marked as one
// that landed before this push; a note says what was re-checked.
func (rep *Report) AddEarlier(w *Earlier, reps []*Report) {
	n, bad := 0, 0
	for _, r := range reps {
		for _, cr := range r.Commits {
			n++
			if cr.Status != "fail" {
				continue
			}
			bad++
			cr.Problems = append([]string{"on the default branch before this push (re-checked: " + w.Text + "): a later push does not make an earlier push's failed commit pass"}, cr.Problems...)
			rep.Commits = append(rep.Commits, cr)
			rep.OK = false
		}
	}
	note := fmt.Sprintf("re-checked %s: %d commit(s), %d fail", w.Text, n, bad)
	if w.Skipped != "" {
		note += "; left out: " + w.Skipped
	}
	rep.Notes = append(rep.Notes, note)
}

// RecheckEarlier re-checks the window below a push to the default branch
// (EarlierWindow) and adds its verdicts to rep. opts are the push's own;
// each segment takes the verify settings of its own baseline, as the
// command does for the push.
func RecheckEarlier(ctx context.Context, repo *gitrepo.Repo, rg *Range, rep *Report, depth int, opts Options) error {
	if rg.wholeHistory {
		depth = RecheckAll
	}
	w, err := EarlierWindow(ctx, repo, rg, depth, !opts.NoFetch)
	if err != nil || w == nil {
		return err
	}
	var reps []*Report
	for _, seg := range w.Segments {
		if err := seg.Complete(ctx, repo, !opts.NoFetch); err != nil {
			return err
		}
		bl, err := BaselineAt(ctx, repo, seg.BaselineRev())
		if err != nil {
			return fmt.Errorf("re-check %s: %w", seg.Text, err)
		}
		o := opts
		vc := bl.Config
		o.Baseline, o.RecordPath = bl, vc.SessionRecord
		o.MissingTrailer, o.Unsessioned, o.Unrecorded, o.Violations = vc.Verify.MissingTrailer, vc.Verify.Unsessioned, vc.Verify.Unrecorded, vc.Verify.Violations
		o.RequireSigned = opts.RequireSigned || vc.Verify.RequireSigned
		o.Rerun = false // the push's own run re-runs the head's gates
		r, err := RunRange(ctx, repo, seg, o)
		if err != nil {
			return fmt.Errorf("re-check %s: %w", seg.Text, err)
		}
		reps = append(reps, r)
	}
	rep.AddEarlier(w, reps)
	return nil
}
