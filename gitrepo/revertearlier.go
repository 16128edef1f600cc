package gitrepo

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// RevertedEarlier returns the commit that commit c exactly reverses when
// that commit is on the history of one of tips (the session's start: work
// that existed before the session), with the paths c changes; "" when c
// reverts no such commit. An honest `git revert --no-edit` of yesterday's
// bad commit runs no pre-commit hook (round 20: a CRITICAL BYPASS on
// honest work); its change is fixed by history the agent did not write in
// this session, so it needs no pre-commit to say what it is.
func (r *Repo) RevertedEarlier(ctx context.Context, c string, tips []string) (string, []string, error) {
	if !hexRev(c) {
		return "", nil, fmt.Errorf("bad revision %q", c)
	}
	o, err := r.revertedFrom(ctx, c, func(o string) (bool, error) {
		for _, tip := range tips {
			if !hexRev(tip) {
				continue
			}
			if ok, err := r.IsAncestor(ctx, o, tip); err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	})
	if err != nil || o == "" {
		return "", nil, err
	}
	out, err := run(ctx, r.root, "diff-tree", "-r", "-z", "--no-renames", "--name-only", "--no-commit-id", c+"^", c, "--")
	if err != nil {
		return "", nil, fmt.Errorf("list the paths commit %s changes: %w", c, err)
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return o, paths, nil
}

// RevertedBefore returns the commit that commit c exactly reverses when
// that commit is on c's history but not among rangeCommits: history from
// before the range CI verifies (the base branch's), which verify accepted
// when it landed; "" otherwise. CI's twin of RevertedEarlier: an honest
// revert of a commit on main failed verify as "holds nothing it replays".
func (r *Repo) RevertedBefore(ctx context.Context, c string, rangeCommits []string) (string, error) {
	if !hexRev(c) {
		return "", fmt.Errorf("bad revision %q", c)
	}
	return r.revertedFrom(ctx, c, func(o string) (bool, error) { return !slices.Contains(rangeCommits, o), nil })
}
