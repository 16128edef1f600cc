package session

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/inferredcheck"
	"github.com/sessiongate/sessiongate/owncommit"
)

// CommitFact is one commit after a session's starting commit; which are
// the session's own is owncommit's rule.
type CommitFact = owncommit.Fact

// ownCommits splits the commits after a session's start into its own and
// the others, each newest first (owncommit.Split).
func ownCommits(s *Session, cs []CommitFact) (own, others []CommitFact) {
	return owncommit.Split(s.ID, s.CreatedAt, cs)
}

// checkCommit passes when the session made a commit since it started.
func checkCommit(ctx context.Context, env gateEnv) (GateStatus, string, string) {
	cs, err := env.repo.CommitFacts(ctx, env.sess.StartCommit)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	own, others := ownCommits(env.sess, cs)
	if len(own) == 0 {
		if len(others) > 0 {
			return StatusFail, fmt.Sprintf("no commit of this session since it started: the %d commit(s) after its starting commit (newest %s) are another session's or were already published before it started; commit your changes", len(others), shortSHA(others[0].SHA)), ""
		}
		if inferredcheck.Inquiry(env.sess.Objective) {
			// An inquiry that changed nothing owes no commit: the block
			// stopped no lazy agent (an empty commit passed it) and cost
			// every research session one, which a later rebase cannot
			// match (round 61, helper 350). Whatever is left in the work
			// tree, a stash or a worktree still fails it.
			if st, _, _ := checkClean(ctx, env); st == StatusPass {
				return StatusPass, "no commit, and none owed: the session changed no file and its objective asks a question, not for a change", ""
			}
		}
		return StatusFail, "no commit since the session started: commit your changes", ""
	}
	msg := fmt.Sprintf("%d commit(s) since start, newest %s", len(own), shortSHA(own[0].SHA))
	if len(others) > 0 {
		msg += fmt.Sprintf(" (%d other commit(s) not counted: another session's, or published before the start)", len(others))
	}
	return StatusPass, msg, own[0].SHA
}
