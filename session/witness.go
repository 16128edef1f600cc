package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/claudesettings"
	"github.com/sessiongate/sessiongate/transcript"
)

// A tool call read from Claude Code's transcript meets a requirement only
// if it happened: the transcript is a file in the user's folder, and an
// agent with a shell can append a line to it by means its hook does not
// parse (a script that finds the file by itself). Claude Code sends each
// Bash, sub-agent (Agent, Task) and MCP call to sessiongate's PreToolUse
// hook before it runs, with the same tool_use_id the transcript records,
// and the hook keeps that id with the digest of the call's input
// (transcript.WitnessDigest: a Bash call's command line) as an event. So
// a call of a tool the project's hook config sends to the hook counts only
// when the hook kept its id with the same input: a forged line has a new
// id, or a real call's id with another command. Where the config does not
// send the tool (an install older than this rule), there is nothing to
// compare, and the call counts as before. Read, Grep, Glob (and LS,
// NotebookRead) are sent too since issue 25 item 4: a forged Read line met
// "MUST read docs/X" (docs/security.md); their hook only keeps the id and
// digest (agenthook: no policy work for a read). Codex's PreToolUse names a shell call by the
// rollout's call_id, so Codex's shell calls are witnessed the same way
// (.codex/hooks.json, TokenCodexCall).

// WitnessedTool reports whether Claude Code's PreToolUse hook records a
// call of tool as the witness of its transcript line: a shell call (Bash),
// a sub-agent run (Agent, Task before 2.1), an MCP tool, or a read (Read,
// NotebookRead, Grep, Glob, LS).
func WitnessedTool(tool string) bool {
	switch tool {
	case "Bash", "Agent", "Task", "Read", "NotebookRead", "Grep", "Glob", "LS":
		return true
	}
	return strings.HasPrefix(tool, "mcp__")
}

// TokenAgentCall is the event the PreToolUse hook keeps for a witnessed
// call; its detail is "<tool_use_id> <tool> <input digest>" (the digest
// is missing from events of older hooks). TokenCodexCall is Codex's: its
// PreToolUse names a shell call by the rollout's call_id.
const (
	TokenAgentCall = "agent:claude:call"
	TokenCodexCall = "agent:codex:call"
)

// codexShellTools are the rollout's names of a Codex shell call, which its
// PreToolUse hook sees as Bash.
var codexShellTools = map[string]bool{"exec_command": true, "shell": true, "shell_command": true, "local_shell": true, "container.exec": true}

// AgentToolCall keeps the id of a witnessed call Claude Code's PreToolUse
// hook saw, with the digest of its input (transcript.WitnessDigest; ""
// when unknown). timed also records the call's start (AgentToolStart) in
// the same transaction: a Bash call is both timed and witnessed, and the
// hook runs before every one of them.
func (e *Engine) AgentToolCall(ctx context.Context, sessionID, agent, toolID, tool, digest string, timed bool) error {
	if toolID == "" || len(toolID) > 200 || strings.ContainsAny(toolID, " \t\n") {
		return nil
	}
	witness := WitnessedTool(tool) && agent == "claude" || tool == "Bash" && agent == "codex"
	if !witness && !timed {
		return nil
	}
	if len(digest) != 64 {
		digest = ""
	}
	now := e.now()
	return e.Store.Update(ctx, func(w Writer) error {
		if timed {
			if aw, ok := w.(AgentWriter); ok {
				if err := aw.PutToolStart(ctx, agent, toolID, now); err != nil {
					return err
				}
			}
		}
		if !witness {
			return nil
		}
		tok := TokenAgentCall
		if agent == "codex" {
			tok = TokenCodexCall
		}
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: tok, Detail: truncate(strings.TrimSpace(toolID+" "+tool+" "+digest), 300), CreatedAt: now})
	})
}

// callWitness decides, for the calls of one agent's transcripts, whether
// each witnessed call was seen by the hook; it reads the hook config and
// the session's events once, and only when such a call comes.
type callWitness struct {
	e      *Engine
	ctx    context.Context
	s      *Session
	agent  string // claude or codex; no other agent's hook names its calls
	loaded bool
	config [][]byte                   // the project's hook config: the work tree's, the start commit's
	seen   map[string]map[string]bool // call ids the hook kept: the digests of their inputs
}

// witnessSide is, for an agent, where its project hook config lives, the
// command prefix of sessiongate's hook in it, and the event that keeps a
// witnessed call; ok false for an agent whose hooks name no call ids.
func witnessSide(agent string) (config, prefix, token string, ok bool) {
	switch agent {
	case transcript.Claude:
		return ".claude/settings.json", "sessiongate agent-hook claude ", TokenAgentCall, true
	case transcript.Codex:
		return ".codex/hooks.json", "sessiongate agent-hook codex ", TokenCodexCall, true
	}
	return "", "", "", false
}

// unwitnessed says why c does not count ("" when it does).
func (cw *callWitness) unwitnessed(c transcript.Call) string {
	hookTool := c.Tool // the name the hook config's matcher sees
	switch {
	case cw.agent == transcript.Claude && WitnessedTool(c.Tool):
	case cw.agent == transcript.Codex && codexShellTools[c.Tool]:
		hookTool = "Bash"
	default:
		return ""
	}
	rel, prefix, _, _ := witnessSide(cw.agent)
	cw.load()
	routed := false
	for _, b := range cw.config {
		routed = routed || claudesettings.Routes(b, "PreToolUse", hookTool, prefix)
	}
	if !routed {
		return ""
	}
	who := map[string]string{transcript.Claude: "Claude Code", transcript.Codex: "Codex"}[cw.agent]
	digests, seen := cw.seen[c.ID]
	if !seen {
		return who + "'s PreToolUse hook, which the project's " + rel + " sends " + hookTool +
			" calls to, never saw call " + c.ID + ": a transcript line no hook saw is not a call the agent made"
	}
	// An event of an older hook keeps no digest: the id is all there is.
	if c.Witness == "" || digests[""] || digests[c.Witness] {
		return ""
	}
	what := "its input"
	if c.Command != "" {
		what = "its command `" + truncate(c.Command, 80) + "`"
	}
	return who + "'s PreToolUse hook saw call " + c.ID + " (" + c.Tool + ") with other input than the transcript's line gives it (" +
		what + "): a line that borrows a real call's id for another call is not a call the agent made"
}

func (cw *callWitness) load() {
	if cw.loaded {
		return
	}
	cw.loaded = true
	rel, _, token, _ := witnessSide(cw.agent)
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
	cw.seen = map[string]map[string]bool{}
	evs, err := cw.e.Store.ListEvents(cw.ctx, cw.s.ID, 0, 0)
	if err != nil {
		// Nothing counts as seen: the calls are refused, and running them
		// again answers it; a store error must not pass a forged line.
		return
	}
	for _, ev := range evs {
		if ev.Token == token {
			f := strings.Fields(ev.Detail)
			if len(f) == 0 {
				continue
			}
			digest := ""
			if len(f) > 2 {
				digest = f[2]
			}
			if cw.seen[f[0]] == nil {
				cw.seen[f[0]] = map[string]bool{}
			}
			cw.seen[f[0]][digest] = true
		}
	}
}
