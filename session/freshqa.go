package session

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/repopath"
	"sort"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/hiddenwork"
	"github.com/sessiongate/sessiongate/internal/gitstatus"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// staleQA re-checks, at the end, each QA phase that passed before the
// work last changed (issue 25 item 5): tests that ran before the last
// commit of code proved nothing about what is committed. The adversarial
// pass committed broken code after QA had passed and ended COMPLETE.
//
//   - Tracked files other than documentation changed and not committed at
//     the end: the tests saw a work tree, not the commit. The end is
//     blocked until they are committed or discarded.
//   - A commit of files other than documentation recorded after the QA
//     phase passed (sessiongate's clock, not the commit's date, which the
//     agent sets): a phase with a command (commands: or a command gate)
//     runs its gate again on the work as committed. A phase proven only by
//     runs the agent made is not re-run (sessiongate never runs what the
//     agent typed), and an honest run made before the commit of the same
//     work must keep counting; that gap is documented.
//
// It returns the gate that failed, if one did.
func (e *Engine) staleQA(ctx context.Context, s *Session, ps []position, cur int) (*GateResult, *protocolspec.Phase, error) {
	results, err := e.Store.PhaseResults(ctx, s.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("load phase results: %w", err)
	}
	passed := map[string]time.Time{}
	saw := map[string]string{}     // the commit the passing gate's command ran on
	sawTree := map[string]string{} // and the tree of tracked files it read
	for _, r := range results {
		if r.Status == PhasePassed {
			passed[r.PhaseID] = r.EndedAt
			saw[r.PhaseID] = commandHead(r.Checks)
			sawTree[r.PhaseID] = commandTree(r.Checks)
		}
	}
	var qa []*protocolspec.Phase
	for i := 0; i < cur && i < len(ps); i++ {
		if p := ps[i].phase; p != nil && p.Section == protocolspec.SectionEnd && e.isQAPhase(p) && !passed[p.ID].IsZero() {
			qa = append(qa, p)
		}
	}
	if len(qa) == 0 {
		return nil, nil, nil
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return nil, nil, err
	}
	all, err := e.Store.ListEvidence(ctx, s.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("load the session's commits: %w", err)
	}
	var commits []Evidence // every commit the session saw land, bypassed ones too
	for _, x := range all {
		if x.Kind == EvidenceCommitSHA || x.Kind == EvidenceBypassCommit {
			commits = append(commits, x)
		}
	}
	sort.Slice(commits, func(i, j int) bool { return commits[i].CreatedAt.Before(commits[j].CreatedAt) })
	status, err := repo.Status(ctx)
	if err != nil {
		return nil, nil, err
	}
	// Untracked files are not part of what is committed.
	tracked, untrackedList := gitstatus.Split(status)
	var dirtyCode []string
	for _, f := range tracked {
		if !e.isDoc(f) {
			dirtyCode = append(dirtyCode, f)
		}
	}
	untracked := map[string]bool{}
	for _, f := range untrackedList {
		untracked[f] = true
	}
	hiddenCode, err := hiddenWork(ctx, repo, s, e.Config.DocGlobs, e.honouredFlags(ctx, repo, s, true))
	if err != nil {
		return nil, nil, err
	}
	head, _, err := repo.Head(ctx)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range qa {
		at := passed[p.ID]
		// HEAD as the QA gate saw it: the last commit recorded before it
		// passed, else the start.
		base := s.StartCommit
		var after []Evidence
		for _, c := range commits {
			if c.CreatedAt.After(at) {
				after = append(after, c)
			} else {
				base = c.Ref
			}
		}
		// The gate's command ran on the commit it recorded: when that is
		// not HEAD now, the lazy agent may have moved HEAD for the run
		// (a detached main, another branch, a rebase stopped before its
		// first pick, a reset and back) and the commits recorded say
		// nothing of it. Compare from the commit the tests saw.
		moved := saw[p.ID] != "" && saw[p.ID] != head
		offRecord := moved && saw[p.ID] != base // not the last commit recorded before the pass
		if moved {
			base = saw[p.ID]
		}
		var changed []string
		dirtyRun := false
		if len(after) > 0 || moved {
			files, err := repo.ChangedFiles(ctx, base)
			if err != nil {
				return nil, nil, err
			}
			for _, f := range files {
				if !untracked[f] && !e.isDoc(f) {
					changed = append(changed, f)
				}
			}
		}
		// Nothing committed changed code, but the work tree the
		// command read was not HEAD's: an uncommitted fix passed the gate
		// and was checked out again (round 23 second review). Compare the
		// tree it saw with HEAD's.
		if len(changed) == 0 && sawTree[p.ID] != "" {
			files, err := repo.TreeDiff(ctx, sawTree[p.ID], head)
			if err != nil {
				return nil, nil, err
			}
			for _, f := range files {
				if !e.isDoc(f) {
					changed = append(changed, f)
				}
			}
			dirtyRun = len(changed) > 0
		}
		if len(hiddenCode) > 0 {
			g := GateResult{Phase: p.ID, Title: p.Title, Level: p.Level(), Status: StatusFail,
				Message: fmt.Sprintf("%s passed, but git hides how the work tree differs from what is committed (%s): the tests saw the work tree, not the commit; undo it (`git update-index --no-skip-worktree --no-assume-unchanged FILE` then `git checkout -- FILE`, remove the filter, `git add` a file whose stat data was kept, or commit the file a link points at in its place), commit, then run %s again", p.ID, shorten.List(hiddenCode, 5), p.ID)}
			return &g, p, nil
		}
		if len(dirtyCode) > 0 {
			g := GateResult{Phase: p.ID, Title: p.Title, Level: p.Level(), Status: StatusFail,
				Message: fmt.Sprintf("%s passed, but tracked files are changed and not committed (%s): the tests saw the work tree, not what is committed; commit or discard them, then run %s again", p.ID, shorten.List(dirtyCode, 5), p.ID)}
			return &g, p, nil
		}
		// A test run that failed after the phase passed, and that no
		// later run answers, makes the pass stale too.
		nr, err := e.narrowedQA(ctx, s, p, "HEAD")
		if err != nil {
			return nil, nil, err
		}
		if nr != nil {
			g := GateResult{Phase: p.ID, Title: p.Title, Level: p.Level(), Status: StatusFail, Checks: []CheckResult{*nr},
				Message: fmt.Sprintf("%s passed, but it no longer holds: %s", p.ID, nr.Message)}
			return &g, p, nil
		}
		if len(changed) == 0 || !e.hasCommand(p) {
			continue
		}
		g, err := e.evaluate(ctx, s, p, false)
		if err != nil {
			return nil, nil, err
		}
		if g.Status == StatusFail {
			if dirtyRun {
				g.Message = fmt.Sprintf("%s passed at %s on a work tree that differed from HEAD %s in %s (not committed): it must pass again on what is committed: %s", p.ID,
					at.UTC().Format(time.TimeOnly), shorten.SHA(head), shorten.List(changed, 5), g.Message)
				return &g, p, nil
			}
			if offRecord || len(after) == 0 {
				g.Message = fmt.Sprintf("%s passed at %s on commit %s, not on HEAD %s, which differs from it in %s: it must pass again on what is committed: %s", p.ID,
					at.UTC().Format(time.TimeOnly), shorten.SHA(base), shorten.SHA(head), shorten.List(changed, 5), g.Message)
				return &g, p, nil
			}
			g.Message = fmt.Sprintf("%s passed at %s, before commit %s changed %s: it must pass again on what is committed: %s", p.ID,
				at.UTC().Format(time.TimeOnly), shorten.SHA(after[len(after)-1].Ref), shorten.List(changed, 5), g.Message)
			return &g, p, nil
		}
	}
	return nil, nil, nil
}

