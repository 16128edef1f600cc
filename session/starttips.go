package session

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A commit's committer date is the agent's to set (GIT_COMMITTER_DATE), so
// "dated before the session" cannot alone say a commit is older than it: a
// commit made with the hooks off and dated an hour back was left out of
// reconciliation and moved the work's start past itself (COMPLETE, clean;
// only verify in CI saw it). Reachability can: the start records the tips
// of the local branches and tags, and a commit none of them reaches was
// made after the start, whatever its date (its id cannot be an ancestor of
// a tip recorded before it existed). Remote-tracking refs are left out
// already (LandedCommits' --remotes).

// RefTipper is the optional part of a Repo that lists the commits the
// local branches and tags point at, and ORIG_HEAD (gitrepo.Repo), and the
// commits the last fetch from another repository brought (FETCH_HEAD).
type RefTipper interface {
	RefTips(ctx context.Context) ([]string, error)
	FetchedTips(ctx context.Context) []string
}

// RemoteHolder is the optional part of a Repo that says which of commits
// cs a remote the start recorded holds, as the remote answers now
// (gitrepo.Repo.RemoteHolds): its HEAD branch's tip reaches them.
type RemoteHolder interface {
	RemoteHolds(ctx context.Context, cs []string, remotesAtStart map[string]string) map[string]bool
}

// RemoteTipper is the optional part of a Repo that maps the
// remote-tracking refs to their commits (gitrepo.Repo.RemoteTips).
type RemoteTipper interface {
	RemoteTips(ctx context.Context) (map[string]string, error)
}

// startRemoteTips lists the remote-tracking tips to record at a start,
// nil when the repo cannot say. Past maxStartTips (a team's clone with
// hundreds of remote branches, or refs an agent made before its start to
// switch the record off) only the branches the checks ask about are kept:
// each remote's HEAD and its branches named like a default (the config's,
// the repository's, main, master, develop, trunk); nil only when those too
// are over the bound.
func startRemoteTips(ctx context.Context, repo Repo, defaults ...string) map[string]string {
	rt, ok := repo.(RemoteTipper)
	if !ok {
		return nil
	}
	tips, err := rt.RemoteTips(ctx)
	if err != nil {
		return nil
	}
	if len(tips) > maxStartTips {
		if def, err := repo.DefaultBranch(ctx); err == nil && def != "" {
			defaults = append(defaults, def)
		}
		defaults = append(defaults, "main", "master", "develop", "trunk", "HEAD")
		maps.DeleteFunc(tips, func(ref, _ string) bool {
			if strings.HasPrefix(ref, "remote.") {
				return false // a remote's URL (gitrepo.Repo.RemoteTips)
			}
			rest, _ := strings.CutPrefix(ref, "refs/remotes/")
			_, branch, ok := strings.Cut(rest, "/")
			return !ok || !slices.Contains(defaults, branch)
		})
		if len(tips) > maxStartTips {
			return nil
		}
	}
	if tips == nil {
		tips = map[string]string{} // recorded: no remote-tracking ref
	}
	return tips
}

// maxStartTips bounds the tips a start records; past it none are recorded
// and the committer date alone decides, as before.
const maxStartTips = 256

// startTips lists the tips to record at a start, nil when the repo cannot
// say or has too many.
func startTips(ctx context.Context, repo Repo) []string {
	rt, ok := repo.(RefTipper)
	if !ok {
		return nil
	}
	tips, err := rt.RefTips(ctx)
	if err != nil || len(tips) > maxStartTips {
		return nil
	}
	if tips == nil {
		tips = []string{} // recorded: no branch yet
	}
	return tips
}

// startTipsRecord is what a session's start recorded of the refs: ok is
// false for a start that recorded none (older sessions, too many refs).
type startTipsRecord struct {
	tips []string // every ref tip, HEAD's included
	head string   // HEAD at the start
	ok   bool
	// remotes maps the remote-tracking refs to their tips at the start;
	// nil when not recorded (older sessions, too many refs).
	remotes map[string]string
	// stash lists the stash's entries at the start; nil when not
	// recorded (older sessions).
	stash []string
	// worktrees lists the linked worktrees at the start; nil when not
	// recorded (older sessions).
	worktrees []string
}

// readStartTips reads the start event's record of the refs, once per use.
func (e *Engine) readStartTips(ctx context.Context, id string) (startTipsRecord, error) {
	evs, err := startEvent(ctx, e.Store, id, "tool:session_start")
	if err != nil {
		return startTipsRecord{}, fmt.Errorf("read the session's start: %w", err)
	}
	if len(evs) == 0 {
		return startTipsRecord{}, nil
	}
	var d struct {
		Tips    *[]string         `json:"ref_tips"`
		Head    string            `json:"head_at_start"`
		Remotes map[string]string `json:"remote_tips"`
		Stash   []string          `json:"stash_at_start"`
		Trees   []string          `json:"worktrees_at_start"`
	}
	if json.Unmarshal([]byte(evs[0].Detail), &d) != nil || d.Tips == nil {
		return startTipsRecord{}, nil
	}
	return startTipsRecord{tips: *d.Tips, head: d.Head, ok: true, remotes: d.Remotes, stash: d.Stash, worktrees: d.Trees}, nil
}

