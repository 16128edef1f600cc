package session

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/mcpconfig"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
	"github.com/sessiongate/sessiongate/transcript"
	"github.com/sessiongate/sessiongate/userconfig"
)

// A requirement that names an MCP tool ("The agent MUST call
// mcp__serena__activate_project", "read the memory using
// mcp__serena__read_memory") asks for a tool call, which the agent's
// transcript records under that very name; v3.0-style protocols say so in
// their evidence table ("Tool calls: session transcript"). While Claude
// Code's transcript is known and the tool's server is configured for the
// project (.mcp.json, protected during a session, or Claude Code's user
// config), only a call of a named tool that did not fail meets it. Where
// the server is configured nowhere the call cannot be made: a claim is
// refused (mcpclaim.go) and the honest move is a not-applicable mark.

// mcpEvidence is the evidence an MCP call gives r, if r names its tool
// and the call did not fail.
func mcpEvidence(r protocolspec.Requirement, c transcript.Call) (Evidence, bool) {
	tools, _ := toolneed.MCPTools(r)
	if c.Failed || !containsFold(tools, c.Tool) {
		return Evidence{}, false
	}
	zero := 0
	return Evidence{Kind: EvidenceToolOutput, Origin: OriginTranscript, SHA256: c.InputSHA256,
		Ref: truncate(fmt.Sprintf("%s (call %s)", c.Tool, c.ID), 200), ExitCode: &zero}, true
}

// mcpNeeds says why a claim does not count for a requirement naming an
// MCP tool while Claude Code's transcript is known ("" when it does).
func mcpNeeds(info transcriptInfo, r protocolspec.Requirement) string {
	tools, server := toolneed.MCPTools(r)
	if len(tools) == 0 || info.agent != transcript.Claude || info.broken != "" {
		return ""
	}
	// A server configured when the session started still counts after
	// .mcp.json is blanked: the agent cannot make the call impossible by
	// editing the file and win back claims.
	if !mcpConfigured(info.worktree, server) && (info.configuredAtStart == nil || !info.configuredAtStart(server)) {
		return ""
	}
	return fmt.Sprintf("the agent's %s transcript shows no call of %s: %s; a claim does not count while the agent's transcript is known",
		info.agent, strings.Join(tools, " or "), toolneed.MCPCall(tools))
}

// mcpConfigured reports whether Claude Code would offer server's tools in
// worktree: the project's .mcp.json, or the user's ~/.claude.json (top
// level, or under the project's path).
func mcpConfigured(worktree, server string) bool {
	b, err := boundedread.File(filepath.Join(worktree, ".mcp.json"), boundedread.DefaultLimit)
	if err == nil {
		if _, ok := userconfig.MCPServersOf(b)[server]; ok {
			return true
		}
	}
	return mcpUserConfigured(worktree, server)
}

// mcpUserConfigured reports whether Claude Code's user config
// (CLAUDE_CONFIG_DIR or ~/.claude.json) offers server, at its top level or
// for the project at worktree.
func mcpUserConfigured(worktree, server string) bool {
	return userconfig.Config{MCPServers: userconfig.MCPServers(worktree)}.HasServer(server)
}

// revReader reads a file as committed (gitrepo.Repo does).
type revReader interface {
	ReadAt(ctx context.Context, rev, path string) ([]byte, error)
}

// mcpCommitted reports whether .mcp.json at the session's start commit or
// at HEAD configures server, and which.
func (e *Engine) mcpCommitted(ctx context.Context, s *Session, server string) (string, bool) {
	if e.OpenRepo == nil {
		return "", false
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return "", false
	}
	rr, ok := repo.(revReader)
	if !ok {
		return "", false
	}
	for _, rev := range []string{s.StartCommit, "HEAD"} {
		if rev == "" {
			continue
		}
		b, err := rr.ReadAt(ctx, rev, ".mcp.json")
		if err != nil {
			continue // no .mcp.json there (or an unborn HEAD)
		}
		if _, ok := userconfig.MCPServersOf(b)[server]; ok {
			where := "at HEAD"
			if rev == s.StartCommit {
				where = "at the session's start commit " + shortSHA(rev)
			}
			return where, true
		}
	}
	return "", false
}

// mcpWhere says where server is configured for session s: the work tree's
// .mcp.json, the one committed at the session's start or at HEAD, or
// Claude Code's user config; "" when nowhere.
func (e *Engine) mcpWhere(ctx context.Context, s *Session, server string) string {
	b, err := boundedread.File(filepath.Join(s.Worktree, ".mcp.json"), boundedread.DefaultLimit)
	if err == nil {
		if _, ok := userconfig.MCPServersOf(b)[server]; ok {
			return ".mcp.json in the work tree"
		}
	}
	if where, ok := e.mcpCommitted(ctx, s, server); ok {
		return ".mcp.json " + where
	}
	// Another agent's repository config, or a person's word in
	// sessiongate.yaml (mcpclaim.go), says the server is there as surely.
	if src, ok := mcpconfig.Find(mcpconfig.Project(s.Worktree), server); ok {
		return src.Path + " in the work tree"
	}
	if containsFold(e.Config.MCPServersElsewhere, server) {
		return "sessiongate.yaml's mcp_servers_elsewhere"
	}
	if mcpUserConfigured(s.Worktree, server) {
		return "Claude Code's user config (.claude.json)"
	}
	if uc, ok := e.userConfigAtStart(ctx, s); ok && uc.HasServer(server) {
		return "Claude Code's user config (.claude.json) when the session started"
	}
	return ""
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
