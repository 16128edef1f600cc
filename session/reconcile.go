package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// EvidenceBypassCommit is a commit that landed in a session without a
// passing pre-commit hook: recorded so nothing is lost, but never counted as
// a commit the session made (`sessiongate verify` fails it).
const EvidenceBypassCommit = "bypass_commit"

// StepReconcile marks commit evidence recorded by reconciliation rather
// than by the post-commit hook.
const StepReconcile = "reconcile"

// Event tokens of reconciliation.
const (
	TokReconcileCommit = "reconcile:commit" // landed unseen, a pre-commit pass covered its tree
	TokReconcileMerge  = "reconcile:merge"  // a merge commit landed unseen
	TokReconcileBypass = "reconcile:bypass" // landed unseen, no pre-commit pass: BYPASS
)

// CodeForeignAmend is a commit of a session that does not descend from the
// session's starting commit: a commit made before the session (outside any
// session, with the hooks skipped, or in another session) was amended or
// rewritten inside it, and would pass verify as this clean session's work.
const CodeForeignAmend = "FOREIGN_AMEND"

// foreignAmend returns the violation for commit c of session s when c does
// not descend from the session's starting commit. parent is c's first
// parent when known: the starting commit itself, or a commit the session
// recorded (which descends from it), settles it without starting git.
func (e *Engine) foreignAmend(ctx context.Context, s *Session, repo Repo, c, parent string, known map[string]bool) (*Violation, error) {
	if s.StartCommit == "" || c == s.StartCommit || parent != "" && (parent == s.StartCommit || known[parent]) {
		return nil, nil
	}
	ok, err := repo.IsAncestor(ctx, s.StartCommit, c)
	if err != nil || ok {
		return nil, err
	}
	// The work of the ABANDONED sessions this one continues is its own
	// (continuedFrom: its end gates judge it, verify passes it on them):
	// an expired session cannot be resumed, so the next day's session is
	// where its commits get rebased onto main (round 56 F5). A commit
	// that descends from the earliest continued start is no foreign one.
	if cont, _, err := e.continuedFrom(ctx, repo, s); err != nil {
		return nil, err
	} else if cont != nil && cont.StartCommit != s.StartCommit {
		if ok, err := repo.IsAncestor(ctx, cont.StartCommit, c); err != nil || ok {
			return nil, err
		}
	}
	// A rebase that copies the branch's commits from before the session
	// whole (an ended session's commits rebased onto main, round 61 F1)
	// amends nothing: each copy keeps its original's patch and trailer,
	// and verify judges it on that record.
	if from, err := e.carriedEarlier(ctx, s, repo, c); err != nil || from != "" {
		return nil, err
	}
	return &Violation{SessionID: s.ID, RepoID: s.RepoID, Phase: s.Phase, Requirement: "commits of the session", Severity: SeverityHigh,
		Code: CodeForeignAmend, Window: WindowSession, CreatedAt: e.now(),
		Message: fmt.Sprintf("commit %s does not descend from the session's starting commit %s: a commit made before this session "+
			"(outside a session, with hooks skipped, or in another session) was amended or rewritten in it (git commit --amend, rebase, reset); "+
			"its work is not this session's; undoing the amend does not clear this, and verify fails the session's commits: "+
			"change an earlier commit with a new commit on top of it (a review fix, git commit --fixup), never --amend, rebase or reset under the start", shortSHA(c), shortSHA(s.StartCommit))}, nil
}

// foreignAmendAhead says why the commit pre-commit is asked about would
// be a FOREIGN_AMEND ("" when it would not): an amend (req.Amend) of HEAD
// when HEAD is the session's starting commit, which the session did not
// make. Refused before it is made, an honest agent addressing review
// learns what to do instead; made, it is a violation that undoing does not
// clear (helper 347, round 60). Only HEAD at the start is read here (no
// git run, no /proc read on any other commit); post-commit's ancestry
// check still judges every commit.
func (e *Engine) foreignAmendAhead(ctx context.Context, s *Session, req HookRequest) (string, error) {
	if req.Amend == nil || s.StartCommit == "" || req.Repo == nil {
		return "", nil
	}
	head, _, err := req.Repo.Head(ctx)
	if err != nil || head != s.StartCommit || !req.Amend() {
		return "", nil
	}
	// What the amend would make: a commit on HEAD's first parent.
	var parent string
	if _, parents, ok := req.Repo.LooseCommit(head); ok {
		if len(parents) > 0 {
			parent = parents[0]
		}
	} else if rr, ok := req.Repo.(revResolver); ok {
		parent, _ = rr.ResolveRev(ctx, head+"^")
	}
	if parent == "" {
		return fmt.Sprintf("git commit --amend would rewrite commit %s, the commit this session started from, which it did not make: the amended commit would not descend from the session's start (a FOREIGN_AMEND, which verify fails)", shortSHA(head)), nil
	}
	vio, err := e.foreignAmend(ctx, s, req.Repo, parent, "", nil)
	if err != nil || vio == nil {
		return "", err
	}
	return fmt.Sprintf("git commit --amend would rewrite commit %s, the commit this session started from, which it did not make (made before the session, or in another one): the amended commit would not descend from the session's start (a FOREIGN_AMEND, which verify fails and undoing does not clear)", shortSHA(head)), nil
}

