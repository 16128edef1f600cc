package commitcite

import (
	"context"
)

// Repo is what Judge asks of a repository (gitrepo.Repo).
type Repo interface {
	// ResolveRev returns the commit rev names, or an error.
	ResolveRev(ctx context.Context, rev string) (string, error)
	// ObjectsWithPrefix returns every object id starting with prefix.
	ObjectsWithPrefix(ctx context.Context, prefix string) ([]string, error)
}

// Why a cite is an invented claim.
type Why int

const (
	// NoCommit: the id names no commit of the repository (made up, another
	// repository's, or an object that is no commit).
	NoCommit Why = iota + 1
	// NotOwn: claimed as committed work, a commit of the repository but
	// not one of the session's (older, another session's, another branch's).
	NotOwn
)

// Finding is a cite of body that git does not bear out.
type Finding struct {
	Cite
	Why  Why
	Full string // the commit the id names (NotOwn)
}

// Judge reads body's cites against repo: an id after a commit word must
// name a commit, and one claimed as committed must name one of own's (full
// ids). earlier is the file's text before the session: an id it cited is
// an earlier session's words, not this one's claim. A run of digits that
// abbreviates no object is a number ("committed 20261201"), not judged; one
// that does is an id like any other. An error reading the repository for a
// run of digits drops that cite (a finding must be sure).
func Judge(ctx context.Context, repo Repo, body, earlier string, own func(full string) bool) []Finding {
	var out []Finding
	seen := map[string]bool{}
	for _, c := range Find(earlier) {
		seen[c.ID] = true
	}
	for _, c := range Find(body) {
		if seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		if c.Digits {
			objs, err := repo.ObjectsWithPrefix(ctx, c.ID)
			if err != nil || len(objs) == 0 {
				continue
			}
		}
		full, err := repo.ResolveRev(ctx, c.ID)
		if err != nil || full == "" {
			out = append(out, Finding{Cite: c, Why: NoCommit})
			continue
		}
		if c.Claim && !own(full) {
			out = append(out, Finding{Cite: c, Why: NotOwn, Full: full})
		}
	}
	return out
}
