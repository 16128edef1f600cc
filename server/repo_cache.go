package server

import (
	"context"
	"fmt"
	"sync"

	"github.com/sessiongate/sessiongate/session"
)

// A long-running server checks gates for many calls. The engine opens the
// session's worktree for every check (gitrepo.Open runs `git rev-parse`, a
// process per call, most of a cheap gate's cost), and one repository value
// is shared by concurrent HTTP requests. These wrappers open each worktree
// once and make the shared value safe for concurrent use.

// CachedOpenRepo memoises open per worktree. Each repository it returns is
// wrapped by ConcurrentRepo, which reopens it once when a git read fails
// (after a repack, say), so a cached value never stays broken.
func CachedOpenRepo(open func(ctx context.Context, worktree string) (session.Repo, error)) func(ctx context.Context, worktree string) (session.Repo, error) {
	var mu sync.Mutex
	cache := map[string]session.Repo{}
	return func(ctx context.Context, worktree string) (session.Repo, error) {
		mu.Lock()
		r, ok := cache[worktree]
		mu.Unlock()
		if ok {
			return r, nil
		}
		opened, err := open(ctx, worktree)
		if err != nil {
			return nil, err // not cached: a worktree that appears later is found then
		}
		r = ConcurrentRepo(opened, func(ctx context.Context) (session.Repo, error) { return open(ctx, worktree) })
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := cache[worktree]; ok {
			return prev, nil // another request opened it first
		}
		cache[worktree] = r
		return r, nil
	}
}

// ConcurrentRepo makes r safe to share between goroutines: gitrepo opens
// its go-git repository lazily and go-git's storage is not documented as
// safe for concurrent use, so the go-git reads (Head, CommitsSince) are
// serialised; the others run git processes and need no lock. A failing
// go-git read is retried once on a freshly opened repository when reopen
// is not nil.
func ConcurrentRepo(r session.Repo, reopen func(ctx context.Context) (session.Repo, error)) session.Repo {
	return &concurrentRepo{r: r, reopen: reopen}
}

type concurrentRepo struct {
	mu     sync.Mutex
	r      session.Repo
	reopen func(ctx context.Context) (session.Repo, error)
}

func (c *concurrentRepo) get() session.Repo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.r
}

// locked runs a go-git read under the lock, retrying once on a fresh repository.
func (c *concurrentRepo) locked(ctx context.Context, fn func(session.Repo) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	err := fn(c.r)
	if err == nil || c.reopen == nil || ctx.Err() != nil {
		return err
	}
	fresh, rerr := c.reopen(ctx)
	if rerr != nil {
		return err
	}
	c.r = fresh
	return fn(fresh)
}

func (c *concurrentRepo) Root() string     { return c.get().Root() }
func (c *concurrentRepo) MainRoot() string { return c.get().MainRoot() }
func (c *concurrentRepo) Name() string     { return c.get().Name() }

// OriginURL and GitUser serve the session's identity (session.IdentityRepo).
func (c *concurrentRepo) OriginURL() (u string) {
	_ = c.locked(context.Background(), func(r session.Repo) error {
		if ir, ok := r.(session.IdentityRepo); ok {
			u = ir.OriginURL()
		}
		return nil
	})
	return u
}

func (c *concurrentRepo) GitUser(ctx context.Context) (name, email string) {
	if ir, ok := c.get().(session.IdentityRepo); ok {
		return ir.GitUser(ctx) // the git CLI: no lock
	}
	return "", ""
}

func (c *concurrentRepo) Head(ctx context.Context) (commit, branch string, err error) {
	err = c.locked(ctx, func(r session.Repo) error {
		var e error
		commit, branch, e = r.Head(ctx)
		return e
	})
	return commit, branch, err
}

func (c *concurrentRepo) CommitsSince(ctx context.Context, since string) (out []string, err error) {
	err = c.locked(ctx, func(r session.Repo) error {
		var e error
		out, e = r.CommitsSince(ctx, since)
		return e
	})
	return out, err
}

func (c *concurrentRepo) ChangedFiles(ctx context.Context, since string) ([]string, error) {
	return c.get().ChangedFiles(ctx, since)
}

func (c *concurrentRepo) StagedFiles(ctx context.Context) ([]string, error) {
	return c.get().StagedFiles(ctx)
}

func (c *concurrentRepo) Status(ctx context.Context) ([]string, error) {
	return c.get().Status(ctx)
}

// VerifyStart checks a caller-supplied starting commit (see gitrepo).
func (c *concurrentRepo) VerifyStart(ctx context.Context, commit, head string) (string, error) {
	v, ok := c.get().(interface {
		VerifyStart(ctx context.Context, commit, head string) (string, error)
	})
	if !ok {
		return "", fmt.Errorf("cannot check starting_commit %s in this repository", commit)
	}
	return v.VerifyStart(ctx, commit, head)
}

// LandedCommits lists commits for reconciliation (see gitrepo); git CLI, no lock.
func (c *concurrentRepo) LandedCommits(ctx context.Context, since string) ([]session.LandedCommit, error) {
	l, ok := c.get().(interface {
		LandedCommits(ctx context.Context, since string) ([]session.LandedCommit, error)
	})
	if !ok {
		return nil, nil
	}
	return l.LandedCommits(ctx, since)
}

// StagedProtected reads staged protected files (see gitrepo); git CLI, no lock.
func (c *concurrentRepo) StagedProtected(ctx context.Context, patterns []string) (map[string]string, error) {
	s, ok := c.get().(interface {
		StagedProtected(ctx context.Context, patterns []string) (map[string]string, error)
	})
	if !ok {
		return map[string]string{}, nil
	}
	return s.StagedProtected(ctx, patterns)
}

// PutRecord writes a session record onto a records ref
// (session.RecordRefWriter); git plumbing, no lock.
func (c *concurrentRepo) PutRecord(ctx context.Context, ref, id string, body []byte) (string, error) {
	w, ok := c.get().(session.RecordRefWriter)
	if !ok {
		return "", fmt.Errorf("this repository cannot write the records ref %s", ref)
	}
	return w.PutRecord(ctx, ref, id, body)
}

// DefaultBranch, CommitSubjects and DiffLines run git processes: no lock.
func (c *concurrentRepo) DefaultBranch(ctx context.Context) (string, error) {
	return c.get().DefaultBranch(ctx)
}

func (c *concurrentRepo) CommitSubjects(ctx context.Context, since string) ([]session.CommitSubject, error) {
	return c.get().CommitSubjects(ctx, since)
}

func (c *concurrentRepo) DiffLines(ctx context.Context, since, path string) (added, removed []string, addedAt []int, err error) {
	return c.get().DiffLines(ctx, since, path)
}

// LooseCommit reads a file of the object store: no lock.
func (c *concurrentRepo) LooseCommit(sha string) (session.LandedCommit, []string, bool) {
	return c.get().LooseCommit(sha)
}