// LandedCommit is a commit found in a session's worktree by reconciliation.
type LandedCommit struct {
	SHA, Tree  string
	Parents    int
	CommitTime time.Time
}

// Reconcile records every commit that landed in the session's worktree
// since the session started and that it has not recorded: a post-commit
// hook killed (kill -9, a closed terminal), `--no-verify`, hooks switched off
// with core.hooksPath, tools that commit without hooks. A commit whose tree
// a pre-commit pass of the session covered is recorded as commit_sha
// evidence; any other gets bypass_commit evidence and a CRITICAL BYPASS
// violation. It returns how many commits it recorded that no pre-commit
// pass covered (a commit git committed after a pre-commit pass is recorded
// here on purpose: the post-commit script leaves it to this, see
// hooks/handoff.go). except is a commit the caller records itself (post-commit's
// HEAD; exceptParent its first parent, which saves listing commits when
// that one is recorded). Commits older than the session (by committer time) and commits
// reachable from remote-tracking branches are not the session's.
//
// The common case costs one HEAD read, one loose-object read and one
// lookup of at most three commits among the session's commit evidence,
// however long the session has run.
func (e *Engine) Reconcile(ctx context.Context, s *Session, repo Repo, except, exceptParent string) (int, error) {
	return e.reconcile(ctx, s, repo, except, exceptParent, nil)
}

