package session

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/protect"
)

// RevertEarlierRepo tells a revert of work from before the session;
// gitrepo.Repo has it.
type RevertEarlierRepo interface {
	// RevertedEarlier returns the commit c exactly reverses when it is on
	// the history of one of tips, and the paths c changes ("" when none).
	RevertedEarlier(ctx context.Context, c string, tips []string) (string, []string, error)
}

// revertOfEarlier returns the commit from before session s that replayed
// commit c exactly reverses, "" when c is no such revert or when it
// changes a protected file. `git revert --no-edit` runs no pre-commit, and
// reverting a commit the branch held before the session is the commonest
// honest use of it (round 20: a CRITICAL BYPASS on every such session).
// Its change is fixed by history: the reverse of a commit reachable from
// the session's start, which the session cannot choose (a commit made
// before the session with the hooks off is judged on its own by verify).
// A revert that touches the protocol, the config or another protected file
// is left to the BYPASS: pre-commit is where such a change is refused.
func (e *Engine) revertOfEarlier(ctx context.Context, s *Session, repo Repo, c string) (string, error) {
	rr, ok := repo.(RevertEarlierRepo)
	if !ok || s.StartCommit == "" {
		return "", nil
	}
	tips := []string{s.StartCommit}
	if h, err := e.HeadAtStart(ctx, s.ID); err == nil && h != "" && h != s.StartCommit {
		tips = append(tips, h)
	}
	orig, paths, err := rr.RevertedEarlier(ctx, c, tips)
	if err != nil {
		return "", fmt.Errorf("read what commit %s reverts: %w", shortSHA(c), err)
	}
	if orig == "" {
		return "", nil
	}
	protected := ProtectedPaths(e.Config, "")
	for _, p := range paths {
		if protect.Match(protected, p) {
			return "", nil
		}
	}
	return orig, nil
}
