package gitrepo

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/session"
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

// CommitSubjects returns the commits on HEAD's first-parent line after
// since (every commit when since is ""), oldest first, merges excluded:
// each subject line with the Session-Id trailer it carries ("" when none).
// Following first parents leaves out commits a merge brought in from
// another branch.
func (r *Repo) CommitSubjects(ctx context.Context, since string) ([]session.CommitSubject, error) {
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
	b, err := run(ctx, r.root, "log", "--reverse", "--first-parent", "--no-merges",
		"--format=%s%x1f%(trailers:key="+session.TrailerKey+",valueonly,separator=%x2C)%x00", rng, "--")
	if err != nil {
		return nil, fmt.Errorf("list commit messages %s: %w", rng, err)
	}
	var out []session.CommitSubject
	for _, rec := range strings.Split(string(b), "\x00") {
		rec = strings.TrimLeft(rec, "\n")
		if strings.TrimSpace(rec) == "" {
			continue
		}
		subj, trailer, _ := strings.Cut(rec, "\x1f")
		id, _, _ := strings.Cut(strings.TrimSpace(trailer), ",")
		out = append(out, session.CommitSubject{Subject: strings.TrimSpace(subj), SessionID: strings.TrimSpace(id)})
	}
	return out, nil
}
