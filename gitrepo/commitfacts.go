package gitrepo

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// CommitFacts lists the commits reachable from HEAD but not from since
// ("" for every commit), newest first, at most the newest 1000: each with
// its committer time, the Session-Id trailer it carries and whether it is
// shared, reachable from a remote-tracking branch or from the default
// branch (work already published or already on main, not this clone's
// session's).
func (r *Repo) CommitFacts(ctx context.Context, since string) ([]session.CommitFact, error) {
	if strings.HasPrefix(since, "-") {
		return nil, fmt.Errorf("bad revision %q", since)
	}
	head, _, err := r.Head(ctx)
	if err != nil || head == "" {
		return nil, err
	}
	rng := []string{"HEAD"}
	if since != "" {
		rng = append(rng, "^"+since)
	}
	args := append([]string{"log", "-n", "1000", "--format=%H%x1f%ct%x1f%(trailers:key=" + session.TrailerKey + ",valueonly,separator=%x2C)%x1f%(trailers:key=" + session.TrailerEventsKey + ",valueonly,separator=%x2C)%x00"}, rng...)
	b, err := run(ctx, r.root, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("list commits since %s: %w", since, err)
	}
	// The commits no shared ref reaches.
	own := append([]string{"rev-list", "-n", "1000"}, rng...)
	own = append(own, "--not", "--remotes")
	if def, _ := r.DefaultBranch(ctx); def != "" {
		if _, err := run(ctx, r.root, "rev-parse", "--verify", "--quiet", "refs/heads/"+def); err == nil {
			own = append(own, "refs/heads/"+def)
		}
	}
	ob, err := run(ctx, r.root, append(own, "--")...)
	if err != nil {
		return nil, fmt.Errorf("list unpublished commits: %w", err)
	}
	unshared := map[string]bool{}
	for _, l := range strings.Fields(string(ob)) {
		unshared[l] = true
	}
	var out []session.CommitFact
	for _, rec := range strings.Split(string(b), "\x00") {
		rec = strings.TrimLeft(rec, "\n")
		f := strings.SplitN(rec, "\x1f", 4)
		if len(f) != 4 {
			continue
		}
		ct, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("list commits: bad time in %q", rec)
		}
		id, _, _ := strings.Cut(strings.TrimSpace(f[2]), ",")
		evc, _, _ := strings.Cut(strings.TrimSpace(f[3]), ",")
		out = append(out, session.CommitFact{SHA: f[0], CommitTime: time.Unix(ct, 0), SessionID: strings.TrimSpace(id), Shared: !unshared[f[0]], Events: strings.TrimSpace(evc)})
	}
	return out, nil
}
