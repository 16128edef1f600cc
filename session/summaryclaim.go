package session

import (
	"context"

	"github.com/sessiongate/sessiongate/inferredcheck"
)

// summaryClaim is the clause of an end summary that reports work as done
// when the session changed no file (records aside): "" otherwise. The
// summary is what the next session's start shows; under the starter
// protocol no handoff file's check read it, so a session that did nothing
// ended COMPLETE, clean, with "Implemented the name argument in
// greet.sh." (with an empty commit, or none under an inquiry; helper 358).
// A session that changed files is judged by its handoff's checks.
func (e *Engine) summaryClaim(ctx context.Context, s *Session, summary string) (string, error) {
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return "", err
	}
	files, err := sessionFiles(ctx, repo, s)
	if err != nil {
		return "", err
	}
	for _, f := range files {
		if !e.Config.isRecord(f) {
			return "", nil
		}
	}
	return inferredcheck.SummaryClaim(summary, s.Objective, nil), nil
}
