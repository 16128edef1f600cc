package agenthook

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/session"
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

// hooksOffCommit runs sessiongate's pre-commit and post-commit for the
// commit a hooks-off shell call left at HEAD, before anything reconciles
// it: a commit pre-commit would have passed is recorded as the session's
// commit; one it would have refused records that refusal (and any
// protected change), then reconciliation records the BYPASS as before.
// Judged after the fact it cannot stop the commit, only record it, which
// is all a hooks-off commit ever got. Only HEAD is judged (the work tree
// holds only its state); earlier commits of the same call stay BYPASS.
// Nothing runs unless sessiongate's pre-commit is the one git would run.
func (r *Runner) hooksOffCommit(ctx context.Context, eng *session.Engine, cfg *config.Config, repo *gitrepo.Repo, s *session.Session) error {
	if !s.Active() || installedBinary(ctx, repo, r.getenv) == "" {
		return nil
	}
	head, _, err := repo.Head(ctx)
	if err != nil || head == "" || head == s.StartCommit {
		return nil
	}
	known, err := eng.Store.RecordedCommits(ctx, s.ID, head)
	if err != nil || known[head] {
		return err
	}
	out, err := gitenv.Command(ctx, repo.Root(), nil, "rev-list", "--parents", "-n", "1", head).Output()
	if err != nil {
		return fmt.Errorf("read commit %s: %w", head, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return nil // a merge or a root commit: reconciliation's to judge
	}
	parent := f[1]
	tout, err := gitenv.Command(ctx, repo.Root(), nil, "rev-parse", head+"^{tree}").Output()
	if err != nil {
		return fmt.Errorf("read the tree of commit %s: %w", head, err)
	}
	tree := strings.TrimSpace(string(tout))
	files := func(ctx context.Context) ([]string, error) {
		out, err := gitenv.Command(ctx, repo.Root(), nil, "diff-tree", "--no-commit-id", "--name-only", "-r", "-z", head).Output()
		return splitNUL(string(out)), err
	}
	staged, err := files(ctx)
	if err != nil {
		return fmt.Errorf("list the files commit %s changed: %w", head, err)
	}
	policy := session.HookPolicy{RequireSession: cfg.RequireSession, PreCommit: cfg.Hooks.PreCommit, PrePush: cfg.Hooks.PrePush, BypassEnv: cfg.BypassEnv}
	pre := session.HookRequest{Repo: repo, SessionID: s.ID, Policy: policy, Staged: staged, Landed: head,
		Tree: func(context.Context) (string, error) { return tree, nil }}
	if _, err := eng.PreCommit(ctx, pre); err != nil {
		return fmt.Errorf("pre-commit for commit %s (git ran no hook): %w", head, err)
	}
	post := session.HookRequest{Repo: repo, SessionID: s.ID, Policy: policy,
		Commit: head, CommitTree: tree, CommitParent: parent, CommitFiles: files}
	if _, err := eng.PostCommit(ctx, post); err != nil {
		return fmt.Errorf("post-commit for commit %s (git ran no hook): %w", head, err)
	}
	return nil
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
