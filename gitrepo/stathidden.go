package gitrepo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// StatHiddenFiles lists the tracked files whose work-tree content differs
// from their index entry though their stat data (ctime, mtime, size,
// inode) matches it, so `git status` reads them clean. Git keeps ctime to
// the second: the lazy agent rewrote a file in place at the same size
// and set its mtime back (`touch -d @$m`) within the second of its last
// `git update-index --refresh`, and the fix its tests passed on stayed out
// of every commit (TestAdvStatHidesFix, "same second"). Git reads an
// entry's content when it is not older than the index file ("racy git"),
// so the tracked files are compared by content on a copy of the index
// dated at the epoch; the real index is never touched. It hashes every
// tracked file: for the end of a session, not a hook's path.
func (r *Repo) StatHiddenFiles(ctx context.Context) ([]string, error) {
	src, err := r.indexPath(ctx)
	if err != nil {
		return nil, err
	}
	b, err := boundedread.File(src, boundedread.LargeLimit)
	if os.IsNotExist(err) {
		return nil, nil // nothing tracked yet
	}
	if err != nil {
		return nil, fmt.Errorf("read the index: %w", err)
	}
	tmp, err := os.CreateTemp("", "sessiongate-index-*")
	if err != nil {
		return nil, fmt.Errorf("copy the index: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chtimes(tmp.Name(), time.Unix(1, 0), time.Unix(1, 0))
	}
	if err != nil {
		return nil, fmt.Errorf("copy the index: %w", err)
	}
	list := func(indexFile string) (map[string]bool, error) {
		cmd := gitenv.Command(ctx, r.root, nil, append(slices.Clip(statHonest), "diff", "--no-ext-diff", "--no-renames", "--name-only", "-z")...)
		if indexFile != "" {
			cmd.Env = gitenv.Env(os.Environ(), "GIT_INDEX_FILE="+indexFile)
		}
		out, err := cmd.Output()
		if err != nil {
			msg := err.Error()
			if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
				msg = strings.TrimSpace(string(ee.Stderr))
			}
			return nil, fmt.Errorf("compare the work tree with the index by content: %s", msg)
		}
		m := map[string]bool{}
		for _, p := range splitZ(out) {
			m[p] = true
		}
		return m, nil
	}
	byContent, err := list(tmp.Name())
	if err != nil || len(byContent) == 0 {
		return nil, err
	}
	byStat, err := list("")
	if err != nil {
		return nil, err
	}
	var out []string
	for p := range byContent {
		if !byStat[p] {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out, nil
}
