package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
)

// Person acts beside open agent conversations (docs/security.md, "Ending a
// session is a person's act"). The process tree says nothing about an
// agent that detached itself (setsid -f, a double fork): the conversation
// log the agent hooks keep does. A removal made while an agent
// conversation is open in the worktree still goes through (a person ending
// a stuck session with Claude open in another pane is common), but it is
// recorded on the records ref as made during that conversation, signed or
// not; verify fails an unsigned one, and a fresh session from that
// conversation carries SESSION_RESTARTED.

// openConversations are the agent conversations open in worktree now.
func openConversations(commonDir, worktree string) ([]session.Conversation, error) {
	open, err := session.ConversationLogAt(commonDir).OpenIn(worktree, time.Now().UTC())
	if err != nil {
		return nil, fmt.Errorf("read the agent conversations of %s: %w", worktree, err)
	}
	return open, nil
}

// refuseUnsignedDuringConversation refuses an unsigned acceptance (what:
// "accept", "accept-na") while an agent conversation is open in r's
// worktree: a detached agent has no agent among its ancestors, and
// script(1) gives it a terminal, so such an acceptance cannot be told from
// the agent's own. It returns the conversations open.
func refuseUnsignedDuringConversation(what string, r *gitrepo.Repo, sign bool) ([]session.Conversation, error) {
	open, err := openConversations(r.CommonDir(), r.Root())
	if err != nil {
		return nil, usage(err)
	}
	if len(open) > 0 && !sign {
		return nil, usage(fmt.Errorf("%s refused: the agent conversation %s is open in this worktree (last hook %s), and an unsigned acceptance made now cannot be told from the agent's own; "+
			"close the agent (or wait until %s pass without a hook) and accept again, or accept with --sign (a key in accept_signers / verify.allowed_signers)",
			what, session.ConversationNames(open), open[0].LastHook.Format(time.RFC3339), session.ConversationIdle))
	}
	return open, nil
}

// duringAgentMessage tells a person what an unsigned act during open
// conversations means and what to do instead.
func duringAgentMessage(what string, open []session.Conversation) string {
	last := open[0].LastHook.Format(time.RFC3339)
	return fmt.Sprintf("%s while the agent conversation %s is open in this worktree (last hook %s; open until its agent ends it or %s pass without a hook): "+
		"whatever the process tree says, this cannot be told from the agent acting on its own session. "+
		"It is recorded on the records ref as made during an open agent conversation, unsigned: CI's verify fails the commits of that conversation "+
		"and of sessions started at this commit, and a new session from that conversation carries %s. "+
		"To make it a person's word: close the agent (or wait until it is idle) and run it again, or run it with --sign (a key in verify.allowed_signers)",
		what, session.ConversationNames(open), last, session.ConversationIdle, session.CodeSessionRestarted)
}

// confirmDuringAgent asks a person at a terminal whether to go on unsigned
// during an open conversation; without a terminal (a script, a detached
// agent) it goes on, recorded as such.
func (a *app) confirmDuringAgent(what string, open []session.Conversation, sign bool) error {
	if len(open) == 0 || sign {
		return nil
	}
	fmt.Fprintln(a.stderr, "sessiongate: warning: "+duringAgentMessage(what, open))
	if !isTerminal(a.stdin) || !isTerminal(a.stderr) {
		return nil
	}
	fmt.Fprint(a.stderr, "go on unsigned? [y/N] ")
	ans, _ := bufio.NewReader(a.stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(ans)); a != "y" && a != "yes" {
		return blocked("%s not done", what)
	}
	return nil
}

// recordPersonAct writes the act onto the records ref (signed with sign)
// and into the session's events, before the act itself: an act that
// cannot be recorded is not made.
func (a *app) recordPersonAct(ctx context.Context, e *session.Engine, pa *session.PersonAct) error {
	r, err := a.gitRepo(ctx)
	if err != nil {
		return err
	}
	body, err := json.MarshalIndent(pa, "", "  ")
	if err != nil {
		return err
	}
	if _, _, err := recordref.PutAct(ctx, r.Root(), a.acceptanceRef(ctx), append(body, '\n'), pa.Signed); err != nil {
		return usage(fmt.Errorf("%s refused: record it on %s: %w", pa.Act, a.acceptanceRef(ctx), err))
	}
	if err := e.RecordPersonActEvent(ctx, pa); err != nil {
		return usage(fmt.Errorf("%s refused: record it in the session's events: %w", pa.Act, err))
	}
	return nil
}

// personRemoval checks and records a terminate or delete of session id:
// the process tree first (an agent's own child is refused outright), then
// the conversations open in the session's worktree.
func (a *app) personRemoval(ctx context.Context, e *session.Engine, act, id string, sign bool) (*session.PersonAct, string, error) {
	what := "session " + act
	if err := refuseUnderAgent(what); err != nil {
		return nil, "", err
	}
	s, err := e.Store.GetSession(ctx, id)
	if err != nil {
		return nil, "", sessionErr(err)
	}
	// The session's own worktree, wherever the person runs this (a
	// --db from another folder): its conversations are the ones that count.
	var r *gitrepo.Repo
	if s.Worktree != "" {
		r, err = gitrepo.Open(ctx, s.Worktree)
		if err != nil {
			// A worktree this process cannot read holds no conversation it
			// could check, and no records ref it could write: the engine
			// decides (and records the removal where it can).
			return nil, s.Worktree, nil
		}
	} else if r, err = a.gitRepo(ctx); err != nil {
		return nil, "", err
	}
	wt := s.Worktree
	if wt == "" {
		wt = r.Root()
	}
	if act == session.ActTerminate && !s.Active() {
		return nil, wt, nil // nothing to terminate: the engine says so, no act is recorded
	}
	open, err := openConversations(r.CommonDir(), wt)
	if err != nil {
		return nil, "", usage(err)
	}
	if err := a.confirmDuringAgent(what, open, sign); err != nil {
		return nil, "", err
	}
	head, _ := r.ResolveRev(ctx, "HEAD")
	pa, err := e.NewPersonAct(ctx, act, id, head, whoAmI(ctx, r.Root()), open, sign)
	if err != nil {
		return nil, "", usage(err)
	}
	if err := a.recordPersonAct(ctx, e, pa); err != nil {
		return nil, "", err
	}
	return pa, wt, nil
}

// noteRemoval tells the conversation log that a person act removed id, so
// a session that later binds to one of its conversations inherits it.
func (a *app) noteRemoval(ctx context.Context, pa *session.PersonAct, wt string) {
	if pa == nil {
		return
	}
	r, err := a.gitRepo(ctx)
	if err != nil {
		return
	}
	at, _ := time.Parse(time.RFC3339, pa.At)
	rm := session.ConversationRemoval{Act: pa.Act, At: at, During: len(pa.Open) > 0, Signed: pa.Signed}
	if err := session.ConversationLogAt(r.CommonDir()).NoteRemoval(wt, pa.SessionID, rm); err != nil {
		fmt.Fprintf(a.stderr, "sessiongate: conversation log: %v\n", err)
	}
}