// isQAPhase is a phase that runs the tests: QA by name, or one whose
// command sessiongate.yaml sets.
func (e *Engine) isQAPhase(p *protocolspec.Phase) bool {
	if _, ok := e.Config.Commands[p.ID]; ok {
		return true
	}
	return isQA(p)
}

// hasCommand reports a phase whose gate runs a command sessiongate owns.
func (e *Engine) hasCommand(p *protocolspec.Phase) bool {
	if _, ok := e.Config.Commands[p.ID]; ok {
		return true
	}
	for _, c := range p.Checks {
		if c.Kind == protocolspec.CheckCommand {
			return true
		}
	}
	return false
}

func (e *Engine) isDoc(f string) bool {
	for _, g := range e.Config.DocGlobs {
		if repopath.Match(g, f) {
			return true
		}
	}
	return false
}

// branchAtEnd re-runs, at the end, a start phase's "not on the default
// branch" check that binds: passing it at the start and then committing
// on the default branch (git checkout main) ended COMPLETE in the
// adversarial pass.
func (e *Engine) branchAtEnd(ctx context.Context, s *Session, ps []position) (*GateResult, *protocolspec.Phase, error) {
	for _, pos := range ps {
		p := pos.phase
		if p == nil || p.Section != protocolspec.SectionStart || !p.Mandatory() {
			continue
		}
		for _, c := range p.Checks {
			if c.Kind != protocolspec.CheckNotDefaultBranch {
				continue
			}
			repo, err := e.OpenRepo(ctx, s.Worktree)
			if err != nil {
				return nil, nil, err
			}
			st, msg, _ := checkNotDefaultBranch(ctx, gateEnv{goCache: e.toolchainCache(), repo: repo, sess: s, phase: p, cfg: e.Config, tipsAtStart: e.tipsAtStartOf(s.ID), parkedAtStart: e.parkedAtStartOf(s.ID), remotesAtStart: e.remotesAtStartOf(s.ID)})
			if st != StatusFail {
				return nil, nil, nil
			}
			g := GateResult{Phase: p.ID, Title: p.Title, Level: p.Level(), Status: StatusFail,
				Checks:  []CheckResult{{Kind: c.Kind, Status: StatusFail, Message: msg}},
				Message: fmt.Sprintf("%s passed at the start, but the work is now on the default branch: %s, then end the session there", p.ID, msg)}
			return &g, p, nil
		}
	}
	return nil, nil, nil
}

