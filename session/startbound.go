package session

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// A back-dated `session start --starting-commit X` widened everything
// counted from the start (changed_since_start, {changed}, write
// requirements): a HANDOFF.md a person or an earlier session updated
// before X..HEAD counted as updated by this one (issue 25.7 route 5). The
// starting commit is HEAD at the start, or an ancestor whose commits up to
// HEAD are all this session's own work by ownCommits' rule: committed
// locally, unpublished, and carrying no other session's Session-Id (the
// honest late start: the work committed, then the session started at its
// parent). The record says when the caller's starting commit was not HEAD.

// boundStart refuses a starting commit that reaches back past work that is
// not the new session's. s is the session about to start (ID, CreatedAt).
func boundStart(ctx context.Context, repo Repo, s *Session, start, head string) error {
	if start == head {
		return nil
	}
	cs, err := repo.CommitFacts(ctx, start)
	if err != nil {
		return fmt.Errorf("list the commits after the starting commit: %w", err)
	}
	_, others := ownCommits(s, cs)
	if len(others) == 0 {
		return nil
	}
	newest := others[0]
	why := "already published (on the default branch or a remote-tracking branch) before the session started"
	if newest.SessionID != "" && newest.SessionID != s.ID {
		why = "another session's (Session-Id " + truncate(newest.SessionID, 40) + ")"
	}
	return invalidf("starting commit %s reaches back past %d commit(s) that are not this session's work (newest %s: %s): a session counts what changed from where it started; start at %s or later, or without --starting-commit",
		shortSHA(start), len(others), shortSHA(newest.SHA), why, shortSHA(newest.SHA))
}

// HeadAtStart returns HEAD when the session started, as the start event
// recorded it, when the caller's starting commit differed ("" otherwise,
// and for sessions from before it was recorded).
func (e *Engine) HeadAtStart(ctx context.Context, id string) (string, error) {
	evs, err := startEvent(ctx, e.Store, id, "tool:session_start")
	if err != nil {
		return "", fmt.Errorf("read the session's start: %w", err)
	}
	if len(evs) == 0 {
		return "", nil
	}
	var d struct {
		Start string `json:"starting_commit"`
		Head  string `json:"head_at_start"`
	}
	if json.Unmarshal([]byte(evs[0].Detail), &d) != nil || d.Head == d.Start {
		return "", nil
	}
	return d.Head, nil
}

// A start at an older HEAD without --starting-commit (`git switch -d
// HEAD~1; session start; git switch main`, or `git reset --hard HEAD~1`
// then back to ORIG_HEAD) put a person's commit between the starting
// commit and HEAD, and every check counted from the start took it for the
// session's work (issue 25 route 1). A commit the session made has a
// committer time after the session started; one on HEAD's line of descent
// from the start that was committed before the session began was not made
// by it (nor can the agent make a later commit its ancestor without
// forging a date). So the session's work counts from the newest such
// commit: the checks see only what came after it. The commits a
// --starting-commit start vetted (start..HEAD at the start) keep counting.
// A person's commit merged in (a second parent) does not descend from the
// start and is left to ownCommits; a fast-forward `git pull` moves the
// work's start past the pulled commits, which were not the session's work
// either.

// preSessionLimit bounds the ancestry probes of one gate.
const preSessionLimit = 16

// workStart returns s with StartCommit moved to the newest commit that
// descends from the start and was committed before the session began (s
// itself when there is none), and that commit ("" when unchanged).
func (e *Engine) workStart(ctx context.Context, repo Repo, s *Session) (*Session, string, error) {
	if s == nil || s.StartCommit == "" || repo == nil {
		return s, "", nil
	}
	key := workStartKey{id: s.ID, root: repo.Root(), start: s.StartCommit, created: s.CreatedAt.UnixNano()}
	base, ok := e.workStarts.base(key)
	if !ok {
		h, err := e.HeadAtStart(ctx, s.ID)
		if err != nil {
			return nil, "", err
		}
		base = s.StartCommit
		if h != "" {
			base = h
		}
		e.workStarts.putBase(key, base)
	}
	head, _, err := repo.Head(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("read HEAD: %w", err)
	}
	if head == base || head == "" {
		return s, "", nil // no commit after the start: nothing to move past
	}
	if moved, ok := e.workStarts.moved(key, head); ok {
		return movedTo(s, moved), moved, nil
	}
	moved, err := e.findWorkStart(ctx, repo, s, base)
	if err != nil {
		return nil, "", err
	}
	e.workStarts.putMoved(key, head, moved)
	return movedTo(s, moved), moved, nil
}

func movedTo(s *Session, sha string) *Session {
	if sha == "" {
		return s
	}
	cp := *s
	cp.StartCommit = sha
	return &cp
}

