package session

import (
	"context"
	"time"
)

// changedSincer is a Repo that can also compare by content the files a
// session touched whose stat data hides the change (gitrepo.Repo).
// convertedScripter lists tracked shell scripts whose work tree has CRLF
// line ends git converts away (gitrepo.Repo.ConvertedScripts).
type convertedScripter interface {
	ConvertedScripts(ctx context.Context) ([]string, error)
}

// treeGapper lists tracked paths whose work tree lets a run read what the
// commit does not hold and git status does not report (an absent
// skip-worktree file, a changed link out of the tree: gitrepo.Repo.TreeGaps).
type treeGapper interface {
	TreeGaps(ctx context.Context, since time.Time, changed []string) (map[string]string, error)
}

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