// reconcile is Reconcile that also leaves alone the commits of pending:
// commits git ran no hook for, which the caller judges next, one by one
// (HookRequest.Landed).
func (e *Engine) reconcile(ctx context.Context, s *Session, repo Repo, except, exceptParent string, pending []string) (int, error) {
	if s == nil || !s.Active() || repo == nil {
		return 0, nil
	}
	head, _, err := repo.Head(ctx)
	if err != nil || head == "" || head == s.StartCommit {
		return 0, nil // an unreadable HEAD is the caller's problem, not a lost commit
	}
	// HEAD's parent is read before asking the store, so one lookup of a
	// few commits answers the common case whatever the session's length.
	c, parents, loose := repo.LooseCommit(head)
	ask := []string{head}
	if loose && len(parents) == 1 && parents[0] != s.StartCommit {
		ask = append(ask, parents[0])
	}
	if head == except && exceptParent != "" && exceptParent != s.StartCommit && !slices.Contains(ask, exceptParent) {
		ask = append(ask, exceptParent)
	}
	known, err := e.Store.RecordedCommits(ctx, s.ID, ask...)
	if err != nil {
		return 0, fmt.Errorf("reconcile: load recorded commits: %w", err)
	}
	if known[head] || head == except && exceptParent != "" && (known[exceptParent] || exceptParent == s.StartCommit) {
		return 0, nil
	}
	// Commit times have second resolution.
	since := s.CreatedAt.Truncate(time.Second).Add(-time.Second)
	// The common case without listing commits: HEAD is a commit of this
	// session's pre-commit pass (its tree matches one) whose one parent is
	// recorded or the starting commit, so HEAD is the only commit to record.
	var landed []LandedCommit
	var starts startTipsRecord // read when the commits are listed
	headMatched := false
	if loose && len(parents) == 1 && (known[parents[0]] || parents[0] == s.StartCommit) && !c.CommitTime.Before(since) {
		if headMatched, err = e.matchPreCommit(ctx, s.ID, c.Tree); err != nil {
			return 0, err
		}
		if headMatched {
			landed = []LandedCommit{c}
		}
	}
	if landed == nil {
		if known, err = e.Store.RecordedCommits(ctx, s.ID); err != nil {
			return 0, fmt.Errorf("reconcile: load recorded commits: %w", err)
		}
		// What the refs held at the start is not the session's.
		if starts, err = e.readStartTips(ctx, s.ID); err != nil {
			return 0, fmt.Errorf("reconcile: %w", err)
		}
		if landed, err = repo.LandedCommits(ctx, s.StartCommit, starts.before()); err != nil {
			return 0, fmt.Errorf("reconcile: list commits: %w", err)
		}
	}
	var todo []LandedCommit
	for _, c := range landed {
		if known[c.SHA] || c.SHA == except || slices.Contains(pending, c.SHA) {
			continue
		}
		if c.CommitTime.Before(since) {
			// Older by its date, which the agent sets: a tree this
			// session's pre-commit passed says it was made now (a
			// GIT_COMMITTER_DATE an hour back hid a weakened test script).
			ours, err := e.matchPreCommit(ctx, s.ID, c.Tree)
			if err != nil {
				return 0, err
			}
			if !ours {
				// Nor does a commit no ref tip of the start reaches:
				// hooks off as well, it was made now (starttips.go).
				if ours, err = e.madeAfterStart(ctx, s, repo, starts, c.SHA); err != nil {
					return 0, err
				}
			}
			if !ours {
				continue
			}
		}
		todo = append(todo, c)
	}
	if len(todo) == 0 {
		return 0, nil
	}
	// Another session of this database recorded it: a worktree sharing the
	// branch (`git worktree add -f`) made it through its own hooks, or its
	// reconciliation charged it first. It is that session's, passed or
	// BYPASS: charging it here too made an honest session's CRITICAL BYPASS
	// (TestSharedBranchWorktreeCommit).
	shas := make([]string, len(todo))
	for i, c := range todo {
		shas[i] = c.SHA
	}
	elsewhere, err := e.Store.CommitsRecordedElsewhere(ctx, s.ID, shas...)
	if err != nil {
		return 0, fmt.Errorf("reconcile: load commits other sessions recorded: %w", err)
	}
	todo = slices.DeleteFunc(todo, func(c LandedCommit) bool { return elsewhere[c.SHA] != "" })
	if len(todo) == 0 {
		return 0, nil
	}
	if todo, err = e.leaveToSharers(ctx, s, repo, todo); err != nil || len(todo) == 0 {
		return 0, err
	}
	todo = e.leaveToRemotes(ctx, s, repo, starts, todo, headMatched)
	n := 0
	for _, c := range todo {
		matched := headMatched
		if !matched {
			if matched, err = e.matchPreCommit(ctx, s.ID, c.Tree); err != nil {
				return n, err
			}
		}
		gated := matched // a tree the session's pre-commit passed, not a replay
		ev := &Evidence{SessionID: s.ID, Phase: s.Phase, Step: StepReconcile, Kind: EvidenceCommitSHA, Origin: OriginObserved,
			SHA256: sha256Hex([]byte(c.SHA)), Ref: c.SHA, Size: len(c.SHA), CreatedAt: e.now()}
		tok := TokReconcileCommit
		var vio *Violation
		if !matched && c.Parents <= 1 {
			// Found here, not by post-commit: a hooks-off commit, or a
			// replay (rebase) whose post-commit did not run, whose change
			// may still be one the session checked, or, in INIT, a commit
			// from before the session (replay.go).
			why, carried, err := e.replayVerdict(ctx, s, repo, c.SHA, false)
			if err != nil {
				return n, fmt.Errorf("reconcile commit %s: %w", shortSHA(c.SHA), err)
			}
			matched = why == ""
			if carried {
				ev.Step = StepCarried
			}
		}
		switch {
		case matched:
		case c.Parents > 1:
			tok = TokReconcileMerge
		default:
			tok = TokReconcileBypass
			ev.Kind = EvidenceBypassCommit
			vio = e.bypassViolation(s.ID, s.RepoID, s.Phase, c.SHA)
			vio.Message = fmt.Sprintf("commit %s landed without a passing pre-commit hook and without post-commit (hooks skipped or switched off; found by reconciliation)", shortSHA(c.SHA))
		}
		if vio == nil {
			// Its parent recorded by the session settles it, as in
			// post-commit: a commit on a carried copy of the branch's
			// earlier work (carriedEarlier) descends from no start.
			parent := ""
			if _, ps, ok := repo.LooseCommit(c.SHA); ok && len(ps) == 1 {
				parent = ps[0]
			}
			if vio, err = e.foreignAmend(ctx, s, repo, c.SHA, parent, known); err != nil {
				return n, fmt.Errorf("reconcile commit %s: %w", shortSHA(c.SHA), err)
			}
		}
		if gated && vio == nil && c.Parents <= 1 {
			e.setChange(ctx, s, repo, ev, c.SHA) // PostCommit says why
		}
		detail, _ := json.Marshal(map[string]string{"commit": c.SHA, "tree": c.Tree})
		added := false
		err = e.Store.Update(ctx, func(w Writer) error {
			// Another process may have recorded it meanwhile.
			check := []string{c.SHA}
			if c.SHA == head {
				check = ask // the text the first lookup prepared
			}
			cur, err := w.RecordedCommits(ctx, s.ID, check...)
			if err != nil {
				return err
			}
			if cur[c.SHA] {
				return nil
			}
			if late, err := endedSince(ctx, w, s.ID); err != nil || late {
				return err // ended since it was read: nothing more on it
			}
			ev.CreatedAt = e.now() // dated in the write lock, as post-commit's
			if err := w.AddEvidence(ctx, ev); err != nil {
				return err
			}
			if vio != nil {
				if err := w.AddViolation(ctx, vio); err != nil {
					return err
				}
			}
			added = true
			return w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: tok, Detail: string(detail), CreatedAt: e.now()})
		})
		if err != nil {
			return n, fmt.Errorf("reconcile commit %s: %w", shortSHA(c.SHA), err)
		}
		if added && !matched {
			n++
		}
		if added && ev.Kind == EvidenceCommitSHA && vio == nil {
			if known == nil {
				known = map[string]bool{}
			}
			known[c.SHA] = true
		}
		if added {
			e.publishViolations(ctx, s.ID, vio)
		}
	}
	return n, nil
}

