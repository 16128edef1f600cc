package gitrepo

import (
	"context"
	"fmt"
	"strings"
)

// DefaultBranch names the repository's default branch: what origin/HEAD
// points at, else "main" or "master" when such a local branch exists, else
// "" (no way to tell; callers then check nothing).
func (r *Repo) DefaultBranch(ctx context.Context) (string, error) {
	if b, err := run(ctx, r.root, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil {
		if name := strings.TrimPrefix(strings.TrimSpace(string(b)), "origin/"); name != "" {
			return name, nil
		}
	}
	for _, name := range []string{"main", "master"} {
		if _, err := run(ctx, r.root, "rev-parse", "--verify", "--quiet", "refs/heads/"+name); err == nil {
			return name, nil
		}
	}
	return "", nil
}

// CommitSubjects returns the subject lines of the commits on HEAD after
// since (every commit when since is ""), oldest first, merges excluded.
func (r *Repo) CommitSubjects(ctx context.Context, since string) ([]string, error) {
	if strings.HasPrefix(since, "-") {
		return nil, fmt.Errorf("bad revision %q", since)
	}
	head, _, err := r.Head(ctx)
	if err != nil || head == "" {
		return nil, err
	}
	rng := "HEAD"
	if since != "" {
		rng = since + "..HEAD"
	}
	b, err := run(ctx, r.root, "log", "--reverse", "--no-merges", "--format=%s%x00", rng, "--")
	if err != nil {
		return nil, fmt.Errorf("list commit messages %s: %w", rng, err)
	}
	var out []string
	for _, s := range strings.Split(string(b), "\x00") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out, nil
}
