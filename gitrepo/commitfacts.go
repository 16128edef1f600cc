package gitrepo

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/eventpin"
	"slices"
	"strconv"
	"strings"
	"sync"
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
	if facts, ok := r.facts.get(head, since); ok {
		return facts, nil
	}
	out, err := r.commitFacts(ctx, head, since)
	if err == nil {
		r.facts.put(head, since, out)
	}
	return out, err
}

// factsMemo keeps CommitFacts' answers for a Repo that serves one hook run
// (SetHookRun): a pre-commit asked the same question twice (the event
// chain and the own-work check), four git processes each (issue 29). The
// answer depends on HEAD, since and the refs; HEAD is in the key, and
// within one hook run only a gate's command could move a remote or the
// default branch between the two asks, where the kept answer is the one
// from before it ran. A long-lived Repo (the servers) keeps nothing.
type factsMemo struct {
	mu      sync.Mutex
	enabled bool
	m       map[[2]string][]session.CommitFact
}

func (f *factsMemo) get(head, since string) ([]session.CommitFact, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.m[[2]string{head, since}]
	return slices.Clone(v), ok
}

func (f *factsMemo) put(head, since string, v []session.CommitFact) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.enabled {
		return
	}
	if f.m == nil {
		f.m = map[[2]string][]session.CommitFact{}
	}
	f.m[[2]string{head, since}] = slices.Clone(v)
}

// SetHookRun marks r as serving one git hook run in its own process:
// answers that depend only on HEAD and the refs (CommitFacts) are kept for
// the run instead of asked of git again.
func (r *Repo) SetHookRun() {
	r.facts.mu.Lock()
	r.facts.enabled = true
	r.facts.mu.Unlock()
}

func (r *Repo) commitFacts(ctx context.Context, head, since string) ([]session.CommitFact, error) {
	rng := []string{"HEAD"}
	if since != "" {
		rng = append(rng, "^"+since)
	}
	// The listing stays git's: the trailers are parsed by git's rules (the
	// last paragraph, continuation lines, the divider), as verify reads
	// them; a reader here would disagree on the edge messages an agent can
	// write.
	args := append([]string{"log", "-n", "1000", "--format=%H%x1f%ct%x1f%(trailers:key=" + session.TrailerKey + ",valueonly,separator=%x2C)%x1f%(trailers:key=" + eventpin.TrailerEventsKey + ",valueonly,separator=%x2C)%x00"}, rng...)
	b, err := run(ctx, r.root, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("list commits since %s: %w", since, err)
	}
	recs := strings.Split(string(b), "\x00")
	// The commits no shared ref reaches. defaultBranch says whether the
	// local branch exists (the second `git rev-parse --verify` of it that
	// ran here is gone).
	def, local, _ := r.defaultBranch(ctx)
	unshared := map[string]bool{}
	all, settled := false, false
	if len(recs) <= 1000 { // fewer than -n: the list is whole
		all, settled = r.sharedSinceFromFiles(ctx, since, head, def, local)
	}
	if settled && !all {
		for _, rec := range recs {
			sha, _, _ := strings.Cut(strings.TrimLeft(rec, "\n"), "\x1f")
			unshared[sha] = true
		}
	}
	if !settled {
		own := append([]string{"rev-list", "-n", "1000"}, rng...)
		own = append(own, "--not", "--remotes")
		if def != "" && local {
			own = append(own, "refs/heads/"+def)
		}
		ob, err := run(ctx, r.root, append(own, "--")...)
		if err != nil {
			return nil, fmt.Errorf("list unpublished commits: %w", err)
		}
		for _, l := range strings.Fields(string(ob)) {
			unshared[l] = true
		}
	}
	var out []session.CommitFact
	for _, rec := range recs {
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
