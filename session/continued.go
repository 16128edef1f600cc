package session

import (
	"context"
	"fmt"
	"slices"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// continuedPage is how many earlier sessions one query reads;
// continuedLimit bounds them all. The chain is followed page after page: a
// limit of one page let 16 throwaway `session start`s between the work and
// the continuing session hide the work from it (lazy-agent pass 22).
const (
	continuedPage  = 32
	continuedLimit = 4096
)

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
	cur := s
	var ids []string
	// Each start abandons the session before it, so the chain is as long
	// as the throwaway starts before it: the commit lists are read once
	// per start commit, and a session that started where the next one did
	// needs no git at all (a start after 184 sessions ran 254 git
	// processes, round 23 c6).
	subjects := map[string][]CommitSubject{}
	f := SessionFilter{RepoID: s.RepoID, Branch: s.Branch, To: s.CreatedAt, Limit: continuedPage}
walk:
	for read := 0; read < continuedLimit; read += continuedPage {
		ss, err := e.Store.ListSessions(ctx, f)
		if err != nil {
			return nil, nil, fmt.Errorf("list the sessions this one may continue: %w", err)
		}
		for _, o := range ss {
			if o.ID == s.ID || o.Active() {
				continue // another worktree's running session is its own
			}
			if o.State != StateAbandoned || o.StartCommit == "" || o.EndedAt.After(cur.CreatedAt) {
				break walk
			}
			if o.StartCommit != cur.StartCommit {
				ok, err := repo.IsAncestor(ctx, o.StartCommit, cur.StartCommit)
				if err != nil {
					return nil, nil, fmt.Errorf("check session %s's start against %s: %w", o.ID, shortSHA(cur.StartCommit), err)
				}
				if !ok {
					break walk
				}
				theirs, err := onlyTheirs(ctx, repo, subjects, o.StartCommit, cur.StartCommit, append(ids, o.ID))
				if err != nil {
					return nil, nil, err
				}
				if !theirs {
					break walk
				}
			}
			cur = o
			ids = append(ids, o.ID)
		}
		if len(ss) < continuedPage {
			break
		}
		f.BeforeTime, f.BeforeID = ss[len(ss)-1].CreatedAt, ss[len(ss)-1].ID
	}
	if len(ids) == 0 || cur.StartCommit == s.StartCommit {
		return nil, nil, nil
	}
	cp := *s
	cp.StartCommit, cp.CreatedAt = cur.StartCommit, cur.CreatedAt
	return &cp, ids, nil
}

// ContinuesToken starts the event a session records, at its start, for
// each ABANDONED session whose work it continues (continuedFrom), followed
// by that session's id. verify passes an ABANDONED session's commits only
// for a later session whose record holds it: one whose gates judged the
// work. Without it, a session the chain does not reach passed them
// unjudged: one started after more throwaway sessions than the walk read,
// or after a commit of another clone's session pulled in between.
const ContinuesToken = "session:continues:"

// recordContinued records the sessions s continues, one event each.
func (e *Engine) recordContinued(ctx context.Context, repo Repo, s *Session) error {
	_, ids, err := e.continuedFrom(ctx, repo, s)
	if err != nil || len(ids) == 0 {
		return err
	}
	return e.Store.Update(ctx, func(w Writer) error {
		for _, id := range ids {
			if err := w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: ContinuesToken + id, Detail: "continues the work of ABANDONED session " + id, CreatedAt: s.CreatedAt}); err != nil {
				return err
			}
		}
		return nil
	})
}

// judgesWork reports whether a check of p judges what the work changed:
// one that binds on a condition, a file not to update, commit messages, a
// handoff whose Done is read against the work (names-the-work).
func judgesWork(p *protocolspec.Phase, commands map[string]string) bool {
	return slices.ContainsFunc(GateChecks(p, commands), judgesWorkCheck)
}

func judgesWorkCheck(c protocolspec.Check) bool {
	return c.When != "" || c.WhenChanged != "" || c.Kind == protocolspec.CheckUnchanged || c.Kind == protocolspec.CheckCommitMessage ||
		c.Kind == protocolspec.CheckNoPlaceholders || changedCommand(c)
}

// changedCommand reports whether c is a command: one run on the session's
// changed files ({changed:GLOB}) must lint the work of the sessions this
// one continues too, and any lint run is judged against the lint config
// those sessions changed (round 55: a lint-failing file, and rules turned
// off for it, committed in a superseded session passed CI on the next
// session's lint of its own files).
func changedCommand(c protocolspec.Check) bool {
	return c.Kind == protocolspec.CheckCommand
}

// onlyTheirs reports whether every commit on the first-parent line from
// start to end (start excluded) carries the Session-Id of one of ids: the
// abandoned sessions made the work between them, and nobody else. A branch
// name used again months later, with a person's commits from main between
// an old abandoned session and this one, is not continued work.
// Commit lists are kept in seen by revision for the rest of the walk.
func onlyTheirs(ctx context.Context, repo Repo, seen map[string][]CommitSubject, start, end string, ids []string) (bool, error) {
	list := func(rev string) ([]CommitSubject, error) {
		if l, ok := seen[rev]; ok {
			return l, nil
		}
		l, err := repo.CommitSubjects(ctx, rev)
		if err != nil {
			return nil, fmt.Errorf("list the commits after %s: %w", shortSHA(rev), err)
		}
		seen[rev] = l
		return l, nil
	}
	all, err := list(start)
	if err != nil {
		return false, err
	}
	later, err := list(end)
	if err != nil {
		return false, err
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
