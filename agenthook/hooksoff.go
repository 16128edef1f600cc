package agenthook

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sessiongate/sessiongate/commitcheckout"
	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// hooksOffAgents are the CLIs that run every shell command with git's
// hooks switched off: Gemini CLI (0.61) appends core.hooksPath="" to
// GIT_CONFIG_COUNT for its shell tool (with core.editor, credential.helper
// and more), so no git hook of the repository runs, sessiongate's neither.
// Its honest `git commit` was recorded as a CRITICAL BYPASS by
// reconciliation (TestGeminiAgentHooksCompliant). The agent did not
// choose it, so AfterTool runs what those hooks would have run.
//
// The value is the variable the CLI sets to the payload's session id in
// every hook process it runs (Gemini CLI 0.61's hook runner sets
// GEMINI_SESSION_ID): a payload piped into the hook from another CLI's
// shell after `git -c core.hooksPath= commit` lacks it, and its commit
// stays a BYPASS (TestForgedGeminiAfterTool).
var hooksOffAgents = map[string]string{"gemini": "GEMINI_SESSION_ID"}

// ranByHooksOffAgent reports whether this hook process was started by the
// hooks-off CLI for ev's agent session, not piped in by hand.
func (r *Runner) ranByHooksOffAgent(ev *Event) bool {
	k := hooksOffAgents[ev.Agent]
	return k != "" && ev.AgentSession != "" && r.getenv(k) == ev.AgentSession
}

// resumeHooksOff judges the hooks-off commits a judge cut short left
// unrecorded: the CLI ends a hook at its timeout (Gemini CLI: SIGTERM),
// and a post-tool hook ended while a commit's gates ran left that commit
// and the call's later ones to reconciliation, a false CRITICAL BYPASS
// for honest work (ci20, at load 13: TestGeminiAgentHooksEarlierCommitOwnTree).
// Every hook of the CLI asks first, before any engine call reconciles
// them; with HEAD recorded that is one store lookup.
func (r *Runner) resumeHooksOff(ctx context.Context, eng *session.Engine, cfg *config.Config, repo *gitrepo.Repo, ev *Event, s *session.Session) error {
	if s == nil || !r.ranByHooksOffAgent(ev) {
		return nil
	}
	return r.hooksOffCommit(ctx, eng, cfg, repo, s, ev.Agent)
}

// maxHooksOffCommits bounds the commits one hooks-off shell call is
// judged for; older ones are left to reconciliation (a BYPASS each).
const maxHooksOffCommits = 32

