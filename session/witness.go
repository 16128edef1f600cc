package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/claudesettings"
	"github.com/sessiongate/sessiongate/transcript"
)

// A sub-agent run or an MCP call read from Claude Code's transcript meets
// a requirement only if it happened: the transcript is a file in the
// user's folder, and an agent with a shell can append a line to it by
// means its hook does not parse (a script). Claude Code sends each such
// call to sessiongate's PreToolUse hook before it runs, with the same
// tool_use_id the transcript records, and the hook keeps that id as an
// event. So a call of a tool the project's hook config sends to the hook
// counts only when the hook kept its id; a forged line has none. Where the
// config does not send the tool (an install older than this rule), there
// is nothing to compare, and the call counts as before.

// WitnessedTool reports whether Claude Code's PreToolUse hook records a
// call of tool as the witness of its transcript line: a sub-agent run
// (Agent, Task before 2.1) or an MCP tool.
func WitnessedTool(tool string) bool {
	return tool == "Agent" || tool == "Task" || strings.HasPrefix(tool, "mcp__")
}

// TokenAgentCall is the event the PreToolUse hook keeps for a witnessed
// call; its detail is "<tool_use_id> <tool>".
const TokenAgentCall = "agent:claude:call"

// AgentToolCall keeps the id of a witnessed call the agent's PreToolUse
// hook saw.
func (e *Engine) AgentToolCall(ctx context.Context, sessionID, toolID, tool string) error {
	if toolID == "" || len(toolID) > 200 || !WitnessedTool(tool) {
		return nil
	}
	return e.Store.Update(ctx, func(w Writer) error {
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: TokenAgentCall, Detail: truncate(toolID+" "+tool, 300), CreatedAt: e.now()})
	})
}

// claudeHookPrefix starts the command of sessiongate's Claude Code hooks.
const claudeHookPrefix = "sessiongate agent-hook claude "

// callWitness decides, for the calls of one transcript read, whether each
// sub-agent or MCP call was seen by the hook; it reads the hook config and
// the session's events once, and only when such a call comes.
type callWitness struct {
	e      *Engine
	ctx    context.Context
	s      *Session
	loaded bool
	config [][]byte        // the project's Claude Code settings: the work tree's, the start commit's
	seen   map[string]bool // call ids the hook kept
}

// unwitnessed says why c does not count ("" when it does).
func (cw *callWitness) unwitnessed(c transcript.Call) string {
	if (c.Kind != transcript.Delegate && c.Kind != transcript.MCP) || !WitnessedTool(c.Tool) {
		return ""
	}
	cw.load()
	routed := false
	for _, b := range cw.config {
		routed = routed || claudesettings.Routes(b, "PreToolUse", c.Tool, claudeHookPrefix)
	}
	if !routed || cw.seen[c.ID] {
		return ""
	}
	return "Claude Code's PreToolUse hook, which the project's .claude/settings.json sends " + c.Tool +
		" calls to, never saw call " + c.ID + ": a transcript line no hook saw is not a call the agent made"
}

func (cw *callWitness) load() {
	if cw.loaded {
		return
	}
	cw.loaded = true
	const rel = ".claude/settings.json"
	if b, err := os.ReadFile(filepath.Join(cw.s.Worktree, filepath.FromSlash(rel))); err == nil {
		cw.config = append(cw.config, b)
	}
	if cw.e.OpenRepo != nil && cw.s.StartCommit != "" {
		if repo, err := cw.e.OpenRepo(cw.ctx, cw.s.Worktree); err == nil {
			if b, err := repo.ReadAt(cw.ctx, cw.s.StartCommit, rel); err == nil {
				cw.config = append(cw.config, b)
			}
		}
	}
	cw.seen = map[string]bool{}
	evs, err := cw.e.Store.ListEvents(cw.ctx, cw.s.ID, 0, 0)
	if err != nil {
		// Nothing counts as seen: the calls are refused, and running them
		// again answers it; a store error must not pass a forged line.
		return
	}
	for _, ev := range evs {
		if ev.Token == TokenAgentCall {
			id, _, _ := strings.Cut(ev.Detail, " ")
			cw.seen[id] = true
		}
	}
}
