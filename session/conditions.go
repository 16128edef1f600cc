package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/notapplicable"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
)

// "Not applicable" needs a condition that does not hold. Where the
// condition is one a machine can check, sessiongate checks it before it
// records the reason: "if docs/legacy.md exists" (the path is there),
// "when the change touches db/migrations/" (a changed file is under it),
// "if a session log exists" (a file the protocol names as the session
// log). A reason that says otherwise is refused with what holds. "If the
// serena MCP is not available" is checked against the MCP configs Claude
// Code reads (mcpNA); other conditions are taken on the reason, as before.

// mcpNA says when a not-applicable mark on requirement r of phase p (r
// nil: the phase) is a statement about an MCP server that the machine can
// check: the mark stands when the server's configured state is configured.
//   - a condition about the server ("If the serena MCP is not available,
//     MUST read .serena/memories/x.md"): the mark says the condition is
//     false;
//   - an unconditional call of one of its tools, or a phase whose owed
//     requirements all are (SERENA_INITIALIZATION): the mark says the
//     server is not there, so the call cannot be made.
func mcpNA(p *protocolspec.Phase, r *protocolspec.Requirement) (server string, configured, ok bool) {
	// "if X is not available" does not hold when X is configured.
	if r != nil {
		if sv, want, ok := notapplicable.MCPCondition(r.Text); ok {
			return sv, want, true
		}
	}
	if p.Condition != "" {
		return notapplicable.MCPCondition(p.Condition)
	}
	if r != nil {
		if tools, sv := toolneed.MCPTools(*r); len(tools) > 0 && !r.Conditional {
			return sv, false, true
		}
		return "", false, false
	}
	for _, o := range p.OwedRequirements() {
		if o.Conditional {
			continue
		}
		tools, sv := toolneed.MCPTools(o)
		if len(tools) == 0 || server != "" && sv != server {
			return "", false, false // other work, or another server's
		}
		server = sv
	}
	return server, false, server != ""
}

// mcpNAHolds refuses a not-applicable mark about an MCP server (mcpNA)
// when the server's configured state says otherwise: configured in the
// work tree's .mcp.json, the one committed at the session's start or
// HEAD, or Claude Code's user config.
func (e *Engine) mcpNAHolds(ctx context.Context, s *Session, what, server string, configured bool) error {
	where := e.mcpWhere(ctx, s, server)
	switch {
	case configured && where == "":
		return refusedf("%s is not \"not applicable\": its condition holds, the %s MCP server is not configured (not in .mcp.json in the work tree, at the session's start commit or at HEAD, nor in Claude Code's user config); do what it asks and record evidence of it", what, server)
	case !configured && where != "":
		return refusedf("%s is not \"not applicable\": the %s MCP server is configured (%s), so its tools can be called; call them, and the agent's transcript records the calls", what, server, where)
	}
	return nil
}

// conditionHolds checks a condition's text against the worktree and the
// session's changed files. checked is false when the text names nothing a
// machine can check; else holds says whether it holds and why says what
// was found.
func (e *Engine) conditionHolds(ctx context.Context, s *Session, spec *protocolspec.Spec, text string) (holds, checked bool, why string, err error) {
	cond, ok := notapplicable.Checkable(spec, text)
	if !ok {
		return false, false, "", nil // "if X does not exist", or nothing named: left to the reason
	}
	if cond.Exists {
		for _, g := range cond.Paths {
			if strings.Contains(g, "/") && namedExists(s.Worktree, g) {
				return true, true, fmt.Sprintf("%s exists", strings.TrimSuffix(g, "/**")), nil
			}
		}
		return false, true, "", nil
	}
	// "when the change touches X": the files the session changed.
	if e.OpenRepo == nil || s.StartCommit == "" {
		return false, false, "", nil
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return false, false, "", fmt.Errorf("open repository: %w", err)
	}
	ws, _, err := e.workStart(ctx, repo, s)
	if err != nil {
		return false, false, "", err
	}
	changed, err := sessionFiles(ctx, repo, ws)
	if err != nil {
		return false, false, "", fmt.Errorf("list changed files: %w", err)
	}
	for _, f := range changed {
		if namesPath(cond.Paths, f) {
			return true, true, fmt.Sprintf("this session changed %s", f), nil
		}
	}
	return false, true, "", nil
}

// notApplicableHolds refuses a not-applicable record whose condition a
// machine can see holds.
func (e *Engine) notApplicableHolds(ctx context.Context, sid string, spec *protocolspec.Spec, what, text string) error {
	s, err := e.Store.GetSession(ctx, sid)
	if err != nil {
		return fmt.Errorf("load session: %w", err)
	}
	holds, checked, why, err := e.conditionHolds(ctx, s, spec, text)
	if err != nil || !checked || !holds {
		return err
	}
	return refusedf("%s is not \"not applicable\": its condition (%q) holds, %s; do what it asks and record evidence of it", what, truncate(strings.TrimSpace(text), 120), why)
}