// before is the tips whose history existed before the session, HEAD's own
// left out (the session's branch: a late start's own commits keep the
// rule of commit times).
func (r startTipsRecord) before() []string {
	return slices.DeleteFunc(slices.Clone(r.tips), func(t string) bool { return t == r.head || !hexSHA.MatchString(t) })
}

// leaveToRemotes takes out of todo the one-parent commits no pre-commit of
// the session passed that a remote the start recorded holds, as the
// remote answers now: a person's commit pulled by URL (`git pull
// <url> main`, no remote-tracking ref moved) was charged to the session as
// a CRITICAL BYPASS (honest pass 47's R12). Only asked when such a commit
// would otherwise be charged, so the remote is asked rarely; a commit of
// the agent's own pushed to main with the hooks off has no Session-Id,
// and verify fails it in CI.
func (e *Engine) leaveToRemotes(ctx context.Context, s *Session, repo Repo, starts startTipsRecord, todo []LandedCommit, headMatched bool) []LandedCommit {
	rh, ok := repo.(RemoteHolder)
	if !ok || headMatched || !starts.ok || starts.remotes == nil {
		return todo
	}
	// The remotes are asked once, for every commit that would be charged.
	var ask []string
	for _, c := range todo {
		if c.Parents > 1 {
			continue
		}
		if ours, err := e.matchPreCommit(ctx, s.ID, c.Tree); err == nil && !ours {
			ask = append(ask, c.SHA)
		}
	}
	held := rh.RemoteHolds(ctx, ask, starts.remotes)
	return slices.DeleteFunc(todo, func(c LandedCommit) bool { return held[c.SHA] })
}

// madeAfterStart says whether commit c, dated before the session, was
// nevertheless made after it started: no tip the start recorded reaches it.
// False when the start recorded no tips (the date decides, as before).
// c comes from LandedCommits(StartCommit, r.before()), which already left
// out every commit those tips reach: only HEAD's own tip at the start and
// what the last fetch from another repository brought are asked here (256
// tips were asked again, one git process each).
func (e *Engine) madeAfterStart(ctx context.Context, s *Session, repo Repo, r startTipsRecord, c string) (bool, error) {
	if !r.ok {
		return false, nil
	}
	tips := []string{s.StartCommit, r.head}
	// A person's older commits fetched from another repository without a
	// remote-tracking ref (`git fetch URL`, then a merge of FETCH_HEAD) are
	// not the session's: a false BYPASS otherwise. The agent can fetch its
	// own back-dated commit from a clone of its own; verify still fails
	// such a commit in CI (no Session-Id, not a person's record).
	if rt, ok := repo.(RefTipper); ok {
		tips = append(tips, rt.FetchedTips(ctx)...)
	}
	for _, t := range tips {
		if t == "" {
			continue
		}
		if t == c {
			return false, nil
		}
		in, err := repo.IsAncestor(ctx, c, t)
		if err != nil {
			return false, fmt.Errorf("is %s older than the session: %w", shortSHA(c), err)
		}
		if in {
			return false, nil
		}
	}
	return true, nil
}

// A person's commit on local main made a second before the session
// started, then the session's branch rebased onto main: reconciliation
// told the session's commits by committer time (a second of slack) and
// charged the person's commit to the session as a CRITICAL BYPASS
// (TestCodexHonestV3RebaseConflict26 failed one run in five). What the
// refs held when the session started existed before it, whatever its date
// says, and their history is never the session's work. A commit made later
// cannot be an ancestor of a tip recorded earlier, so a hooks-off commit on
// main during the session still lands as a BYPASS
// (TestRebaseOntoHooksOffMainLazy26).

// TipsAtStart returns the tips the start of session id recorded, HEAD's
// own left out; nil for sessions from before they were recorded.
func (e *Engine) TipsAtStart(ctx context.Context, id string) ([]string, error) {
	r, err := e.readStartTips(ctx, id)
	if err != nil || !r.ok {
		return nil, err
	}
	return r.before(), nil
}

// tipsAtStartOf reads TipsAtStart for a gate (gateEnv.tipsAtStart).
func (e *Engine) tipsAtStartOf(id string) func(ctx context.Context) []string {
	return func(ctx context.Context) []string {
		t, _ := e.TipsAtStart(ctx, id)
		return t
	}
}

// StartSessionKey is the key under which remotesAtStartOf's map carries
// the session's id beside the recorded refs and URLs: a commit listing
// reads it to tell the session's own commits from the remote's
// (gitrepo's fetchedForeign).
const StartSessionKey = "sessiongate.session-id"

// remotesAtStartOf reads what the start of session id recorded of the
// remote-tracking refs, for a gate (gateEnv.remotesAtStart), with the
// session's id under StartSessionKey; nil when nothing was recorded.
func (e *Engine) remotesAtStartOf(id string) func(ctx context.Context) map[string]string {
	return func(ctx context.Context) map[string]string {
		r, err := e.readStartTips(ctx, id)
		if err != nil || !r.ok || r.remotes == nil {
			return nil
		}
		m := maps.Clone(r.remotes)
		m[StartSessionKey] = id
		return m
	}
}
