package session

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/repopath"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
)

// A requirement to read a file is not met by a claim when the file does
// not exist: "Read docs/guide.md: nothing new" for a guide the repository
// does not have was accepted as a manual note. A conditional requirement
// that does not apply takes a not-applicable record instead.

// readOfMissing returns the paths a read requirement names when none of
// them exists in the worktree, else nil. A bare file name (no folder) can
// be anywhere and is not judged.
func readOfMissing(root string, r protocolspec.Requirement) []string {
	if toolneed.Of(r) != toolneed.Read {
		return nil
	}
	named := r.NamedPaths()
	for _, g := range named {
		if !strings.Contains(g, "/") || namedExists(root, g) {
			return nil
		}
	}
	return named
}

// namedExists reports whether a path glob a requirement names matches
// anything in the worktree: "dir/**" the folder, others a file.
func namedExists(root, glob string) bool {
	if dir, ok := strings.CutSuffix(glob, "/**"); ok && !repopath.HasMeta(dir) {
		abs, ok, err := repopath.Resolve(root, dir)
		if err != nil || !ok {
			return false
		}
		st, err := os.Stat(abs)
		return err == nil && st.IsDir()
	}
	if !repopath.HasMeta(glob) {
		_, ok, err := repopath.Resolve(root, glob)
		return err == nil && ok
	}
	m, err := repopath.Glob(root, glob)
	return err == nil && len(m) > 0
}

func slashList(l []string) string {
	for i := range l {
		l[i] = filepath.ToSlash(strings.TrimSuffix(l[i], "/**"))
	}
	return strings.Join(l, ", ")
}

// readOfOwnFile returns the plain paths (no glob) a read requirement names
// when each exists now but none is in the session's starting commit: a
// file the agent wrote itself to have something to "read". A bare file
// name, a glob, or an unborn start is not judged.
func (e *Engine) readOfOwnFile(ctx context.Context, s *Session, r protocolspec.Requirement) ([]string, error) {
	if toolneed.Of(r) != toolneed.Read || s.StartCommit == "" {
		return nil, nil
	}
	named := r.NamedPaths()
	if len(named) == 0 {
		return nil, nil
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return nil, err
	}
	for _, g := range named {
		g = strings.TrimSuffix(g, "/**")
		if !strings.Contains(g, "/") || repopath.HasMeta(g) {
			return nil, nil
		}
		in, err := repo.ExistsAt(ctx, s.StartCommit, g)
		if err != nil {
			return nil, fmt.Errorf("read %s at the starting commit: %w", g, err)
		}
		if in {
			return nil, nil
		}
	}
	return named, nil
}
