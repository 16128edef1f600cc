package gitrepo

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
)

// IndexOffHead lists which of paths have an index entry other than HEAD's
// blob (staged, absent from HEAD, or any path when HEAD is unborn). A
// developer's update-index flag hides a local edit of a committed file:
// its index entry is HEAD's. A flag over a staged stub (`git add` then
// `--assume-unchanged`, `update-index --cacheinfo`) commits the stub while
// the tests read the work tree (round 29, c1).
func (r *Repo) IndexOffHead(ctx context.Context, paths []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(paths) == 0 {
		return out, nil
	}
	if _, err := run(ctx, r.root, "rev-parse", "-q", "--verify", "HEAD^{commit}"); err != nil {
		for _, p := range paths {
			out[p] = true // no commit: nothing the flag could keep
		}
		return out, nil
	}
	args := []string{"diff-index", "--cached", "--no-renames", "--name-only", "-z", "HEAD", "--"}
	for _, p := range paths {
		args = append(args, ":(literal)"+p)
	}
	b, err := run(ctx, r.root, args...)
	if err != nil {
		return nil, fmt.Errorf("compare flagged files' index entries with HEAD: %w", err)
	}
	for _, p := range splitZ(b) {
		out[p] = true
	}
	return out, nil
}

// NamedIn reports whether a file of rev (a commit, or "" for the work
// tree's tracked files) matching one of the pathspec globs (their `*`
// crosses folders) holds needle as a fixed string, other than the file
// self: a test script that sources `scripts/names.txt` names it. False
// with no commit.
func (r *Repo) NamedIn(ctx context.Context, rev, needle, self string, globs []string) (bool, error) {
	if needle == "" || len(globs) == 0 || strings.HasPrefix(rev, "-") {
		return false, nil
	}
	args := []string{"grep", "-q", "-F", "-I", "-e", needle}
	if rev != "" {
		args = append(args, rev)
	}
	args = append(args, "--")
	for _, g := range globs {
		args = append(args, ":(icase)"+g)
	}
	if self != "" {
		args = append(args, ":(exclude,literal)"+self)
	}
	err := gitenv.Command(ctx, r.root, nil, args...).Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return false, nil
	}
	if _, herr := run(ctx, r.root, "rev-parse", "-q", "--verify", "HEAD^{commit}"); herr != nil {
		return false, nil
	}
	return false, fmt.Errorf("git grep %s in %s: %s", needle, cmp.Or(rev, "the work tree"), strings.TrimSpace(err.Error()))
}