// reconcileSession reconciles a session loaded by an engine call, opening its
// worktree. A missing worktree is not an error (the session's data stays).
func (e *Engine) reconcileSession(ctx context.Context, s *Session) error {
	if e.OpenRepo == nil || s == nil || !s.Active() {
		return nil
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return nil
	}
	judged := false
	if e.BeforeReconcile != nil {
		if judged, err = e.BeforeReconcile(ctx, s); err != nil && !errors.Is(err, context.Canceled) {
			e.Logger.Warn("judge the commits before reconciling", "session", s.ID, "err", err)
		}
	}
	n, err := e.Reconcile(ctx, s, repo, "", "")
	if err != nil && !errors.Is(err, context.Canceled) {
		e.Logger.Warn("reconcile commits", "session", s.ID, "err", err)
	}
	if n != 0 || err != nil || judged {
		// It may have recorded commits as evidence since s was read: the
		// gate reads the evidence afresh (Session.EvidenceStamp).
		s.EvidenceStamp = ""
	}
	return nil
}

// reconcileHook reconciles for a git hook; a failure is a warning, never a
// block (the hook's own decision does not depend on it).
func (e *Engine) reconcileHook(ctx context.Context, d *HookDecision, s *Session, req HookRequest, except, parent string) {
	if !s.Active() {
		return
	}
	n, err := e.reconcile(ctx, s, req.Repo, except, parent, req.Landed)
	if err != nil {
		d.Warnings = append(d.Warnings, "could not reconcile earlier commits: "+err.Error())
	} else if n > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%d earlier commit(s) landed without passing this session's pre-commit hook (hooks skipped or switched off, or a merge): recorded now", n))
	}
}

// leaveToSharers drops the commits another active session of the
// repository will record itself: its pre-commit passed the commit's tree
// and its worktree's HEAD holds the commit (two worktrees on one branch,
// `git worktree add -f`). Its post-commit leaves the commit to its own
// reconciliation (hooks/handoff.go), so this session, reconciling first,
// charged it as its own CRITICAL BYPASS (TestSharedBranchWorktreeCommit).
// A commit only this worktree holds stays here, whoever's tree it has.
func (e *Engine) leaveToSharers(ctx context.Context, s *Session, repo Repo, todo []LandedCommit) ([]LandedCommit, error) {
	if e.OpenRepo == nil || s.RepoID == 0 {
		return todo, nil
	}
	others, err := e.Store.ListSessions(ctx, SessionFilter{RepoID: s.RepoID, States: []State{StateInit, StateWorking, StateEnding}})
	if err != nil {
		return nil, fmt.Errorf("reconcile: list the repository's active sessions: %w", err)
	}
	var sharers []*Session
	var heads []string
	for _, o := range others {
		if o.ID == s.ID || o.Worktree == "" || o.Worktree == s.Worktree {
			continue
		}
		r, err := e.OpenRepo(ctx, o.Worktree)
		if err != nil {
			continue
		}
		h, _, err := r.Head(ctx)
		if err != nil || h == "" {
			continue
		}
		sharers, heads = append(sharers, o), append(heads, h)
	}
	if len(sharers) == 0 {
		return todo, nil
	}
	var keep []LandedCommit
	for _, c := range todo {
		theirs := false
		for i, o := range sharers {
			ok, err := e.matchPreCommit(ctx, o.ID, c.Tree)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			if in, err := repo.IsAncestor(ctx, c.SHA, heads[i]); err == nil && in {
				theirs = true
				break
			}
		}
		if !theirs {
			keep = append(keep, c)
		}
	}
	return keep, nil
}
