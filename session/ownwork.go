package session

import (
	"context"
	"fmt"
	"time"
)

// A session's commit_since_start work is the commits it made, not every
// commit after its starting commit: `session start --starting-commit X`,
// back-dated, would otherwise count a person's or another session's
// commit, already pushed, as this session's (issue 25 route 2). A commit
// does not count when it carries another session's Session-Id trailer, or
// when it was already shared (on a remote-tracking branch or the default
// branch) and committed before the session started. An honest late start
// (the work committed locally, then the session started at its parent)
// still counts: those commits are neither shared nor another session's.

// CommitFact is one commit after a session's starting commit.
type CommitFact struct {
	SHA        string
	CommitTime time.Time
	// SessionID is its Session-Id trailer ("" when none).
	SessionID string
	// Shared: reachable from a remote-tracking branch or the default branch.
	Shared bool
	// Events is its Session-Events trailer ("" when none): the chain head
	// of its session's events when it was made (eventchain.go).
	Events string
}

// ownCommits splits the commits after a session's start into its own and
// the others, each newest first.
func ownCommits(s *Session, cs []CommitFact) (own, others []CommitFact) {
	for _, c := range cs {
		switch {
		case c.SessionID != "" && c.SessionID != s.ID:
			others = append(others, c)
		case c.Shared && c.CommitTime.Before(s.CreatedAt.Truncate(time.Second)):
			others = append(others, c)
		default:
			own = append(own, c)
		}
	}
	return own, others
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
		return StatusFail, "no commit since the session started: commit your changes", ""
	}
	msg := fmt.Sprintf("%d commit(s) since start, newest %s", len(own), shortSHA(own[0].SHA))
	if len(others) > 0 {
		msg += fmt.Sprintf(" (%d other commit(s) not counted: another session's, or published before the start)", len(others))
	}
	return StatusPass, msg, own[0].SHA
}
