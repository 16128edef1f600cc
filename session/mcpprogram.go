package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/lintweakened"
	"github.com/sessiongate/sessiongate/mcpconfig"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/toolneed"
)

// The program an MCP config starts answers the server's calls, and the
// transcript records what it answered (mcpconfig/programs.go). The agent
// hook denies a write that replaces or creates that program (the command
// as PATH resolves it, ~/.local/bin included, or a work-tree script the
// config runs) and an agent CLI's own `mcp add`/`remove` of a server the
// protocol names or a config defines, in any scope; the evidence rule
// (mcpDistrust) takes no call of a server whose work-tree program the
// session (or an earlier agent session) changed, or whose user-level
// definition is not the one the session started with.

// homeWordRE: a home-folder word the line rules leave out of a line's
// writes (`cp fake.py ~/.local/bin/uvx`), spelled so they read it.
var homeWordRE = lazyregexp.New(`(^|[\s=>|;&('"])(?:~|\$HOME|\$\{HOME\})/`)

// mcpProgramWrite names how call replaces, creates or redefines what an
// MCP server starts, "" when it does not. rawWrites are the shell line's
// writes (absolute) as agentPreTool read them.
func (e *Engine) mcpProgramWrite(ctx context.Context, bd *AgentBound, root string, call ToolCall, rawWrites, lines []string) string {
	var writes []string
	var words []string
	switch call.Kind {
	case ToolEdit:
		for _, p := range call.Paths {
			if !filepath.IsAbs(p) {
				p = filepath.Join(root, p)
			}
			writes = append(writes, p)
		}
	case ToolShell:
		if call.Shell == shellline.PowerShell {
			return ""
		}
		writes = append(writes, rawWrites...)
		if home := os.Getenv("HOME"); home != "" && strings.ContainsAny(call.Command, "~$") && homeWordRE.MatchString(call.Command) {
			line := homeWordRE.ReplaceAllString(call.Command, "${1}"+home+"/")
			if ws, ok := shellline.WritesIn(call.Shell, line); ok {
				writes = append(writes, ws...)
			}
			lines = shellline.LinesIn(call.Shell, line)
		}
		for _, l := range lines {
			calls, _, ok := shellline.Calls(shellline.Unwrap(l))
			if !ok {
				continue
			}
			for _, c := range calls {
				ws := shellline.StripWrappers(c.Words)
				words = append(words, ws...)
				// The last operand of a copy, move or link is written
				// whatever its source (`ln -sf "$PWD/fake.py" ~/.local/bin/uvx`,
				// whose variable source leaves the line's write list empty).
				if len(ws) > 2 && slices.Contains([]string{"ln", "cp", "mv", "install", "rsync"}, filepath.Base(ws[0])) {
					writes = append(writes, ws[len(ws)-1])
				}
				// A program built or fetched onto the path (`go build -o
				// ~/.local/bin/uvx ./fake`, `curl -o`, `wget -O`).
				for j := 1; j+1 < len(ws); j++ {
					if ws[j] == "-o" || ws[j] == "-O" || ws[j] == "--output" {
						writes = append(writes, ws[j+1])
					}
				}
				if cli, sub, name, ok := mcpconfig.CLIDefine(ws); ok {
					if how := e.mcpRedefines(ctx, bd, root, cli, sub, name); how != "" {
						return how
					}
				}
			}
		}
	default:
		return ""
	}
	if len(writes) == 0 {
		return ""
	}
	for i, w := range writes {
		if !filepath.IsAbs(w) {
			writes[i] = filepath.Join(root, w)
		}
	}
	// Programs are matched by file name: parse the configs only when one
	// holds a name this call writes or says.
	names := make([]string, 0, len(writes)+len(words))
	for _, w := range writes {
		names = append(names, filepath.Base(w))
	}
	for _, w := range words {
		// A flag or a two-letter word (`cp`, in "mcpServers") names no
		// program a config starts by name.
		if b := filepath.Base(w); len(b) > 2 && !strings.HasPrefix(w, "-") {
			names = append(names, b)
		}
	}
	if !mcpconfig.MayName(root, os.Getenv, names) {
		return ""
	}
	defs := mcpconfig.Defs(root, os.Getenv)
	if server, prog := mcpconfig.Replaced(defs, root, os.Getenv, writes, words); server != "" {
		return fmt.Sprintf("%s writes %s, the program the %s MCP server's config starts: a program put there answers the server's calls, and the agent's transcript would show them as the server's", orTool(call.Name), prog, server)
	}
	return ""
}

