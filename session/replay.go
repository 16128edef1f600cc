package session

import (
	"context"
	"fmt"
)

// A commit git replays (cherry-pick, revert, am, rebase) runs post-commit
// but never pre-commit, so nothing checked it unless its change is one the
// session already committed through pre-commit. Issue 25's adversarial
// pass made a commit with the hooks off on a side branch and cherry-picked
// it in INIT: recorded as the session's clean work, verify passing.

// replayUnchecked returns why replayed commit c (tree: matched by a
// pre-commit pass of the session or not) is not a checked commit of
// session s, "" when it is: its tree passed pre-commit, or its patch
// (git patch-id) equals a commit the session recorded as clean, which a
// rebase onto upstream work or a cherry-pick of the session's own commit
// keeps. Whatever made it, a commit that lands before the start gates
// passed is not checked: pre-commit refuses every commit then.
func (e *Engine) replayUnchecked(ctx context.Context, s *Session, repo Repo, c string, matched bool) (string, error) {
	if s.State == StateInit {
		return fmt.Sprintf("commit %s landed while session %s was still in its start protocol (%s): pre-commit refuses every commit before the start gates pass, "+
			"and git replays (cherry-pick, revert, am, rebase) skip it", shortSHA(c), s.ID, s.Phase), nil
	}
	if matched {
		return "", nil
	}
	if repo != nil {
		evs, err := e.Store.ListEvidence(ctx, s.ID)
		if err != nil {
			return "", fmt.Errorf("load the session's commits: %w", err)
		}
		var own []string
		for _, ev := range evs {
			if ev.Kind == EvidenceCommitSHA && ev.Origin == OriginObserved && ev.Ref != c && hexSHA.MatchString(ev.Ref) {
				own = append(own, ev.Ref)
			}
		}
		// A commit pre-commit passed but nobody recorded yet (post-commit
		// leaves it to reconciliation, which a rebase may outrun): the
		// commit the replay copied, when pre-commit checked its tree.
		origs, err := repo.ReplayOriginals(ctx)
		if err != nil {
			return "", fmt.Errorf("read the replay's originals: %w", err)
		}
		for _, o := range origs {
			if o.SHA == c {
				continue
			}
			ok, err := e.matchPreCommit(ctx, s.ID, o.Tree)
			if err != nil {
				return "", err
			}
			if ok {
				own = append(own, o.SHA)
			}
		}
		from, err := repo.ReplayedFrom(ctx, c, own)
		if err != nil {
			return "", fmt.Errorf("compare the replayed commit with the session's commits: %w", err)
		}
		if from != "" {
			return "", nil
		}
	}
	return fmt.Sprintf("commit %s was replayed by git (cherry-pick, revert, am or rebase: no pre-commit hook runs) and its change is none the session's pre-commit checked: "+
		"commit work through the hooks (git cherry-pick --no-commit, then git commit)", shortSHA(c)), nil
}
