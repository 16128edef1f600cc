package session

import (
	"context"
	"fmt"
	"strings"
)

// A commit git replays (cherry-pick, revert, am, rebase) runs post-commit
// but never pre-commit, so nothing checked it unless its change is one the
// session already committed through pre-commit. Issue 25's adversarial
// pass made a commit with the hooks off on a side branch and cherry-picked
// it in INIT: recorded as the session's clean work, verify passing.

// replayUnchecked returns why replayed commit c (tree: matched by a
// pre-commit pass of the session or not) is not a checked commit of
// session s, "" when it is: its tree passed pre-commit, its patch (git
// patch-id) equals a commit the session recorded as clean (which a rebase
// onto upstream work or a cherry-pick of the session's own commit keeps),
// it is the exact reverse of such a commit (git revert), or its patch
// equals a commit on a remote-tracking branch (published work). Whatever made it, a commit that lands before the start gates
// passed is not checked: pre-commit refuses every commit then.
func (e *Engine) replayUnchecked(ctx context.Context, s *Session, repo Repo, c string, matched bool) (string, error) {
	why, _, err := e.replayVerdict(ctx, s, repo, c, matched)
	return why, err
}

// StepCarried marks the commit_sha evidence of a carried copy
// (carriedEarlier): recorded so reconciliation and the session's later
// commits know it, never taken for work this session checked (a second
// replay of it, reworded to bear this session's trailer, is no replay of
// the session's own commit).
const StepCarried = "carried"

// CarriedChangeMark is the line between a carried copy's parent line and
// its change fingerprint in the record: not a fingerprint line, so the
// change vouches for no rewrite and makes no squash sound.
const CarriedChangeMark = "carried"

// replayVerdict is replayUnchecked that also says whether c is a carried
// copy of the branch's commits from before the session (carriedEarlier).
func (e *Engine) replayVerdict(ctx context.Context, s *Session, repo Repo, c string, matched bool) (why string, carried bool, err error) {
	if s.State == StateInit {
		// `git pull --rebase` before the start gates replays the branch's
		// own commits from before the session: no new work lands.
		if repo != nil {
			earlier, err := e.replayOfEarlier(ctx, s, repo, c)
			if err != nil {
				return "", false, err
			}
			if earlier != "" {
				return "", false, nil
			}
		}
		return fmt.Sprintf("commit %s landed while session %s was still in its start protocol (%s): pre-commit refuses every commit before the start gates pass, "+
			"and git replays (cherry-pick, revert, am, rebase) skip it", shortSHA(c), s.ID, s.Phase), false, nil
	}
	if matched {
		return "", false, nil
	}
	if repo != nil {
		// A copy of the branch's own commits from before the session, as
		// in INIT above: a new session's `git rebase origin/main` replays
		// the commits an earlier, ended session made (round 61 F1).
		if earlier, err := e.carriedEarlier(ctx, s, repo, c); err != nil {
			return "", false, err
		} else if earlier != "" {
			return "", true, nil
		}
		evs, err := e.Store.ListEvidence(ctx, s.ID)
		if err != nil {
			return "", false, fmt.Errorf("load the session's commits: %w", err)
		}
		// The ABANDONED sessions this one continues (continuedFrom) are
		// its own work too: an expired session cannot be resumed, so the
		// next day's session that rebases yesterday's commits onto main
		// replays work their pre-commit checked (round 56 F5). Only their
		// recorded commits and pre-commit trees count: a commit amended
		// with the hooks off after they expired stays unchecked.
		ids := []string{s.ID}
		if _, cont, err := e.continuedFrom(ctx, repo, s); err != nil {
			return "", false, err
		} else {
			ids = append(ids, cont...)
		}
		for _, id := range ids[1:] {
			more, err := e.Store.ListEvidence(ctx, id)
			if err != nil {
				return "", false, fmt.Errorf("load the continued session's commits: %w", err)
			}
			evs = append(evs, more...)
		}
		var own []string
		for _, ev := range evs {
			if ev.Kind == EvidenceCommitSHA && ev.Origin == OriginObserved && ev.Step != StepCarried && ev.Ref != c && hexSHA.MatchString(ev.Ref) {
				own = append(own, ev.Ref)
			}
		}
		// A commit pre-commit passed but nobody recorded yet (post-commit
		// leaves it to reconciliation, which a rebase may outrun): the
		// commit the replay copied, when pre-commit checked its tree.
		origs, err := repo.ReplayOriginals(ctx)
		if err != nil {
			return "", false, fmt.Errorf("read the replay's originals: %w", err)
		}
		for _, o := range origs {
			if o.SHA == c {
				continue
			}
			for _, id := range ids {
				ok, err := e.matchPreCommit(ctx, id, o.Tree)
				if err != nil {
					return "", false, err
				}
				if ok {
					own = append(own, o.SHA)
					break
				}
			}
		}
		from, err := repo.ReplayedFrom(ctx, c, own)
		if err != nil {
			return "", false, fmt.Errorf("compare the replayed commit with the session's commits: %w", err)
		}
		if from != "" {
			return "", false, nil
		}
		if wr, ok := repo.(ReplayWitnessRepo); ok {
			// Honest replays of work pre-commit never saw (issue 25):
			// undoing a commit of the session (a revert of an older one
			// could undo a protected file unseen: git revert --no-commit,
			// then git commit), and copying a commit others published, as
			// a merge of their branch would bring it.
			if from, err := wr.RevertedFrom(ctx, c, own); err != nil || from != "" {
				if err != nil {
					return "", false, fmt.Errorf("read what commit %s reverts: %w", shortSHA(c), err)
				}
				return "", false, nil
			}
			if from, err := e.revertOfEarlier(ctx, s, repo, c); err != nil || from != "" {
				return "", false, err
			}
			if from, err := wr.PublishedFrom(ctx, c); err != nil || from != "" {
				if err != nil {
					return "", false, fmt.Errorf("compare commit %s with remote-tracking branches: %w", shortSHA(c), err)
				}
				return "", false, nil
			}
		}
	}
	return fmt.Sprintf("commit %s was replayed by git (cherry-pick, revert, am or rebase: no pre-commit hook runs) and its change is none the session's pre-commit checked: "+
		"commit work through the hooks (git cherry-pick --no-commit, then git commit)", shortSHA(c)), false, nil
}

