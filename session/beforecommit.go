package session

import (
	"context"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// A requirement to do something before committing ("Re-verify the branch
// before commit", "Fix what the checks report before you commit") is met
// only by evidence recorded before a commit. The adversarial pass (issue
// 25) committed first and ran `git branch --show-current` afterwards: the
// run counted, COMPLETE, clean, verify passing. Times are sessiongate's own
// (the post-commit hook's evidence), never the commit's date, which the
// agent sets.
//
// Which commit: the phase's last one. A phase that made none is judged
// against the session's last commit when another protocol phase made it
// (the lazy agent committed in HANDOFF, then re-verified in
// GIT_OPERATIONS, after every commit); its proof is then any run that
// meets the requirement since the commits of the phase before that one.
// A last commit made while working (between the protocols) is not judged:
// the work's commits come after the start protocol's own checks, and an
// honest agent whose end protocol has nothing left to commit must not be
// asked for a commit. The next push was no answer: the lazy agent
// re-verifies before it pushes.

var beforeCommitReqRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:before|prior to)\s+(?:you\s+|each\s+|the\s+|a\s+|any\s+)?commit(?:s|ting)?\b`)
})

// isCommit reports evidence of a commit the hooks saw.
func isCommit(e Evidence) bool {
	return e.Kind == EvidenceCommitSHA || e.Kind == EvidenceBypassCommit
}

// commitOrderGap says why r's evidence does not count for want of order
// ("" when it does, or when r asks for no order).
func commitOrderGap(p *protocolspec.Phase, r protocolspec.Requirement, evs []Evidence, cfg Config) string {
	if !beforeCommitReqRE().MatchString(r.Text) {
		return ""
	}
	var lastCommit, firstProof time.Time
	stale := "" // a branch check's run on another branch (staleBranchRun)
	for _, e := range evs {
		if e.Phase != p.ID {
			continue
		}
		switch {
		case isCommit(e):
			if e.CreatedAt.After(lastCommit) {
				lastCommit = e.CreatedAt
			}
		case e.Step == StepNotApplicable || e.Step == StepCondition:
		case e.Observed() && e.Origin != OriginTranscript && !observedFor(e, r):
		case e.Observed() && e.Origin != OriginTranscript && !e.Succeeded():
		case e.Requirement != r.ID && !(e.Observed() && e.Origin != OriginTranscript):
		case staleBranchRun(e, cfg.headBranch) && !branchHoldsLastCommit(e, evs, cfg):
			stale = e.Ref
		default:
			if firstProof.IsZero() || e.CreatedAt.Before(firstProof) {
				firstProof = e.CreatedAt
			}
		}
	}
	if firstProof.IsZero() && stale != "" {
		if shown := onBranchRE().FindStringSubmatch(stale)[1]; shown == "?" {
			return fmt.Sprintf("its run's output did not show the branch it ended on (HEAD on %s now): the branch changed in the same run; verify it again, then commit", cfg.headBranch)
		}
		return fmt.Sprintf("its run showed another branch than HEAD is on now (%s; HEAD on %s): the branch changed after it was verified; verify it again, then commit",
			onBranchRE().FindStringSubmatch(stale)[1], cfg.headBranch)
	}
	if lastCommit.IsZero() {
		if firstProof.IsZero() {
			return ""
		}
		return earlierPhaseCommitGap(p, r, cfg.sessionEvidence, firstProof)
	}
	if firstProof.IsZero() || firstProof.Before(lastCommit) {
		return ""
	}
	return fmt.Sprintf("it asks for this before committing, and its evidence came after %s's last commit (%s, evidence at %s): do it, then commit (git commit --amend --no-edit recommits the last commit)",
		p.ID, lastCommit.UTC().Format(time.TimeOnly), firstProof.UTC().Format(time.TimeOnly))
}

// earlierPhaseCommitGap judges r when p made no commit: against the
// session's last commit before p's first proof, made in another protocol
// phase. The proof must
// come before that commit and after the last commit of any other phase
// (or the session's start): a branch check of the start protocol does not
// re-verify before an end phase's commit.
func earlierPhaseCommitGap(p *protocolspec.Phase, r protocolspec.Requirement, evs []Evidence, proof time.Time) string {
	var last *Evidence
	for i := range evs {
		// A commit after the phase's proof is a later phase's: read again
		// once the session moved on, p must not turn open.
		if isCommit(evs[i]) && evs[i].CreatedAt.Before(proof) && (last == nil || evs[i].CreatedAt.After(last.CreatedAt)) {
			last = &evs[i]
		}
	}
	if last == nil || last.Phase == "" || last.Phase == p.ID {
		return ""
	}
	var since time.Time
	for _, e := range evs {
		if isCommit(e) && e.Phase != last.Phase && e.CreatedAt.Before(last.CreatedAt) && e.CreatedAt.After(since) {
			since = e.CreatedAt
		}
	}
	for _, e := range evs {
		if !e.CreatedAt.After(since) || !e.CreatedAt.Before(last.CreatedAt) {
			continue
		}
		if e.Step == StepNotApplicable || e.Step == StepCondition || isCommit(e) {
			continue
		}
		observed := e.Observed() && e.Origin != OriginTranscript
		if observed && observedFor(e, r) && e.Succeeded() || !observed && e.Requirement == r.ID {
			return ""
		}
	}
	return fmt.Sprintf("it asks for this before committing, and %s made no commit: the session's last commit (%s, in %s at %s) came before any evidence for it: do it, then commit (git commit --amend --no-edit recommits the last commit)",
		p.ID, shortSHA(last.Ref), last.Phase, last.CreatedAt.UTC().Format(time.TimeOnly))
}

// asksBeforeCommit reports a phase owing a "before commit" requirement.
func asksBeforeCommit(p *protocolspec.Phase) bool {
	for _, r := range p.OwedRequirements() {
		if beforeCommitReqRE().MatchString(r.Text) {
			return true
		}
	}
	return false
}

// withSessionEvidence loads the session's evidence of every phase into cfg
// when p asks for something before a commit: only then is another phase's
// commit read, so other gates keep reading their phase's evidence alone.
func (e *Engine) withSessionEvidence(ctx context.Context, cfg *Config, s *Session, p *protocolspec.Phase) error {
	if !asksBeforeCommit(p) {
		return nil
	}
	all, err := e.Store.ListEvidence(ctx, s.ID)
	if err != nil {
		return fmt.Errorf("load the session's commits for %s: %w", p.ID, err)
	}
	cfg.sessionEvidence = all
	if repo, err := e.OpenRepo(ctx, s.Worktree); err == nil {
		if _, b, err := repo.Head(ctx); err == nil {
			cfg.headBranch = b
			if b == "" {
				cfg.headBranch = "(no branch: HEAD detached)" // a switch too
			}
		}
		// Asked only for a check whose branch is not HEAD's (one git call).
		cfg.branchHolds = func(branch, sha string) bool {
			ok, err := repo.IsAncestor(ctx, sha, "refs/heads/"+branch)
			return err == nil && ok
		}
	}
	return nil
}

// branchHoldsLastCommit: a branch check's run whose branch is not HEAD's
// now still counts when the session's last commit is on the branch it
// showed: the honest agent committed there and switched away after (`git
// switch main` once pushed), which read as stale at every later gate
// (round 24 review, c8: TestStaleBranchCheck). The lazy shape (check,
// `git switch -c other`, commit there) leaves the commit off the branch.
func branchHoldsLastCommit(e Evidence, evs []Evidence, cfg Config) bool {
	m := onBranchRE().FindStringSubmatch(e.Ref)
	if m == nil || cfg.branchHolds == nil {
		return false
	}
	var last *Evidence
	for _, list := range [][]Evidence{evs, cfg.sessionEvidence} {
		for i := range list {
			if isCommit(list[i]) && list[i].Ref != "" && (last == nil || list[i].CreatedAt.After(last.CreatedAt)) {
				last = &list[i]
			}
		}
	}
	return last != nil && cfg.branchHolds(m[1], last.Ref)
}

var onBranchRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`, on branch (\S+)$`)
})

// staleBranchRun says whether e is a branch check that showed another
// branch than HEAD is on now. Lazy pass 24: `git branch --show-current`
// on the session's branch, then `git switch -c other` and the commit
// there; the run still counted as "Re-verify the branch before commit".
// A run recorded before its branch was (no ", on branch") is not judged.
func staleBranchRun(e Evidence, head string) bool {
	m := onBranchRE().FindStringSubmatch(e.Ref)
	return m != nil && head != "" && m[1] != head
}
