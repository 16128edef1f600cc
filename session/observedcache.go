package session

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/cachedrun"
)

// What an observed run's pass may owe to a cache keyed by mtime is
// cachedrun's (no session needed); this is the call with the session's
// files.

// shadowedSources is cachedrun.PythonShadows for the session's files, for
// a QA gate before its command runs.
func shadowedSources(ctx context.Context, repo Repo, s *Session) ([]string, error) {
	changed, err := sessionFiles(ctx, repo, s)
	if err != nil {
		return nil, fmt.Errorf("list the session's files for compiled Python beside them: %w", err)
	}
	return cachedrun.PythonShadows(repo.Root(), changed), nil
}
