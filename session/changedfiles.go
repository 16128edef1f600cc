package session

import (
	"context"
	"time"
)

// changedSincer is a Repo that can also compare by content the files a
// session touched whose stat data hides the change (gitrepo.Repo).
type changedSincer interface {
	ChangedFilesSince(ctx context.Context, since string, start time.Time) ([]string, error)
}

// sessionFiles is what s changed: repo.ChangedFiles since its starting
// commit and, where repo can, the tracked files touched since its start
// that git status reads clean though their content changed (an in-place
// rewrite with its mtime set back in a refresh's second). Every check that
// asks which files the session changed asks here, so such a rewrite is
// seen on the hook path as at the clean-tree gate.
func sessionFiles(ctx context.Context, repo Repo, s *Session) ([]string, error) {
	if cs, ok := repo.(changedSincer); ok && s.StartCommit != "" {
		return cs.ChangedFilesSince(ctx, s.StartCommit, s.CreatedAt)
	}
	return repo.ChangedFiles(ctx, s.StartCommit)
}