// ReplayWitnessRepo tells replays pre-commit never saw that are still
// honest work; gitrepo.Repo has it.
type ReplayWitnessRepo interface {
	// RevertedFrom returns the commit among candidates, on c's history,
	// whose exact reverse c is ("" when none).
	RevertedFrom(ctx context.Context, c string, candidates []string) (string, error)
	// PublishedFrom returns a commit on a remote-tracking branch whose
	// patch equals c's ("" when none).
	PublishedFrom(ctx context.Context, c string) (string, error)
}

// replayOfEarlier returns the commit c replays when that commit existed
// before session s began: it is reachable from the session's start commit
// or from HEAD at its start, and its patch (git patch-id) equals c's. ""
// when c copies no such commit: new work, or a copy of a commit made
// during the session (a hooks-off commit on a side branch). The originals
// are the replay's (CHERRY_PICK_HEAD, the rebase's done list, ORIG_HEAD's
// unpushed commits); reachability, not a commit date the agent can set,
// says they came before.
func (e *Engine) replayOfEarlier(ctx context.Context, s *Session, repo Repo, c string) (string, error) {
	origs, err := repo.ReplayOriginals(ctx)
	if err != nil {
		return "", fmt.Errorf("read the replay's originals: %w", err)
	}
	tips := []string{s.StartCommit}
	if h, err := e.HeadAtStart(ctx, s.ID); err == nil && h != "" && h != s.StartCommit {
		tips = append(tips, h)
	}
	var before []string
	for _, o := range origs {
		if o.SHA == c {
			continue
		}
		for _, tip := range tips {
			if tip == "" {
				continue
			}
			ok, err := repo.IsAncestor(ctx, o.SHA, tip)
			if err != nil {
				return "", fmt.Errorf("is %s from before the session: %w", shortSHA(o.SHA), err)
			}
			if ok {
				before = append(before, o.SHA)
				break
			}
		}
	}
	from, err := repo.ReplayedFrom(ctx, c, before)
	if err != nil {
		return "", fmt.Errorf("compare the replayed commit with the commits from before the session: %w", err)
	}
	return from, nil
}

// messageRepo reads a commit's whole message; gitrepo.Repo has it.
type messageRepo interface {
	Message(ctx context.Context, sha string) (string, error)
}