// findWorkStart lists the commits from base to HEAD and returns the newest
// that descends from base and was committed before the session began.
func (e *Engine) findWorkStart(ctx context.Context, repo Repo, s *Session, base string) (string, error) {
	cs, err := repo.CommitFacts(ctx, base)
	if err != nil {
		return "", fmt.Errorf("list the commits after the starting commit: %w", err)
	}
	since := s.CreatedAt.Truncate(time.Second).Add(-time.Second)
	probes := 0
	var recorded map[string]bool
	// Commit times have second resolution: a commit of the start's seconds
	// is older when a branch held it at the start (starttips.go).
	window := s.CreatedAt.Truncate(time.Second).Add(time.Second)
	var tips []string
	tipsRead := false
	for _, c := range cs {
		if !c.CommitTime.Before(since) {
			if c.CommitTime.After(window) {
				continue
			}
			if !tipsRead {
				if tips, err = e.TipsAtStart(ctx, s.ID); err != nil {
					return "", err
				}
				tipsRead = true
			}
			held, err := heldAtStart(ctx, repo, c.SHA, tips, &probes)
			if err != nil {
				return "", err
			}
			if !held {
				continue
			}
		}
		if recorded == nil {
			if recorded, err = e.recordedCommits(ctx, s.ID); err != nil {
				return "", err
			}
		}
		if recorded[c.SHA] {
			// The session's hooks saw it made: back-dated, not older
			// (GIT_COMMITTER_DATE hid a weakened test script from the
			// gates, which count from the start).
			continue
		}
		if probes++; probes > preSessionLimit {
			break
		}
		ok, err := repo.IsAncestor(ctx, base, c.SHA)
		if err != nil {
			return "", fmt.Errorf("check commit %s against the starting commit: %w", shortSHA(c.SHA), err)
		}
		if ok {
			return c.SHA, nil
		}
	}
	return "", nil
}

// workStartCache keeps, per session, the start event's HEAD and
// workStart's answer for the last HEAD it was computed at. Both depend only
// on immutable things: the start event, and commits (a commit's parents and
// committer time cannot change without changing its id), so a HEAD seen
// before gets the same answer without the three or four git processes of
// CommitFacts (issue 29: they were 60% of a validate_gate call). A new HEAD
// is always computed afresh.
type workStartCache struct {
	mu sync.Mutex
	m  map[workStartKey]workStartEntry
}

type workStartKey struct {
	id, root, start string
	created         int64
}

type workStartEntry struct {
	base, head, moved string
	headKnown         bool
}

// workStartCacheMax bounds the sessions kept; past it the cache starts over.
const workStartCacheMax = 4096

func (c *workStartCache) base(k workStartKey) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	en, ok := c.m[k]
	return en.base, ok
}

func (c *workStartCache) putBase(k workStartKey, base string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= workStartCacheMax {
		c.m = map[workStartKey]workStartEntry{}
	}
	en := c.m[k]
	en.base = base
	c.m[k] = en
}

func (c *workStartCache) moved(k workStartKey, head string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	en, ok := c.m[k]
	if !ok || !en.headKnown || en.head != head {
		return "", false
	}
	return en.moved, true
}

func (c *workStartCache) putMoved(k workStartKey, head, moved string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	en, ok := c.m[k]
	if !ok {
		return // dropped by a reset since putBase: compute again next time
	}
	en.head, en.moved, en.headKnown = head, moved, true
	c.m[k] = en
}

// recordedCommits returns the commits the session's hooks recorded
// (post-commit, reconciliation): its own, whatever date they carry.
func (e *Engine) recordedCommits(ctx context.Context, sessionID string) (map[string]bool, error) {
	evs, err := e.Store.ListEvidence(ctx, sessionID)
	if err != nil {
		return nil, fmt.Errorf("load the session's commits: %w", err)
	}
	out := map[string]bool{}
	for _, ev := range evs {
		if isCommit(ev) && ev.Origin == OriginObserved {
			out[ev.Ref] = true
		}
	}
	return out, nil
}

// heldAtStart reports whether commit c is one of tips or an ancestor of
// one; each ancestry probe counts against the gate's bound.
func heldAtStart(ctx context.Context, repo Repo, c string, tips []string, probes *int) (bool, error) {
	for _, t := range tips {
		if t == c {
			return true, nil
		}
		if *probes++; *probes > preSessionLimit {
			return false, nil
		}
		ok, err := repo.IsAncestor(ctx, c, t)
		if err != nil {
			return false, fmt.Errorf("check commit %s against the branch tips at the start: %w", shortSHA(c), err)
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}
