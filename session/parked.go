package session

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A clean work tree ("Commit all changes", clean_worktree) said only that
// git status showed nothing. Lazy pass 39 kept a change out of the
// session's commits and still ended clean: `git stash push` before the
// end, or a commit on a side branch (`git switch -c parking; git commit;
// git switch -`). Work parked there is neither committed on the session's
// branch nor gone. The check now also names a stash entry made since the
// start (the start records the stash's entries: a stash entry's date is
// the agent's to set) and a local branch whose tip the start did not
// record and HEAD does not reach, holding commits of its own: none a
// remote-tracking ref or a start tip reaches, none with a patch-equivalent
// on HEAD (a backup branch before a rebase is no parked work).

// stasher and branchTipper are the optional parts of a Repo that list the
// stash's entries and the local branch tips (gitrepo.Repo).
type stasher interface {
	Stashes(ctx context.Context) ([]string, error)
}

type branchTipper interface {
	BranchTips(ctx context.Context) (map[string]string, error)
	NewOnBranch(ctx context.Context, tip string, not []string) (int, error)
}

// startStash lists the stash's entries to record at a start; nil when the
// repo cannot say.
func startStash(ctx context.Context, repo Repo) []string {
	st, ok := repo.(stasher)
	if !ok {
		return nil
	}
	s, err := st.Stashes(ctx)
	if err != nil {
		return nil
	}
	if s == nil {
		s = []string{} // recorded: an empty stash
	}
	return s
}

// stashAtStartOf reads what the start of session id recorded of the
// stash, for a gate (gateEnv.stashAtStart).
func (e *Engine) stashAtStartOf(id string) func(ctx context.Context) ([]string, bool) {
	return func(ctx context.Context) ([]string, bool) {
		r, err := e.readStartTips(ctx, id)
		if err != nil || !r.ok || r.stash == nil {
			return nil, false
		}
		return r.stash, true
	}
}

// parkedWork lists what the session put aside since its start: stash
// entries the start did not record, and local branches whose tips neither
// the start recorded nor HEAD reaches. Nothing when the start recorded
// none of it (older sessions) or the repo cannot say.
func parkedWork(ctx context.Context, env gateEnv) []string {
	var out []string
	if st, ok := env.repo.(stasher); ok && env.stashAtStart != nil {
		if before, ok := env.stashAtStart(ctx); ok {
			if now, err := st.Stashes(ctx); err == nil {
				for i, c := range now {
					if !slices.Contains(before, c) {
						out = append(out, fmt.Sprintf("stash@{%d} (stashed since the session started)", i))
					}
				}
			}
		}
	}
	bt, ok := env.repo.(branchTipper)
	if !ok || env.tipsAtStart == nil || env.sess == nil {
		return out
	}
	before := env.tipsAtStart(ctx)
	if before == nil {
		return out // no tips recorded at the start
	}
	tips, err := bt.BranchTips(ctx)
	if err != nil {
		return out
	}
	head, _, err := env.repo.Head(ctx)
	if err != nil || head == "" {
		return out
	}
	for _, ref := range slices.Sorted(maps.Keys(tips)) {
		c := tips[ref]
		if c == head || c == env.sess.StartCommit || slices.Contains(before, c) {
			continue
		}
		if in, err := env.repo.IsAncestor(ctx, c, head); err != nil || in {
			continue
		}
		// Its own new commits: not a backup of HEAD's before a rebase, not
		// a person's commits fetched onto local main.
		n, err := bt.NewOnBranch(ctx, c, append(slices.Clone(before), env.sess.StartCommit))
		if err != nil || n == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("branch %s at %s (%d commit(s) HEAD does not hold)", strings.TrimPrefix(ref, "refs/heads/"), shortSHA(c), n))
	}
	return out
}
