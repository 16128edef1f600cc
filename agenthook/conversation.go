package agenthook

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/session"
)

// The hooks keep which agent conversations are open in each worktree
// (session.ConversationLog): every hook that reaches a decision marks its
// conversation's last hook, the agent's end event closes it, and a session
// bound to a conversation inherits what the conversation's removed
// sessions left (session.InheritConversation). Person acts read the log
// (docs/security.md, "Ending a session is a person's act").

// touchConversation marks a hook of ev's conversation in repo's worktree.
// A failure is said on stderr and does not stop the hook: the log is what
// person acts read, and a hook that cannot write it still decides.
func (r *Runner) touchConversation(repo *gitrepo.Repo, ev *Event) {
	if ev.Unread || session.ValidateAgentSession(ev.AgentSession) != nil {
		return
	}
	hook := session.HookOther
	switch ev.Kind {
	case KindStart:
		hook = session.HookStart
	case KindEnd:
		hook = session.HookEnd
	}
	log := session.ConversationLogAt(repo.CommonDir())
	if err := log.Touch(repo.Root(), ev.Agent, ev.AgentSession, time.Now().UTC(), hook); err != nil {
		fmt.Fprintf(r.Stderr, "sessiongate: agent-hook %s %s: conversation log: %v\n", ev.Agent, ev.Name, err)
	}
}

// endConversation closes ev's conversation (SessionEnd, sessionEnd).
func (r *Runner) endConversation(ctx context.Context, ev *Event) {
	if ev.Unread || session.ValidateAgentSession(ev.AgentSession) != nil {
		return
	}
	repo, err := gitrepo.Find(ctx, r.project(ev), r.getenv)
	if err != nil {
		return // not in a repository: nothing was open here
	}
	r.touchConversation(repo, ev)
}

// bindConversation records that ev's conversation acts for the bound
// session and, when the session is new to it, lets the session inherit
// what the conversation's earlier, removed sessions left.
func (r *Runner) bindConversation(ctx context.Context, eng *session.Engine, repo *gitrepo.Repo, ev *Event, bd *session.AgentBound) error {
	log := session.ConversationLogAt(repo.CommonDir())
	before, added, err := log.Bind(repo.Root(), ev.Agent, ev.AgentSession, bd.Session.ID, time.Now().UTC())
	if err != nil {
		return fmt.Errorf("conversation log: %w", err)
	}
	if !added {
		return nil
	}
	// The database's binding names the session this conversation acted
	// for before, also when the log's file for it was deleted.
	if bd.Replaced != "" && (before == nil || !slices.Contains(before.Sessions, bd.Replaced)) {
		if before == nil {
			before = &session.Conversation{Agent: ev.Agent, ID: ev.AgentSession, Worktree: repo.Root()}
		}
		before.Sessions = append(before.Sessions, bd.Replaced)
	}
	notes, err := eng.InheritConversation(ctx, bd.Session.ID, before)
	if err != nil {
		return err
	}
	bd.Notes = append(bd.Notes, notes...)
	return nil
}
