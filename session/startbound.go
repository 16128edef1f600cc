package session

import (
	"context"
	"encoding/json"
	"fmt"
)

// A back-dated `session start --starting-commit X` widened everything
// counted from the start (changed_since_start, {changed}, write
// requirements): a HANDOFF.md a person or an earlier session updated
// before X..HEAD counted as updated by this one (issue 25.7 route 5). The
// starting commit is HEAD at the start, or an ancestor whose commits up to
// HEAD are all this session's own work by ownCommits' rule: committed
// locally, unpublished, and carrying no other session's Session-Id (the
// honest late start: the work committed, then the session started at its
// parent). The record says when the caller's starting commit was not HEAD.

// boundStart refuses a starting commit that reaches back past work that is
// not the new session's. s is the session about to start (ID, CreatedAt).
func boundStart(ctx context.Context, repo Repo, s *Session, start, head string) error {
	if start == head {
		return nil
	}
	cs, err := repo.CommitFacts(ctx, start)
	if err != nil {
		return fmt.Errorf("list the commits after the starting commit: %w", err)
	}
	_, others := ownCommits(s, cs)
	if len(others) == 0 {
		return nil
	}
	newest := others[0]
	why := "already published (on the default branch or a remote-tracking branch) before the session started"
	if newest.SessionID != "" && newest.SessionID != s.ID {
		why = "another session's (Session-Id " + truncate(newest.SessionID, 40) + ")"
	}
	return invalidf("starting commit %s reaches back past %d commit(s) that are not this session's work (newest %s: %s): a session counts what changed from where it started; start at %s or later, or without --starting-commit",
		shortSHA(start), len(others), shortSHA(newest.SHA), why, shortSHA(newest.SHA))
}

// HeadAtStart returns HEAD when the session started, as the start event
// recorded it, when the caller's starting commit differed ("" otherwise,
// and for sessions from before it was recorded).
func (e *Engine) HeadAtStart(ctx context.Context, id string) (string, error) {
	evs, err := startEvent(ctx, e.Store, id, "tool:session_start")
	if err != nil {
		return "", fmt.Errorf("read the session's start: %w", err)
	}
	if len(evs) == 0 {
		return "", nil
	}
	var d struct {
		Start string `json:"starting_commit"`
		Head  string `json:"head_at_start"`
	}
	if json.Unmarshal([]byte(evs[0].Detail), &d) != nil || d.Head == d.Start {
		return "", nil
	}
	return d.Head, nil
}