// hooksOffCommit runs sessiongate's pre-commit and post-commit for each
// commit a hooks-off shell call made, oldest first, before anything
// reconciles them: a commit pre-commit would have passed is recorded as
// the session's commit; one it would have refused records that refusal
// (and any protected change) and keeps its BYPASS. Judged after the fact
// it cannot stop the commit, only record it, which is all a hooks-off
// commit ever got. The call's commits are HEAD's first-parent line back
// to the first commit the session recorded (or its start commit), at most
// maxHooksOffCommits; each is judged on its own tree and files, not the
// work tree's. `git commit -m a && git commit -m b` judged only HEAD, and
// the first commit was a false CRITICAL BYPASS (TestHooksOffEveryCommitOfTheCall).
// A merge or root commit among them stops the walk: reconciliation's to
// judge. Nothing runs unless sessiongate's pre-commit is the one git
// would run.
func (r *Runner) hooksOffCommit(ctx context.Context, eng *session.Engine, cfg *config.Config, repo *gitrepo.Repo, s *session.Session, agent string) error {
	if !s.Active() {
		return nil
	}
	head, _, err := repo.Head(ctx)
	if err != nil || head == "" || head == s.StartCommit {
		return nil
	}
	// HEAD recorded: nothing of this call (or of a judge cut short) is
	// left, and every hook of the CLI asks (resumeHooksOff) at the cost of
	// one store lookup, no git process.
	if known, err := eng.Store.RecordedCommits(ctx, s.ID, head); err != nil || known[head] {
		return err
	}
	if installedBinary(ctx, repo, r.getenv) == "" {
		return nil
	}
	todo, err := hooksOffCommits(ctx, eng, repo, s, head)
	if err != nil || len(todo) == 0 {
		return err
	}
	// Judging is not deciding: it gets JudgeTimeout, not the decision's
	// limit. A CLI that ends the hook sooner leaves the rest to its next
	// hook (resumeHooksOff).
	if r.timer != nil {
		r.timer.Reset(max(time.Millisecond, JudgeTimeout-time.Since(r.start)))
	}
	policy := session.HookPolicy{RequireSession: cfg.RequireSession, PreCommit: cfg.Hooks.PreCommit, PrePush: cfg.Hooks.PrePush, BypassEnv: cfg.BypassEnv}
	for i, c := range todo {
		files := func(ctx context.Context) ([]string, error) {
			out, err := gitenv.Command(ctx, repo.Root(), nil, "diff-tree", "--no-commit-id", "--name-only", "-r", "-z", c.sha).Output()
			return splitNUL(string(out)), err
		}
		staged, err := files(ctx)
		if err != nil {
			return fmt.Errorf("list the files commit %s changed: %w", c.sha, err)
		}
		// This commit and the call's later ones: reconciliation leaves
		// them to their own runs.
		pending := make([]string, 0, len(todo)-i)
		for _, p := range todo[i:] {
			pending = append(pending, p.sha)
		}
		tree := c.tree
		pre := session.HookRequest{Repo: repo, SessionID: s.ID, Policy: policy, Staged: staged, Landed: pending,
			Tree: func(context.Context) (string, error) { return tree, nil }}
		var done func()
		if i < len(todo)-1 || workTreeDiffers(ctx, repo) {
			// The work tree holds a later commit's files, or the call
			// changed it after its last commit: this one's command gates
			// run on its own files, checked out when the first command
			// runs. The last commit's run on the work tree when it holds
			// that commit, as a live pre-commit's would.
			var dir string
			var cerr error
			sha := c.sha
			pre.GateDir = func(ctx context.Context) (string, error) {
				if done == nil && cerr == nil {
					r.checkouts.Add(1)
					var remove func()
					if dir, remove, cerr = commitcheckout.Commit(ctx, repo.Root(), sha); cerr != nil {
						r.checkouts.Add(-1)
						cerr = fmt.Errorf("check out commit %s to run its gates: %w", sha, cerr)
					} else {
						done = func() { remove(); r.checkouts.Add(-1) }
					}
				}
				return dir, cerr
			}
		}
		_, err = eng.PreCommit(ctx, pre)
		if done != nil {
			done()
		}
		if ctx.Err() != nil {
			// Ended mid-judge (the CLI's hook timeout sends SIGTERM): a
			// gate killed here is no verdict on the commit. It and the
			// call's later ones stay unrecorded for the CLI's next hook to
			// judge (resumeHooksOff), not for reconciliation.
			return fmt.Errorf("judge commit %s (git ran no hook): cut short: %w", c.sha, ctx.Err())
		}
		if err != nil {
			return fmt.Errorf("pre-commit for commit %s (git ran no hook): %w", c.sha, err)
		}
		post := session.HookRequest{Repo: repo, SessionID: s.ID, Policy: policy, Landed: pending[1:],
			Commit: c.sha, CommitTree: c.tree, CommitParent: c.parent, CommitFiles: files}
		d, err := eng.PostCommit(ctx, post)
		if err != nil {
			return fmt.Errorf("post-commit for commit %s (git ran no hook): %w", c.sha, err)
		}
		if d != nil && len(d.Reasons) == 0 {
			r.hooksOffActor(ctx, eng, repo, s, agent, c.sha)
		}
	}
	return nil
}

// hooksOffActor maps a hooks-off commit the session recorded as passing
// to the session, on the records ref where records go there: commit-msg
// never ran, so the commit has no Session-Id trailer, and rewriting it to
// add one would rewrite the agent's history under it. verify reads the
// mapping (TestVerifyHooksOffCommitMappedToSession). A failure is logged,
// not fatal: the store keeps the commit either way.
func (r *Runner) hooksOffActor(ctx context.Context, eng *session.Engine, repo *gitrepo.Repo, s *session.Session, agent, sha string) {
	a := snapshot.CommitActor{Commit: sha, Actor: snapshot.ActorAgent, Agent: agent, Kind: snapshot.KindHooksOff, Session: s.ID,
		Via: "git ran no hook (the agent CLI runs its shell with core.hooksPath empty); judged by its post-tool hook"}
	if err := eng.RecordCommitActor(ctx, repo, s.RepoID, a); err != nil {
		eng.Logger.Warn("map the hooks-off commit to its session", "commit", sha, "err", err)
	}
}

// workTreeDiffers reports whether the work tree's tracked files differ
// from HEAD's (an error reads as differing: a checkout is never wrong).
// `git commit -qm wip && printf ok > status.txt` had a commit that fails
// the tests judged on the fixed, uncommitted file
// (TestHooksOffLastCommitJudgedOnItsOwnTree).
func workTreeDiffers(ctx context.Context, repo *gitrepo.Repo) bool {
	return gitenv.Command(ctx, repo.Root(), nil, "--no-optional-locks", "diff", "--quiet", "HEAD", "--").Run() != nil
}