// commitChecksAtEnd re-runs, at the end, the checks of a phase behind the
// position that judge the session's commits and changed files
// (commit_message, unchanged, no_hook_bypass): a commit that lands after
// that phase passed is judged by them too. The lazy-agent pass (round 16)
// passed GIT_OPERATIONS, then `git commit --amend -m wip` through the
// hooks, and ended COMPLETE, clean, verify passing, with a commit whose
// message the protocol forbids. The clean-tree check is not re-run: an
// optional phase after the commits (a retrospective) may leave a file.
func (e *Engine) commitChecksAtEnd(ctx context.Context, s *Session, ps []position, cur int) (*GateResult, *protocolspec.Phase, error) {
	var repo Repo
	ws := s // s counted from its work's start, as the gate counted it (workStart)
	for i := 0; i < cur && i < len(ps); i++ {
		p := ps[i].phase
		if p == nil || !p.Mandatory() {
			continue
		}
		for _, c := range p.Checks {
			switch c.Kind {
			case protocolspec.CheckCommitMessage, protocolspec.CheckUnchanged, protocolspec.CheckNoHookBypass:
			default:
				continue
			}
			if repo == nil {
				r, err := e.OpenRepo(ctx, s.Worktree)
				if err != nil {
					return nil, nil, err
				}
				repo = r
				// A person's older commit brought in by a fast-forward
				// is not the session's: the gate left it out, and so
				// must its re-check at the end (it read as a hooks-off
				// commit of the session: TestAdv26bBackdatedOlderWorkHonest).
				if ws, _, err = e.workStart(ctx, repo, s); err != nil {
					return nil, nil, err
				}
			}
			continued, continuedIDs, err := e.continuedFrom(ctx, repo, ws)
			if err != nil {
				return nil, nil, err
			}
			cr, _ := runCheck(ctx, gateEnv{goCache: e.toolchainCache(), repo: repo, sess: ws, phase: p, cfg: e.Config, commitRecords: e.commitRecordsOf(s.ID), continued: continued, continuedIDs: continuedIDs, atStart: e.startHiddenOf(s.ID), tipsAtStart: e.tipsAtStartOf(s.ID), parkedAtStart: e.parkedAtStartOf(s.ID), remotesAtStart: e.remotesAtStartOf(s.ID)}, c)
			if cr.Status != StatusFail {
				continue
			}
			g := GateResult{Phase: p.ID, Title: p.Title, Level: p.Level(), Status: StatusFail, Checks: []CheckResult{cr},
				Message: fmt.Sprintf("%s passed, but it no longer holds on what is committed now (a commit landed after it): %s", p.ID, cr.Message)}
			return &g, p, nil
		}
	}
	return nil, nil, nil
}

// hiddenWork lists, as "path: how", the files other than documentation
// (docGlobs) whose work tree differs from what is committed by a means
// git status does not show (hiddenwork.List): staleQA blocks the end on
// them, and a QA command gate refuses to run on them.
//
// A file the start honoured as the developer's flag, with the same content
// and index entry now (honoured, honouredOf), is left out: the developer's
// local config.yaml the tests never read blocked an honest end (final
// review of round 28). Any other flag is listed, the file named.
func hiddenWork(ctx context.Context, repo Repo, s *Session, docGlobs []string, honoured map[string]bool) ([]string, error) {
	all, err := hiddenwork.List(ctx, repo, s.CreatedAt, func() ([]string, error) { return sessionFiles(ctx, repo, s) }, docGlobs)
	if err != nil || len(honoured) == 0 {
		return all, err
	}
	var out []string
	for _, h := range all {
		if f, how, _ := strings.Cut(h, ": "); honoured[f] && strings.Contains(how, "(git update-index)") {
			continue
		}
		out = append(out, h)
	}
	return out, nil
}

// commandTree is the tree of tracked files a gate result's command check
// recorded it read ("" without one).
func commandTree(checks []CheckResult) string {
	for _, c := range checks {
		if c.Kind == protocolspec.CheckCommand && c.Tree != "" {
			return c.Tree
		}
	}
	return ""
}

// commandHead is the commit a gate result's command check recorded it ran
// on ("" for a result without one, or recorded before round 23).
func commandHead(checks []CheckResult) string {
	for _, c := range checks {
		if c.Kind == protocolspec.CheckCommand && c.Head != "" {
			return c.Head
		}
	}
	return ""
}
