// Package owncommit decides which commits after a session's starting
// commit are the session's own work, from the commits' facts alone (their
// Session-Id trailers, whether a shared branch holds them, their commit
// times). It needs no session: the caller passes the session's id and
// when it started; gitrepo lists the facts, session/ gates on the answer.
package owncommit

import "time"

// A session's commit_since_start work is the commits it made, not every
// commit after its starting commit: `session start --starting-commit X`,
// back-dated, would otherwise count a person's or another session's
// commit, already pushed, as this session's (issue 25 route 2). A commit
// does not count when it carries another session's Session-Id trailer, or
// when it was already shared (on a remote-tracking branch or the default
// branch) and committed before the session started. An honest late start
// (the work committed locally, then the session started at its parent)
// still counts: those commits are neither shared nor another session's.

// Fact is one commit after a session's starting commit.
type Fact struct {
	SHA        string
	CommitTime time.Time
	// SessionID is its Session-Id trailer ("" when none).
	SessionID string
	// Shared: reachable from a remote-tracking branch or the default branch.
	Shared bool
	// Events is its Session-Events trailer ("" when none): the chain head
	// of its session's events when it was made (session/eventchain.go).
	Events string
}

// Split splits the commits after the start of the session id, created at
// created, into its own and the others, each newest first.
func Split(id string, created time.Time, cs []Fact) (own, others []Fact) {
	for _, c := range cs {
		switch {
		case c.SessionID != "" && c.SessionID != id:
			others = append(others, c)
		case c.Shared && c.CommitTime.Before(created.Truncate(time.Second)):
			others = append(others, c)
		default:
			own = append(own, c)
		}
	}
	return own, others
}
