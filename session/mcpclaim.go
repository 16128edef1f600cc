package session

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/mcpconfig"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
	"github.com/sessiongate/sessiongate/userconfig"
)

// A requirement to call an MCP server's tool ("MUST call
// mcp__serena__activate_project") cannot have been met where no config an
// agent reads configures that server: typed tool_output "activated project
// greet" in a repository without serena passed the BLOCKING phase (helper
// 357). Such a claim is refused, naming the configs read. The repository's
// configs count as they are, at the session's start commit or at HEAD
// (each is protected during a session); the user-level ones as they were
// when the session started (git protects none of them, so a server added
// there mid-session does not count), or now for a session that kept no
// start state; and sessiongate.yaml's mcp_servers_elsewhere names servers
// configured where sessiongate cannot read (a managed config, another
// home). A user-level file that exists but cannot be parsed configures
// nothing: the message names it, for a person to fix or to name the server.

// equivalentRE: the requirement lets another way do ("using
// mcp__serena__write_memory or equivalent"), which a claim may describe.
var equivalentRE = lazyregexp.New(`(?i)\bor\s+(?:an?\s+)?(?:equivalent|similar|alternative|another\s+tool)\b`)

// mcpClaimRefused refuses typed evidence of kind for requirement r when r
// asks for a call of an MCP tool whose server nothing configures.
func (e *Engine) mcpClaimRefused(ctx context.Context, s *Session, r protocolspec.Requirement, kind string) error {
	tools, server := toolneed.MCPTools(r)
	if len(tools) == 0 || !claimCounts(kind) || equivalentRE.MatchString(r.Text) {
		return nil
	}
	configured, read, unreadable := e.mcpClaimSources(ctx, s, server)
	if configured {
		return nil
	}
	msg := fmt.Sprintf("%s evidence for %s is refused: it asks for a call of %s, and no MCP config an agent reads configures the %s server (read: %s), so the call cannot have been made",
		kind, r.ID, strings.Join(tools, " or "), server, strings.Join(read, ", "))
	if len(unreadable) > 0 {
		msg += fmt.Sprintf("; %s could not be read (%s)", strings.Join(unreadable, ", "), "fix it, or name the server as below")
	}
	return refusedf("%s. Configure the %s MCP server (a person commits it to .mcp.json or the agent's config) and call the tool; "+
		"if the server is configured where sessiongate cannot read it, a person names it under mcp_servers_elsewhere in sessiongate.yaml; "+
		"if the protocol lets the requirement go without the server, record it not applicable with the reason (--not-applicable)", msg, server)
}

// mcpClaimSources says whether server is configured for session s (see
// above), the configs read, and those that exist but could not be read.
func (e *Engine) mcpClaimSources(ctx context.Context, s *Session, server string) (configured bool, read, unreadable []string) {
	if slices.ContainsFunc(e.Config.MCPServersElsewhere, func(n string) bool { return strings.EqualFold(strings.TrimSpace(n), server) }) {
		return true, nil, nil
	}
	read = append(read, mcpconfig.ProjectFiles()...)
	if _, ok := mcpconfig.Find(mcpconfig.Project(s.Worktree), server); ok {
		return true, nil, nil
	}
	if e.OpenRepo != nil {
		if repo, err := e.OpenRepo(ctx, s.Worktree); err == nil {
			if rr, ok := repo.(revReader); ok {
				for _, rev := range []string{s.StartCommit, "HEAD"} {
					if rev == "" {
						continue
					}
					srcs := mcpconfig.ProjectAt(func(rel string) ([]byte, error) { return rr.ReadAt(ctx, rev, rel) })
					if _, ok := mcpconfig.Find(srcs, server); ok {
						return true, nil, nil
					}
				}
				read = append(read, "the same at the session's start commit and at HEAD")
			}
		}
	}
	uc, kept := e.userConfigAtStart(ctx, s)
	claude, _ := userconfig.ClaudeFiles()
	if claude != "" {
		read = append(read, claude)
	}
	if kept && uc.HasServer(server) || !kept && mcpUserConfigured(s.Worktree, server) {
		return true, nil, nil
	}
	user := mcpconfig.User(mcpconfig.Getenv)
	for _, src := range user {
		read = append(read, src.Path)
		if src.Err != nil {
			unreadable = append(unreadable, src.Path)
		}
	}
	if kept && uc.OtherKnown {
		if containsFold(uc.OtherMCPServers, server) {
			return true, nil, nil
		}
	} else if _, ok := mcpconfig.Find(user, server); ok {
		return true, nil, nil
	}
	if kept {
		read = append(read, "(user-level configs as they were when the session started)")
	}
	return false, read, unreadable
}

// claimRefusedFn says, for session s, whether a typed claim for
// requirement r of p (r nil: the phase's unbound evidence) would be
// refused because it asks for a call of an MCP server configured nowhere
// (mcpClaimRefused). A hint then offers the not-applicable mark, which
// sessiongate checks, instead of the claim it would refuse (helper 360's
// open row). Each server is judged once per call of the returned func's
// owner.
func (e *Engine) claimRefusedFn(ctx context.Context, s *Session) claimRefused {
	if s == nil {
		return nil
	}
	known := map[string]bool{}
	configured := func(server string) bool {
		c, ok := known[server]
		if !ok {
			c, _, _ = e.mcpClaimSources(ctx, s, server)
			known[server] = c
		}
		return c
	}
	return func(p *protocolspec.Phase, r *protocolspec.Requirement) bool {
		if r != nil {
			tools, server := toolneed.MCPTools(*r)
			return len(tools) > 0 && !r.Conditional && !equivalentRE.MatchString(r.Text) && !configured(server)
		}
		if p.Condition != "" {
			return false
		}
		server, _, ok := mcpNA(p, nil)
		if !ok {
			return false
		}
		for _, o := range p.OwedRequirements() {
			if _, sv := toolneed.MCPTools(o); sv == server && !o.Conditional {
				return !equivalentRE.MatchString(o.Text) && !configured(server)
			}
		}
		return false
	}
}

// naInstead replaces the steps that record a typed claim refusedFn says
// would be refused with the not-applicable mark.
func naInstead(p *protocolspec.Phase, steps []NextStep, refused claimRefused) []NextStep {
	if refused == nil || p == nil {
		return steps
	}
	for i, st := range steps {
		if st.Action != StepRecordEvidence || !claimCounts(st.EvidenceType) {
			continue
		}
		var r *protocolspec.Requirement
		if st.Requirement != "" {
			rr, ok := p.Requirement(st.Requirement)
			if !ok {
				continue
			}
			r = &rr
		}
		if refused(p, r) {
			steps[i] = NextStep{Action: StepMarkNA, Phase: st.Phase, Requirement: st.Requirement, Why: "its MCP server is configured nowhere sessiongate reads, so a claim of the call is refused; sessiongate checks this mark"}
		}
	}
	return steps
}
