package session

import (
	"context"
	"fmt"
	"slices"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// continuedLimit bounds the earlier sessions one gate call reads.
const continuedLimit = 16

// continuedFrom returns s with StartCommit and CreatedAt taken from the
// earliest session it continues (nil when it continues none), for the
// checks that bind on what the work changed (when=docs_affected,
// when_changed). verify passes the commits of an ABANDONED session when a
// later COMPLETE session on its branch started at a commit holding them
// ("continued it"), on the ground that the later session's end gates judged
// that work. Those conditions read only the later session's own diff, so
// lazy-agent pass 22 split the work: a documented flag changed and
// committed in a first session, `session start` again (the first
// superseded, ABANDONED), a .gitignore line in the second: the docs gate
// was not applicable, the session clean and verify OK on the undocumented
// flag, where one session doing both was not clean (verify WARN). The
// continued sessions are the ABANDONED ones on the same branch, newest
// first, each ended before the next began and with its start an ancestor of
// the next one's; a session that ended otherwise (COMPLETE, TERMINATED)
// closes the chain, since its own end gates judged its work. It returns the
// continued sessions' ids too, newest first: their commits are judged as
// this session's (commit messages).
func (e *Engine) continuedFrom(ctx context.Context, repo Repo, s *Session) (*Session, []string, error) {
	if s == nil || s.StartCommit == "" || s.Branch == "" || e.Store == nil || repo == nil {
		return nil, nil, nil
	}
	ss, err := e.Store.ListSessions(ctx, SessionFilter{RepoID: s.RepoID, Branch: s.Branch, To: s.CreatedAt, Limit: continuedLimit})
	if err != nil {
		return nil, nil, fmt.Errorf("list the sessions this one may continue: %w", err)
	}
	cur := s
	var ids []string
	for _, o := range ss {
		if o.ID == s.ID || o.Active() {
			continue // another worktree's running session is its own
		}
		if o.State != StateAbandoned || o.StartCommit == "" || o.EndedAt.After(cur.CreatedAt) {
			break
		}
		ok, err := repo.IsAncestor(ctx, o.StartCommit, cur.StartCommit)
		if err != nil {
			return nil, nil, fmt.Errorf("check session %s's start against %s: %w", o.ID, shortSHA(cur.StartCommit), err)
		}
		if !ok {
			break
		}
		if ok, err := onlyTheirs(ctx, repo, o.StartCommit, cur.StartCommit, append(ids, o.ID)); err != nil || !ok {
			return nil, nil, err
		}
		cur = o
		ids = append(ids, o.ID)
	}
	if len(ids) == 0 || cur.StartCommit == s.StartCommit {
		return nil, nil, nil
	}
	cp := *s
	cp.StartCommit, cp.CreatedAt = cur.StartCommit, cur.CreatedAt
	return &cp, ids, nil
}

// judgesWork reports whether a check of p judges what the work changed:
// one that binds on a condition, a file not to update, commit messages.
func judgesWork(p *protocolspec.Phase, commands map[string]string) bool {
	return slices.ContainsFunc(GateChecks(p, commands), judgesWorkCheck)
}

func judgesWorkCheck(c protocolspec.Check) bool {
	return c.When != "" || c.WhenChanged != "" || c.Kind == protocolspec.CheckUnchanged || c.Kind == protocolspec.CheckCommitMessage
}

// onlyTheirs reports whether every commit on the first-parent line from
// start to end (start excluded) carries the Session-Id of one of ids: the
// abandoned sessions made the work between them, and nobody else. A branch
// name used again months later, with a person's commits from main between
// an old abandoned session and this one, is not continued work.
func onlyTheirs(ctx context.Context, repo Repo, start, end string, ids []string) (bool, error) {
	all, err := repo.CommitSubjects(ctx, start)
	if err != nil {
		return false, fmt.Errorf("list the commits after %s: %w", shortSHA(start), err)
	}
	later, err := repo.CommitSubjects(ctx, end)
	if err != nil {
		return false, fmt.Errorf("list the commits after %s: %w", shortSHA(end), err)
	}
	after := make(map[string]bool, len(later))
	for _, c := range later {
		after[c.SHA] = true
	}
	for _, c := range all {
		if after[c.SHA] || !c.FirstParent {
			continue
		}
		if !slices.Contains(ids, c.SessionID) {
			return false, nil
		}
	}
	return true, nil
}
