package verify

import (
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// What verify does with a commit no session covers (no Session-Id
// trailer), verify.unsessioned in sessiongate.yaml (issue 28.1):
const (
	// UnsessionedFail fails every such commit, a person's included.
	UnsessionedFail = "fail"
	// UnsessionedPeople (the default) passes a commit the local
	// post-commit hook recorded as a person's (an actor record on the
	// records ref) when nothing shows an agent made it; everything else
	// fails. Safe: a commit passes only on a positive record.
	UnsessionedPeople = "people"
	// UnsessionedAgents fails only commits something shows an agent made
	// (its co-author trailer, an agent's actor record); the rest pass with
	// a warning. For teams whose people commit without sessiongate's hooks.
	UnsessionedAgents = "agents"
	// UnsessionedAllow passes every such commit with a warning.
	UnsessionedAllow = "allow"
)

// UnsessionedPolicies are the values verify.unsessioned takes.
var UnsessionedPolicies = []string{UnsessionedFail, UnsessionedPeople, UnsessionedAgents, UnsessionedAllow}

// agentTrailer names the coding agent a Co-authored-by trailer credits,
// "" for a person. The formats are the agents' own (read from the CLIs in
// .ci/node, 2026-11): Claude Code "Co-Authored-By: Claude <model>
// <noreply@anthropic.com>", Codex "Co-authored-by: Codex
// <noreply@openai.com>", Copilot "Co-authored-by: Copilot
// <223556219+Copilot@users.noreply.github.com>" (its cloud agent uses
// another numeric id), Cursor "Co-authored-by: Cursor Agent
// <cursoragent@cursor.com>"; Gemini CLI adds none by default, so a
// "Gemini" co-author is taken for it when one is written.
func agentTrailer(value string) string {
	v := strings.ToLower(value)
	switch {
	case strings.Contains(v, "@anthropic.com>"):
		return "claude"
	case strings.Contains(v, "<noreply@openai.com>"), strings.HasPrefix(v, "codex "):
		return "codex"
	case strings.Contains(v, "+copilot@users.noreply.github.com>"), strings.HasPrefix(v, "copilot "):
		return "copilot"
	case strings.Contains(v, "@cursor.com>") && strings.Contains(v, "agent"), strings.HasPrefix(v, "cursor agent "):
		return "cursor"
	case strings.HasPrefix(v, "gemini"):
		return "gemini"
	}
	return ""
}

// agentTrailers returns the agent co-author trailers of a commit.
func agentTrailers(c *gitrepo.Commit) []string {
	var out []string
	for k, vs := range c.Trailers {
		if !strings.EqualFold(k, "Co-authored-by") {
			continue
		}
		for _, v := range vs {
			if a := agentTrailer(v); a != "" {
				out = append(out, fmt.Sprintf("%s (%s: %s)", a, k, shorten.Bytes(v, 100, "...")))
			}
		}
	}
	return out
}

// judgeUnsessioned decides a commit without a Session-Id trailer under the
// policy, and says why: every verdict names its evidence.
func judgeUnsessioned(policy string, c *gitrepo.Commit, actor *snapshot.CommitActor, cr *CommitReport) {
	if policy == "" {
		policy = UnsessionedPeople
	}
	set := func(status, why string) {
		cr.Status = status
		cr.Problems = append(cr.Problems, why)
	}
	var agent []string
	agent = append(agent, agentTrailers(c)...)
	if actor != nil && actor.Actor == snapshot.ActorAgent {
		agent = append(agent, fmt.Sprintf("the post-commit hook recorded it as %s's (%s)", orAgent(actor.Agent), actor.Via))
	}
	switch {
	case len(agent) > 0:
		why := "no session, and an agent made it: " + strings.Join(agent, "; ")
		if policy == UnsessionedAllow {
			set("warn", why+" (verify.unsessioned: allow)")
			return
		}
		set("fail", why+": an agent's commit needs a session")
	case actor != nil && actor.Actor == snapshot.ActorPerson:
		what := "a person's commit"
		if actor.Kind == snapshot.KindAdoption {
			what = "the adoption commit (sessiongate init --commit)"
		}
		why := fmt.Sprintf("no session: %s by %s, as its post-commit hook recorded (%s)", what, orUnknown(actor.Author), actor.Via)
		if policy == UnsessionedFail {
			set("fail", why+"; verify.unsessioned: fail fails people's commits too")
			return
		}
		set("ok", why)
	default:
		why := "no Session-Id trailer and no record of who made it: outside a session, with sessiongate's hooks absent or bypassed (plumbing, another clone), by a person or an agent"
		switch policy {
		case UnsessionedAgents:
			set("warn", why+"; passed: nothing shows an agent made it (verify.unsessioned: agents)")
		case UnsessionedAllow:
			set("warn", why+" (verify.unsessioned: allow)")
		default:
			set("fail", why+" (verify.unsessioned: "+policy+" passes only commits recorded as a person's)")
		}
	}
}

// hooksOffMapped reports whether an actor record maps a commit without a
// trailer to a session: one an agent CLI made with git's hooks off, which
// its post-tool hook judged (agenthook/hooksoff.go). Anyone who can write
// the records ref can write one; it names a session, nothing more, and
// checkCommit then needs that session's record to list the commit.
func hooksOffMapped(a snapshot.CommitActor) bool {
	return a.Kind == snapshot.KindHooksOff && a.Session != "" && session.ValidateID(a.Session) == nil
}

func orAgent(s string) string {
	if s == "" {
		return "an agent"
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "an unnamed author"
	}
	return s
}