// carriedEarlier returns the commit from before session s that replayed
// commit c copies whole: its patch (replayOfEarlier) and its message, so
// its Session-Id trailer, are the original's ("" otherwise). No new work
// lands and no record changes hands: verify judges the copy on the
// record its trailer names, as a rewrite of that session's checked
// commit (verify/rewrites.go), and a copy of a hooks-off commit fails
// there as its original would. A reworded copy (`git rebase -i`, whose
// commit-msg hook may stamp this session's trailer on a commit it never
// checked) is no carried one: FOREIGN_AMEND's case.
func (e *Engine) carriedEarlier(ctx context.Context, s *Session, repo Repo, c string) (string, error) {
	mr, ok := repo.(messageRepo)
	if !ok {
		return "", nil
	}
	from, err := e.replayOfEarlier(ctx, s, repo, c)
	if err != nil || from == "" {
		return "", err
	}
	a, err := mr.Message(ctx, c)
	if err != nil {
		return "", err
	}
	b, err := mr.Message(ctx, from)
	if err != nil || a != b {
		return "", err
	}
	return from, nil
}

// judgeReplay runs pre-commit, after the fact, for a replayed commit whose
// change is none the session's pre-commit saw: a conflict the agent
// resolved in `git rebase --continue` (or cherry-pick, revert, am
// --continue) changes the patch, and git runs no pre-commit for it. The
// honest rebase was a CRITICAL BYPASS that blocked the session's end
// (round 26, TestHonestOrdinaryTasks26 "rebase with a conflict resolved").
// Judged by the same gates on the commit's own tree and files it gets what
// `git cherry-pick --no-commit` then `git commit` (the route the BYPASS
// message names) would get, nothing less; a commit pre-commit refuses
// keeps its BYPASS (why) and records the refusal. Only for the live
// post-commit hook (CommitFiles set) of a session past its start
// protocol: before it, pre-commit refuses every commit anyway.
func (e *Engine) judgeReplay(ctx context.Context, s *Session, req HookRequest, why string) (string, error) {
	if req.CommitFiles == nil || req.Repo == nil || req.CommitTree == "" || s.State == StateInit || !s.Active() {
		return why, nil
	}
	// Only a copy of the session's own checked work: a commit made with
	// the hooks off on a side branch and cherry-picked stays a BYPASS
	// (TestAdvReplayWitness), as its work never met the gates when made.
	if own, err := e.replaysOwnWork(ctx, s, req); err != nil || !own {
		return why, err
	}
	files, err := req.CommitFiles(ctx)
	if err != nil {
		return "", fmt.Errorf("list the files replayed commit %s changed: %w", shortSHA(req.Commit), err)
	}
	tree := req.CommitTree
	pre := HookRequest{Repo: req.Repo, SessionID: s.ID, Policy: req.Policy, Staged: files, Who: req.Who,
		// The commit landed: reconciliation leaves it to this hook run.
		Landed: []string{req.Commit},
		Tree:   func(context.Context) (string, error) { return tree, nil }}
	d, err := e.PreCommit(ctx, pre)
	if err != nil {
		return "", fmt.Errorf("pre-commit for replayed commit %s (git ran none): %w", shortSHA(req.Commit), err)
	}
	if !d.Allowed {
		return why + "; judged now, pre-commit refuses it: " + strings.Join(d.Reasons, "; "), nil
	}
	return "", nil
}

// ReplayCurrentRepo names the commit a replay copies now; gitrepo.Repo
// has it.
type ReplayCurrentRepo interface {
	ReplayCurrent(ctx context.Context) (LandedCommit, bool, error)
}

// replaysOwnWork reports whether the replay in progress copies, now, a
// commit of the session that went through pre-commit: the commit git's
// state files name (ReplayCurrent: the rebase's current pick,
// CHERRY_PICK_HEAD), one the session recorded as its commit or whose tree
// its pre-commit passed. The files are the agent's to write; naming its
// own commit only gets the landed commit judged by pre-commit, never
// passed unjudged. ORIG_HEAD is not read: an earlier rebase leaves it
// naming the session's commits (TestReplayedCommits).
func (e *Engine) replaysOwnWork(ctx context.Context, s *Session, req HookRequest) (bool, error) {
	cr, ok := req.Repo.(ReplayCurrentRepo)
	if !ok {
		return false, nil
	}
	o, ok, err := cr.ReplayCurrent(ctx)
	if err != nil || !ok || o.SHA == req.Commit {
		return false, err
	}
	evs, err := e.Store.ListEvidence(ctx, s.ID)
	if err != nil {
		return false, fmt.Errorf("load the session's commits: %w", err)
	}
	for _, ev := range evs {
		if ev.Kind == EvidenceCommitSHA && ev.Origin == OriginObserved && ev.Step != StepCarried && ev.Ref == o.SHA {
			return true, nil
		}
	}
	return e.matchPreCommit(ctx, s.ID, o.Tree)
}
