package session

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/shellline"
)

// TokStartHooksDir records the folder git ran hooks from when the session
// started (`git rev-parse --git-path hooks`: core.hooksPath from any
// config, the repository's own folder otherwise). A core.hooksPath set
// since, by whatever route (a printf into ~/.gitconfig, `git config
// --rename-section x core`, `git config --edit`, a file an include
// names), sends the next commit to a folder without sessiongate's hooks:
// the lazy-agent review of round 35 found some forty spellings, more
// than a line rule can list. The agent hook compares the folder before
// a line that can commit or push runs. The DB is local; the records ref
// never carries it (a machine-local path).
const TokStartHooksDir = "githooks:start_dir"

// hooksDirTime bounds the git call.
const hooksDirTime = 3 * time.Second

// effectiveHooksDir is the folder git runs root's hooks from ("" when git
// cannot say), spelled from the git directory (`<git>/hooks`) or the work
// tree (`<worktree>/.githooks`) when it lies there: the record names no
// machine-local folder of the repository, and a repository moved or
// copied mid-session keeps its answer.
func effectiveHooksDir(ctx context.Context, root string) string {
	ctx, cancel := context.WithTimeout(ctx, hooksDirTime)
	defer cancel()
	out, err := gitenv.Command(ctx, root, nil, "rev-parse", "--path-format=absolute", "--git-common-dir", "--show-toplevel", "--git-path", "hooks").Output()
	if err != nil {
		return ""
	}
	f := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(f) != 3 {
		return ""
	}
	hooks := filepath.Clean(f[2])
	for _, base := range []struct{ dir, name string }{{f[0], "<git>"}, {f[1], "<worktree>"}} {
		if rel, err := filepath.Rel(filepath.Clean(base.dir), hooks); err == nil && filepath.IsLocal(rel) {
			return base.name + "/" + filepath.ToSlash(rel)
		}
	}
	return hooks
}

// startHooksDirEvent is the event Start appends ("" dir: none).
func startHooksDirEvent(s *Session, dir string) *Event {
	if dir == "" {
		return nil
	}
	return &Event{SessionID: s.ID, Token: TokStartHooksDir, Detail: dir, CreatedAt: s.CreatedAt}
}

// hooksMoved says how the hooks folder moved since the session started,
// when one of lines can make a commit or push; "" otherwise, and for a
// session that recorded no folder (one from before this check).
func (e *Engine) hooksMoved(ctx context.Context, root string, s *Session, lines []string) string {
	if !anyLine(lines, shellline.MayCommit) {
		return ""
	}
	evs, err := startEvent(ctx, e.Store, s.ID, TokStartHooksDir)
	if err != nil || len(evs) != 1 {
		return ""
	}
	now := effectiveHooksDir(ctx, root)
	if now == "" || now == evs[0].Detail {
		return ""
	}
	return "git now runs hooks from " + now + ", not from " + evs[0].Detail + " as when the session started (core.hooksPath was set since, in some git config)"
}