// mcpRedefines names why an agent CLI's `mcp SUB NAME` is denied: NAME is
// a server the protocol names (mcp__NAME__tool) or a config defines, in
// any scope (a user-scope definition is outside the repository, where the
// protected config files cannot see it).
func (e *Engine) mcpRedefines(ctx context.Context, bd *AgentBound, root, cli, sub, name string) string {
	named := mcpProtocolServers(ctx, e, bd)
	for _, d := range mcpconfig.Defs(root, os.Getenv) {
		named = append(named, d.Name)
	}
	what := fmt.Sprintf("`%s mcp %s %s`", cli, sub, name)
	switch {
	case name == "" && len(named) > 0:
		what = fmt.Sprintf("`%s mcp %s`", cli, sub)
		return what + " would define MCP servers (" + strings.Join(named, ", ") + " among them) where the protected config files cannot see it: the server the protocol's calls are evidence from must be the one a person configured"
	case name != "" && containsFold(named, name):
		return what + " would define the " + name + " MCP server again (in a scope outside the repository too): the server the protocol's calls are evidence from must be the one a person configured"
	}
	return ""
}

// mcpProtocolServers are the servers the session's protocol names
// (mcp__NAME__tool); none without a session.
func mcpProtocolServers(ctx context.Context, e *Engine, bd *AgentBound) []string {
	if bd == nil || bd.Session == nil {
		return nil
	}
	spec, err := e.boundSpec(ctx, bd)
	if err != nil || spec == nil {
		return nil
	}
	var out []string
	for i := range spec.Phases {
		for _, r := range spec.Phases[i].Requirements {
			if _, server := toolneed.MCPTools(r); server != "" && !containsFold(out, server) {
				out = append(out, server)
			}
		}
	}
	return out
}

// mcpDistrust says why no call of server counts as evidence for session
// s, "" when its calls may: a work-tree file its config starts was changed
// by this session or by an earlier agent session's unmerged commit (what
// a person committed is the team's), or a user-level definition of it is
// not the one the session started with (git protects none of those files;
// a definition written during the session is the agent's). A session that
// kept no start definitions judges the work-tree programs only.
func (e *Engine) mcpDistrust(ctx context.Context, s *Session, server string) string {
	var defs []mcpconfig.Def
	for _, d := range mcpconfig.Defs(s.Worktree, os.Getenv) {
		if strings.EqualFold(d.Name, server) {
			defs = append(defs, d)
		}
	}
	if uc, ok := e.userConfigAtStart(ctx, s); ok && uc.MCPDefsKnown {
		for _, d := range defs {
			if d.User && uc.MCPDefs[mcpDefKey(d)] != d.Hash[:16] {
				return fmt.Sprintf("the %s MCP server's definition in %s was written or changed after the session started, outside what git protects: its calls are not evidence", server, d.Source)
			}
		}
	}
	var files []string
	for _, d := range defs {
		for _, p := range mcpconfig.Programs(d, s.Worktree, os.Getenv) {
			if rel, err := filepath.Rel(s.Worktree, p); err == nil && filepath.IsLocal(rel) && !slices.Contains(files, p) {
				if _, err := os.Stat(p); err == nil {
					files = append(files, p)
				}
			}
		}
	}
	if len(files) == 0 || e.OpenRepo == nil {
		return ""
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return ""
	}
	for _, p := range files {
		if who := agentChanged(ctx, repo, s, p); who != "" {
			rel, _ := filepath.Rel(s.Worktree, p)
			return fmt.Sprintf("the %s MCP server's config starts %s, which %s changed since a person's commit: the program answering its calls is an agent's, so its calls are not evidence", server, filepath.ToSlash(rel), who)
		}
	}
	return ""
}

// mcpServerOf is the server of an MCP tool name (mcp__serena__x: serena).
func mcpServerOf(tool string) string {
	rest, ok := strings.CutPrefix(tool, "mcp__")
	if !ok {
		return ""
	}
	server, _, ok := strings.Cut(rest, "__")
	if !ok {
		return ""
	}
	return server
}

// agentChanged is lintweakened.AgentChanged for s ("" on a read error:
// the call is then judged as before).
func agentChanged(ctx context.Context, repo Repo, s *Session, file string) string {
	who, err := lintweakened.AgentChanged(ctx, repo, lintSession(s), file)
	if err != nil {
		return ""
	}
	return who
}

// mcpDistrustFn is mcpDistrust for s, each server judged once per read of
// the transcript (only when a call of it would be evidence).
func (e *Engine) mcpDistrustFn(ctx context.Context, s *Session) func(string) string {
	known := map[string]string{}
	return func(server string) string {
		if server == "" {
			return ""
		}
		why, ok := known[server]
		if !ok {
			why = e.mcpDistrust(ctx, s, server)
			known[server] = why
		}
		return why
	}
}
