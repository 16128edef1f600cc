package session

import (
	"context"
	"fmt"
)

// A person who edits the protocol (or another protected file) and commits
// it before running `protocol accept`, while an agent's session runs in the
// worktree, met pre-commit's protected-file block, and the block was
// recorded as a HIGH PROTECTED_CHANGE on the agent's session: the agent
// was charged with the person's edit (round 22 c1). The commit is still
// refused (what the gates read must be accepted first: accept, then
// commit), but it is charged to the session only when the agent could
// have made it.
//
// Rule: not charged when the committer is a person by the process ancestry
// and environment (Actor.Person) and no shell call of a coding agent is
// pending in the session's store (judged by its pre-tool hook, no post
// yet): a commit made inside the agent's shell call is the agent's
// whatever its ancestry says (a `setsid git commit` escapes the ancestry,
// not the store). A session without agent hooks has no calls to check: the
// ancestry decides, as it does for a commit outside any session. An
// edit left in the work tree is still the session's PROTECTED_CHANGE at its
// next gate (guardProtected): only the person's refused commit is not.

// personsProtectedCommit reports whether a protected-file block at
// pre-commit is a person's own commit, not the session's: why says so
// for the hook's warning ("" when it is the session's).
func (e *Engine) personsProtectedCommit(ctx context.Context, s *Session, req HookRequest) (string, error) {
	a := req.actor()
	if !a.Person() {
		return "", nil
	}
	if running, err := e.shellCallPending(ctx, s.ID); err != nil || running {
		return "", err // the agent may be running this commit
	}
	return fmt.Sprintf("not recorded against session %s: this commit is a person's (%s) and no agent shell call was running; accept the change first (`sessiongate protocol accept`), then commit", s.ID, a.Via), nil
}

// shellCallPending reports whether a shell call of a coding agent is
// judged and not yet reported in the session. It reads each agent's open
// calls only, walked from the events (WalkOpenCallEvents: the kept counts
// can be deleted by the agent making the commit), not every event of the
// session: a person's commit in a long-lived session (50,000 calls) read
// them all (round 29, c4; TestShellCallPendingBounded).
func (e *Engine) shellCallPending(ctx context.Context, sessionID string) (bool, error) {
	for _, agent := range reportingAgents {
		evs, err := e.gateOpenCallEvents(ctx, sessionID, agent)
		if err != nil {
			return false, fmt.Errorf("read the session's tool calls: %w", err)
		}
		for _, p := range owedReports(evs, agent) {
			if shellTools[p.tool] {
				return true, nil
			}
		}
	}
	return false, nil
}
