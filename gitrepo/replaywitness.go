package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// What git's replays copy, when pre-commit never saw it (issue 25: an
// honest `git revert --no-edit` or `git cherry-pick` of published work
// was a BYPASS). Names in messages and state files are hints the agent
// can write; each answer is settled by the commits' patches.

var revertsRE = lazyregexp.New(`(?m)^This reverts commit ([0-9a-f]{7,64})\.?`)

// RevertedFrom returns the commit among candidates that commit c reverts:
// c's change is exactly the reverse of that commit's, which is on c's
// history (c undoes work the branch holds); "" otherwise. The commit is
// named by c's message (what git revert writes) or REVERT_HEAD.
func (r *Repo) RevertedFrom(ctx context.Context, c string, candidates []string) (string, error) {
	if !hexRev(c) {
		return "", fmt.Errorf("bad revision %q", c)
	}
	if len(candidates) == 0 {
		return "", nil
	}
	return r.revertedFrom(ctx, c, func(o string) (bool, error) { return slices.Contains(candidates, o), nil })
}

// revertedFrom returns the commit c exactly reverses among those accept
// takes ("" when none).
func (r *Repo) revertedFrom(ctx context.Context, c string, accept func(o string) (bool, error)) (string, error) {
	msg, err := run(ctx, r.root, "log", "--no-walk", "--format=%B", c, "--")
	if err != nil {
		return "", fmt.Errorf("read commit %s: %w", c, err)
	}
	var cands []string
	for _, m := range revertsRE.FindAllSubmatch(msg, 4) {
		cands = append(cands, string(m[1]))
	}
	cands = append(cands, r.stateRevs("REVERT_HEAD")...)
	ids, err := r.patchIDs(ctx, []string{c})
	if err != nil || ids[c] == "" {
		return "", err
	}
	for _, o := range cands {
		if !hexRev(o) {
			continue
		}
		full, err := run(ctx, r.root, "rev-parse", "--verify", "--quiet", o+"^{commit}")
		if err != nil {
			continue // not a commit here
		}
		o = strings.TrimSpace(string(full))
		if ok, err := accept(o); err != nil || !ok {
			if err != nil {
				return "", err
			}
			continue
		}
		if ok, err := r.IsAncestor(ctx, o, c+"^"); err != nil || !ok {
			continue
		}
		// The reverse of o's change against its first parent.
		diff, err := run(ctx, r.root, slices.Concat([]string{"-c", "diff.noprefix=false", "diff", "-p", "--no-color"}, patchAsStored, []string{o, o + "^", "--"})...)
		if err != nil {
			continue // a root commit has no parent to return to
		}
		id, err := patchID(ctx, r.root, append([]byte("commit "+o+"\n"), diff...))
		if err != nil {
			return "", err
		}
		if id != "" && id == ids[c] {
			return o, nil
		}
	}
	return "", nil
}

// maxPublished bounds the remote-tracking commits PublishedFrom compares.
const maxPublished = 200

// PublishedFrom returns a commit on a remote-tracking branch, not on HEAD
// before c, whose change equals commit c's: c copies published work (a
// colleague's fix cherry-picked from origin), the trust reconciliation
// gives remote-tracking branches. "" when none of the newest 200 does.
func (r *Repo) PublishedFrom(ctx context.Context, c string) (string, error) {
	if !hexRev(c) {
		return "", fmt.Errorf("bad revision %q", c)
	}
	out, err := run(ctx, r.root, "log", "-n", fmt.Sprint(maxPublished), "--no-merges", "--format=%H", "--remotes", "--not", c+"^", "--")
	if err != nil {
		return "", nil // no parent (root) or no remotes: nothing published to copy
	}
	cands := strings.Fields(string(out))
	if len(cands) == 0 {
		return "", nil
	}
	return r.ReplayedFrom(ctx, c, cands)
}

// stateRevs reads the commit ids a git state file names.
func (r *Repo) stateRevs(name string) []string {
	b, err := boundedread.File(filepath.Join(r.GitDir(), name), boundedread.DefaultLimit)
	if err != nil {
		return nil
	}
	return strings.Fields(string(b))
}

// patchID is git patch-id --stable of one commit's patch text.
func patchID(ctx context.Context, dir string, patch []byte) (string, error) {
	cmd := gitenv.Command(ctx, dir, nil, "patch-id", "--stable")
	cmd.Stdin = bytes.NewReader(patch)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git patch-id: %w", err)
	}
	if f := strings.Fields(string(out)); len(f) == 2 {
		return f[0], nil
	}
	return "", nil
}

// PublishedElsewhere is PublishedFrom for a clone that holds c on a
// remote-tracking branch itself (CI after the push): only the remote's
// branches that do not contain c are searched, so c (or a later commit of
// its own branch) never vouches for itself.
func (r *Repo) PublishedElsewhere(ctx context.Context, c string) (string, error) {
	if !hexRev(c) {
		return "", fmt.Errorf("bad revision %q", c)
	}
	refs, err := run(ctx, r.root, "for-each-ref", "--no-contains", c, "--format=%(objectname)", "refs/remotes")
	if err != nil {
		return "", nil // c not here (shallow): nothing to compare
	}
	tips := strings.Fields(string(refs))
	if len(tips) == 0 {
		return "", nil
	}
	args := append([]string{"log", "-n", fmt.Sprint(maxPublished), "--no-merges", "--format=%H"}, tips...)
	out, err := run(ctx, r.root, append(args, "--not", c+"^", "--")...)
	if err != nil {
		return "", nil
	}
	cands := strings.Fields(string(out))
	if len(cands) == 0 {
		return "", nil
	}
	return r.ReplayedFrom(ctx, c, cands)
}
