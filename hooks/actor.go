package hooks

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
)

// actor tells who runs git (issue 28.1): a coding agent when one of the
// agents' variables is in the hook's environment or an agent's CLI is
// among its ancestors (git < the agent's shell < the agent), else a
// person. The ancestry is read only when the environment did not answer.
// Both can be stripped (env -i, setsid): docs/security.md, "People beside
// agents", says what that gets an agent and what still sees it.
func (rt *Runtime) actor(dir string, rev string) *session.Actor {
	return DetectActor(rt.getenv, rt.Chain, dir, rev)
}

// DetectActor tells who runs a command in dir from its environment
// (getenv) and process ancestry (chain; nil reads the real one). rev is
// the commit whose author the actor names ("": the next commit's).
func DetectActor(getenv func(string) string, chain func() []ancestry.Process, dir, rev string) *session.Actor {
	a := &session.Actor{Author: func(ctx context.Context) string { return author(ctx, dir, rev) }}
	if name, v, ok := ancestry.FromEnv(getenv); ok {
		a.Agent, a.Via = name, v+" set"
		return a
	}
	if chain == nil {
		chain = ancestry.Chain
	}
	procs := chain()
	if p, ok := ancestry.Agent(procs); ok {
		a.Agent, a.Via = agentName(p), fmt.Sprintf("under %s (pid %d)", p.Name, p.PID)
		return a
	}
	a.Via = "no coding agent in the environment or process ancestry"
	if len(procs) > 0 {
		a.Via += ": " + ancestry.Names(procs[:min(len(procs), 6)])
	}
	return a
}

// agentName maps an agent's process to the agent hooks' names.
func agentName(p ancestry.Process) string {
	n := strings.ToLower(p.Name)
	s := strings.ToLower(p.Name + " " + p.Args)
	switch {
	case strings.Contains(s, "claude"):
		return "claude"
	case strings.Contains(s, "gemini"):
		return "gemini"
	case strings.Contains(s, "codex"):
		return "codex"
	case strings.Contains(s, "copilot"):
		return "copilot"
	case strings.Contains(s, "cursor"):
		return "cursor"
	}
	return n
}

// author is the git author of rev ("" : the one the next commit gets).
func author(ctx context.Context, dir, rev string) string {
	if rev == "" {
		out, err := git(ctx, dir, "var", "GIT_AUTHOR_IDENT")
		if err != nil {
			return ""
		}
		// "Name <email> 1700000000 +0000": the time is not the author.
		if i := strings.LastIndexByte(out, '>'); i >= 0 {
			return out[:i+1]
		}
		return out
	}
	out, err := git(ctx, dir, "log", "-1", "--format=%an <%ae>", rev)
	if err != nil {
		return ""
	}
	return out
}

// EnvAdoption is set by `sessiongate init --commit` on the git commit it
// runs: post-commit records the commit as the adoption. It changes only
// the record's kind; a person's commit needs no session either way.
const EnvAdoption = "SESSIONGATE_ADOPTION"
