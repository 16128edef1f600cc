package recordref

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// putTip is the ref's tip for a write, read from the ref files when the
// layout is the common one (a loose ref, else packed-refs) and from
// `git rev-parse` otherwise: one process less per record. A stale read
// only makes fast-import refuse to move the ref, and Put retries.
func putTip(ctx context.Context, dir, ref string) (string, error) {
	if tip, ok := tipFromFiles(dir, ref); ok {
		return tip, nil
	}
	return Tip(ctx, dir, ref)
}

// tipFromFiles reads ref below the common git dir of the worktree dir.
// ok is false for anything unusual (no .git, a symbolic ref, an id that is
// not hex of a known length): git answers then.
func tipFromFiles(dir, ref string) (string, bool) {
	common, ok := commonDir(dir)
	if !ok {
		return "", false
	}
	b, err := boundedread.File(filepath.Join(common, filepath.FromSlash(ref)), boundedread.DefaultLimit)
	if err == nil {
		id := strings.TrimSuffix(string(b), "\n")
		return id, isObjectID(id)
	}
	if !os.IsNotExist(err) {
		return "", false
	}
	f, err := boundedread.Open(filepath.Join(common, "packed-refs"))
	if os.IsNotExist(err) {
		return "", true // no such ref: the first write
	}
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		id, name, found := strings.Cut(sc.Text(), " ")
		if found && name == ref {
			return id, isObjectID(id)
		}
	}
	if sc.Err() != nil {
		return "", false
	}
	return "", true
}

// commonDir finds the common git dir of a worktree's top folder.
func commonDir(dir string) (string, bool) {
	dotgit := filepath.Join(dir, ".git")
	st, err := os.Lstat(dotgit)
	if err != nil {
		return "", false
	}
	if st.IsDir() {
		return dotgit, true
	}
	if !st.Mode().IsRegular() {
		return "", false
	}
	b, err := boundedread.File(dotgit, boundedread.DefaultLimit) // a linked worktree: "gitdir: <its git dir>"
	if err != nil {
		return "", false
	}
	gd, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(dir, gd)
	}
	c, err := boundedread.File(filepath.Join(gd, "commondir"), boundedread.DefaultLimit)
	if err != nil {
		return "", false
	}
	common := strings.TrimSpace(string(c))
	if !filepath.IsAbs(common) {
		common = filepath.Join(gd, common)
	}
	return filepath.Clean(common), true
}

func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