type hooksOffCommitInfo struct{ sha, tree, parent string }

// hooksOffCommits lists, oldest first, the commits from HEAD back along
// first parents that the session has not recorded, stopping at a recorded
// commit, the session's start commit, a commit any remote-tracking branch
// has, or one dated before the session (reconciliation's rules for what is
// the session's). A merge, a root commit, or a line longer than
// maxHooksOffCommits judges only the commits after it: the rest are
// reconciliation's.
func hooksOffCommits(ctx context.Context, eng *session.Engine, repo *gitrepo.Repo, s *session.Session, head string) ([]hooksOffCommitInfo, error) {
	args := []string{"log", "--first-parent", fmt.Sprintf("--max-count=%d", maxHooksOffCommits), "--format=%H %T %ct %P", head, "--not", "--remotes"}
	if s.StartCommit != "" && !strings.HasPrefix(s.StartCommit, "-") {
		args = append(args, s.StartCommit)
	}
	out, err := gitenv.Command(ctx, repo.Root(), nil, append(args, "--")...).Output()
	if err != nil {
		return nil, fmt.Errorf("read the commits before %s: %w", head, err)
	}
	since := s.CreatedAt.Truncate(time.Second).Add(-time.Second).Unix()
	var line []hooksOffCommitInfo
	var shas []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		if len(f) != 4 {
			break // a root or merge commit: reconciliation's to judge
		}
		if ct, err := strconv.ParseInt(f[2], 10, 64); err != nil || ct < since {
			break // older than the session by its date: reconciliation's rules
		}
		line = append(line, hooksOffCommitInfo{sha: f[0], tree: f[1], parent: f[3]})
		shas = append(shas, f[0])
	}
	if len(line) == 0 {
		return nil, nil
	}
	known, err := eng.Store.RecordedCommits(ctx, s.ID, shas...)
	if err != nil {
		return nil, err
	}
	var todo []hooksOffCommitInfo
	for _, c := range line {
		if known[c.sha] {
			break
		}
		todo = append(todo, c)
	}
	slices.Reverse(todo)
	return todo, nil
}

// splitNUL splits git's -z output.
func splitNUL(s string) []string {
	var out []string
	for _, f := range strings.Split(s, "\x00") {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// ShellCommitsJudge returns the engine's BeforeReconcile for the CLI: run
// inside a hooks-off agent's shell call (`git commit -qm x && sessiongate
// session end` in Gemini CLI), it judges the commits the call made so far
// as the call's post-tool hook would, before the CLI's own engine call
// reconciles them as BYPASSes; that hook comes only after the call, with
// the session ended. It acts only when the agent CLI is this process's
// ancestor and names itself in the environment (ancestry: evidence), and
// the agent's hooks bound the session (their payloads' session ids,
// checked against the variable the CLI sets in its hook processes). A
// process that fakes the ancestry in a session Gemini CLI does not run
// gains nothing: the session is not bound to it.
func ShellCommitsJudge(eng *session.Engine, getenv func(string) string) func(ctx context.Context, s *session.Session) (bool, error) {
	var busy atomic.Bool
	return func(ctx context.Context, s *session.Session) (bool, error) {
		agent, _, ok := ancestry.FromEnv(getenv)
		if !ok || hooksOffAgents[agent] == "" || !s.Active() || !busy.CompareAndSwap(false, true) {
			// busy: the judge's own engine calls load the session again.
			return false, nil
		}
		defer busy.Store(false)
		if p, ok := ancestry.Agent(ancestry.Chain()); !ok || ancestry.AgentName(p) != agent {
			return false, nil
		}
		ar, ok := eng.Store.(session.SessionAgentReader)
		if !ok {
			return false, nil
		}
		if bound, err := ar.SessionBoundTo(ctx, s.ID, agent); err != nil || !bound {
			return false, err
		}
		repo, err := gitrepo.Open(ctx, s.Worktree)
		if err != nil {
			return false, fmt.Errorf("open the session's worktree: %w", err)
		}
		cfg, err := config.Load(repo.Root())
		if err != nil {
			return false, fmt.Errorf("read the config to judge the shell call's commits: %w", err)
		}
		r := &Runner{Getenv: getenv, start: time.Now()}
		return true, r.hooksOffCommit(ctx, eng, cfg, repo, s, agent)
	}
}
