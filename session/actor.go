package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/snapshot"
)

// People beside agents (issue 28.1): with require_session: true a commit
// or push needs a session only when a coding agent makes it. The hook
// runtime tells who runs it (Actor); the engine lets a person through
// without a session, records the commit as a person's work (never a
// violation), and holds an agent to the protocol as before.
//
// What is decidable locally, and so the rule: while a session is active in
// the worktree, every commit is the session's, whoever runs git (the
// session's gates apply; a person who wants out ends or terminates it).
// Without one, a commit is an agent's when an agent's variable is in the
// environment or an agent's process among the ancestors; otherwise a
// person's. An agent that strips both (env -i, setsid) without agent hooks
// passes for a person locally: docs/security.md says so, and verify in CI
// still sees its co-author trailer.

// Actor is who makes a commit or push, as the hook runtime saw it.
type Actor struct {
	// Agent names the coding agent ("claude", "codex", ...); "" is a person.
	Agent string
	// Via says how it was decided: "CLAUDECODE set", "under claude (pid
	// 42)", "no coding agent in the environment or process ancestry".
	Via string
	// Author returns the commit's git author ("Name <email>"); asked only
	// when a commit is recorded.
	Author func(ctx context.Context) string
}

// actor is who runs git, asked only where no session decides (reading
// the process ancestry costs a few /proc reads per hook).
func (r HookRequest) actor() *Actor {
	if r.Who == nil {
		return nil
	}
	return r.Who()
}

// Person reports a person: an actor known and not an agent. An unknown
// actor (nil) is held to the protocol, as before people were told apart.
func (a *Actor) Person() bool { return a != nil && a.Agent == "" }

func (a *Actor) author(ctx context.Context) string {
	if a == nil || a.Author == nil {
		return ""
	}
	return truncate(strings.TrimSpace(a.Author(ctx)), 300)
}

// Event tokens of people's commits and pushes outside any session. They
// have no session to belong to, so they are stored as commit actors
// (ActorWriter) and on the records ref, not as session events.
const (
	TokPersonCommit = "hook:pre-commit:person"
	TokPersonPush   = "hook:pre-push:person"
)

// ActorWriter records a commit's actor in the store; the SQLite store has
// it. Apart from Writer so a store without it needs nothing new: a person's
// commit is then recorded on the records ref only.
type ActorWriter interface {
	AddCommitActor(ctx context.Context, repoID int64, a snapshot.CommitActor) error
}

// ActorRecordWriter writes a commit's actor record onto a records ref;
// gitrepo.Repo has it.
type ActorRecordWriter interface {
	PutActorRecord(ctx context.Context, ref string, a snapshot.CommitActor) error
}

// CommitActorRow is one recorded commit actor with its repository.
type CommitActorRow struct {
	snapshot.CommitActor
	RepoID    int64     `json:"repo_id"`
	Repo      string    `json:"repo"` // the repository's key (origin, else root)
	CreatedAt time.Time `json:"created_at"`
}

// ActorReader lists recorded commit actors, newest first, since a time.
type ActorReader interface {
	CommitActors(ctx context.Context, since time.Time, limit int) ([]CommitActorRow, error)
}

// personAllowed lets a person's commit or push through when no session is
// required of it: require_session holds agents only.
func personAllowed(d *HookDecision, req HookRequest) bool {
	if !req.Policy.RequireSession || d.Allowed || !req.actor().Person() {
		return false
	}
	d.Allowed, d.Gate, d.Reasons, d.NextStep = true, "", nil, ""
	d.Warnings = append(d.Warnings, fmt.Sprintf("no session needed: this %s is a person's (%s); an agent's would need one here", verbOf(d.Hook), req.actor().Via))
	return true
}

// RecordCommitActor records who made a commit outside any session: in the
// store (when it keeps them) and on the records ref (when session_record
// names one), where verify reads it in CI. A failure to write the ref is
// logged, not returned: the commit has landed.
func (e *Engine) RecordCommitActor(ctx context.Context, repo Repo, repoID int64, a snapshot.CommitActor) error {
	if a.At == "" {
		a.At = stamp(e.now())
	}
	a.Version = 1
	if err := e.Store.Update(ctx, func(w Writer) error {
		if repoID == 0 {
			r, err := w.EnsureRepository(ctx, repo.MainRoot(), repo.Name())
			if err != nil {
				return err
			}
			repoID = r.ID
		}
		if aw, ok := w.(ActorWriter); ok {
			return aw.AddCommitActor(ctx, repoID, a)
		}
		return nil
	}); err != nil {
		return fmt.Errorf("record the %s's commit %s: %w", a.Actor, shortSHA(a.Commit), err)
	}
	if !IsRecordRef(e.Config.SessionRecord) {
		return nil
	}
	rw, ok := repo.(ActorRecordWriter)
	if !ok {
		return nil
	}
	if err := rw.PutActorRecord(ctx, e.Config.SessionRecord, a); err != nil {
		e.Logger.Warn("write the commit's actor record to the records ref", "commit", a.Commit, "err", err)
	}
	return nil
}

// personCommit records a commit a person made with no session.
func (e *Engine) personCommit(ctx context.Context, req HookRequest, t hookTarget, d *HookDecision) error {
	a := snapshot.CommitActor{Commit: req.Commit, Actor: snapshot.ActorPerson, Kind: snapshot.KindCommit,
		Author: req.actor().author(ctx), Via: truncate(req.actor().Via, 300)}
	if req.Adoption {
		a.Kind = snapshot.KindAdoption
	}
	d.Warnings = append(d.Warnings, fmt.Sprintf("recorded commit %s as a person's work (%s)", shortSHA(req.Commit), a.Via))
	return e.RecordCommitActor(ctx, req.Repo, t.repoID, a)
}

// agentCommit records, beside the BYPASS, that an agent made a commit
// with no session, so verify in CI sees it on the records ref too.
func (e *Engine) agentCommit(ctx context.Context, req HookRequest, t hookTarget) {
	who := req.actor()
	if who == nil || who.Agent == "" {
		return
	}
	a := snapshot.CommitActor{Commit: req.Commit, Actor: snapshot.ActorAgent, Agent: who.Agent, Kind: snapshot.KindCommit,
		Author: who.author(ctx), Via: truncate(who.Via, 300)}
	if err := e.RecordCommitActor(ctx, req.Repo, t.repoID, a); err != nil && !errors.Is(err, context.Canceled) {
		e.Logger.Warn("record the agent's commit", "commit", req.Commit, "err", err)
	}
}

// personInSession says, for a commit that git's environment and ancestry
// take for a person's while session s is active in the worktree, why it is
// the session's all the same and how a person commits as themself ("" for
// an agent, or an actor not known). Rule 1 of docs/security.md, "People
// beside agents": an agent that clears its variables and detaches (env -i
// with setsid, nohup, tmux, systemd-run, at) looks exactly like a person
// at a terminal, so the active session, not the actor, decides; taking
// such commits out of the session would let that agent out of its gates
// (round 61, helper 351's F3).
func personInSession(s *Session, req HookRequest) string {
	if s == nil || !req.actor().Person() {
		return ""
	}
	return fmt.Sprintf("no coding agent in git's environment or ancestry, yet session %s is active in this worktree: a commit here is the session's (its Session-Id, its gates), whoever runs git, since an agent that clears its environment and detaches looks the same; "+
		"to commit as yourself, commit in another worktree (git worktree add ../mine BRANCH) or after the session ends (sessiongate session end, or terminate %s)", s.ID, s.ID)
}
