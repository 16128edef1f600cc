package session

import (
	"context"
	"fmt"
	"time"

	"github.com/sessiongate/sessiongate/mtimefresh"
)

// freshenChanged dates every file the session changed (committed, staged,
// unstaged or untracked since its start commit) now, before a QA gate's
// command runs, after setting back whatever in the work tree is dated in
// the future: mtimefresh.Freshen (why: its package comment). It returns
// how many files it set.
func freshenChanged(ctx context.Context, repo Repo, s *Session, now time.Time) (int, error) {
	files, err := sessionFiles(ctx, repo, s)
	if err != nil {
		// Future-dated outputs are set back all the same: a build tool
		// would take them as newer than the work whatever the list says.
		n, cerr := mtimefresh.ClampFuture(repo.Root(), now)
		if cerr != nil {
			return n, cerr
		}
		return n, fmt.Errorf("freshen the session's files: %w", err)
	}
	return mtimefresh.Freshen(repo.Root(), files, now)
}
