package gitrepo

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// RefsNamed lists the refs a short name can mean, in the order git tries
// them (gitrevisions(7): refs/NAME, refs/tags/NAME, refs/heads/NAME,
// refs/remotes/NAME, refs/remotes/NAME/HEAD). git takes the first and
// only warns: a tag named origin/main, pushed by anyone who may push tags,
// shadows the remote branch a CI range names (round 56, helper 335).
func (r *Repo) RefsNamed(ctx context.Context, name string) ([]string, error) {
	var out []string
	err := r.withGoGit(ctx, func(st *filesystem.Storage) error {
		for _, full := range []string{"refs/" + name, "refs/tags/" + name, "refs/heads/" + name, "refs/remotes/" + name, "refs/remotes/" + name + "/HEAD"} {
			_, err := st.Reference(plumbing.ReferenceName(full))
			if errors.Is(err, plumbing.ErrReferenceNotFound) {
				continue
			}
			if err != nil {
				return fmt.Errorf("read %s: %w", full, err)
			}
			out = append(out, full)
		}
		return nil
	})
	return out, err
}
