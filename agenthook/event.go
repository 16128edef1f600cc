// Package agenthook is the runtime of `sessiongate agent-hook <agent>
// <event>`: it reads one agent lifecycle event (Claude Code, Cursor, Gemini
// CLI, Codex CLI, Copilot) as JSON on stdin, asks the session engine, and answers in that
// agent's documented JSON on stdout. Nothing else is ever written to stdout;
// diagnostics go to stderr. The decisions live in package session; this
// package only translates.
package agenthook

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/shellline"
)

// Kind is what an agent event means to sessiongate, whatever the agent
// calls it.
type Kind int

// Event kinds.
const (
	KindUnknown  Kind = iota
	KindStart         // session start, resume, clear, compact
	KindPrompt        // the user submitted a prompt
	KindPreTool       // a tool is about to run
	KindPostTool      // a tool ran (Result set for shell commands)
	KindStop          // the agent wants to stop
	KindEnd           // the agent session ends
	KindNoop          // known, nothing to do (PreCompact, notifications)
	KindError         // the agent reports an error (Copilot's errorOccurred): recorded
)

// Event is an agent event in sessiongate's terms.
type Event struct {
	Agent        string
	Name         string // the agent's event name
	Kind         Kind
	AgentSession string
	Dir          string // the project folder the event names ("" unknown)
	Source       string // start: startup, resume, clear, compact
	Prompt       string // a prompt; for KindError, what went wrong
	ToolID       string
	Tool         session.ToolCall
	// ToolDigest is transcript.WitnessDigest of the tool's input (Claude
	// Code): kept with ToolID so that a transcript line borrowing the id
	// for another call is told apart.
	ToolDigest string
	// InputDigest is judgedinput.Digest of the tool's whole input (Claude
	// Code): PreToolUse keeps it for a call it allows, PostToolUse's must
	// match (inputRewritten).
	InputDigest string
	// Background: a Claude Code Bash call run with run_in_background; its
	// PostToolUse carries no exit status of the command.
	Background bool
	// Result is set for a shell command that ran.
	Result *ShellResult
	// Continuing: the agent goes on because a stop hook blocked it.
	Continuing bool
	// Waiting names the sub-agents Claude Code's Stop lists as still
	// running in the background (background_tasks): the turn ends, but
	// the CLI sends their <task-notification> as a prompt when they stop.
	Waiting []string
	// SubAgent is Claude Code's agent_id: the call was made by a
	// sub-agent, which may still run it when the main agent runs a gate.
	SubAgent string
	// PermissionMode is Codex's permission_mode ("bypassPermissions",
	// "default", ...): only a call that asked nobody owes a report.
	PermissionMode string
	// Unread is set when the payload could not be read (empty, malformed,
	// over MaxInput, or not read within the time limit): only Agent, Name
	// and Kind (from the name) are known.
	Unread bool
	// Transcript is the path of the agent's own transcript as the event
	// names it (Claude Code's and Gemini CLI's transcript_path); "" when
	// it names none.
	Transcript string
	// writes keeps shellWrites' reading of the shell line: the pre-tool
	// protect checks (transcript, agent config, self binary, git
	// directory) each parsed the same line.
	writes *shellWritten
}

// shellWritten is shellline.WritesIn of one line, with the line it read.
type shellWritten struct {
	shell   shellline.Dialect
	command string
	paths   []string
	ok      bool
}

// shellWrites is shellline.WritesIn of the tool's shell line, parsed once
// per event (again only if the line changed). The paths are a copy the
// caller may append to.
func (ev *Event) shellWrites() ([]string, bool) {
	w := ev.writes
	if w == nil || w.shell != ev.Tool.Shell || w.command != ev.Tool.Command {
		ps, ok := shellline.WritesIn(ev.Tool.Shell, ev.Tool.Command)
		w = &shellWritten{shell: ev.Tool.Shell, command: ev.Tool.Command, paths: ps, ok: ok}
		ev.writes = w
	}
	return slices.Clone(w.paths), w.ok
}

// ShellResult is a finished shell command as the agent reports it.
type ShellResult struct {
	ExitCode int // -1 when the agent does not say
	Duration time.Duration
	Output   []byte
}

// Answer is what the hook tells the agent, before each agent's encoding.
type Answer struct {
	Deny    bool   // pre-tool: refuse the tool; stop: keep the agent going
	Reason  string // for the model: why, and the next step
	Context string // extra context for the model (session start, prompt)
	Notice  string // for the user (a warning, a recorded violation)
}

// Codec reads one agent's events and writes its answers.
type Codec interface {
	// Decode parses the event JSON of the named event.
	Decode(name string, raw []byte) (*Event, error)
	// Encode writes the answer to ev in the agent's format. ev.Kind is
	// KindUnknown when the event could not be read.
	Encode(ev *Event, a *Answer) []byte
}

// Codecs are the agents `agent-hook` speaks for.
var Codecs = map[string]Codec{
	"claude":  claude{},
	"codex":   codex{},
	"copilot": copilot{},
	"cursor":  cursor{},
	"gemini":  gemini{},
}

// eventKind is the kind of an agent's event by its name alone (a Copilot
// file with PascalCase events uses Claude Code's names).
func eventKind(agent, name string) Kind {
	switch agent {
	case "claude":
		return claudeKinds[name]
	case "codex":
		return codexKinds[name]
	case "copilot":
		if pascal(name) {
			return claudeKinds[name]
		}
		return copilotKinds[name]
	case "cursor":
		return cursorKinds[name]
	case "gemini":
		return geminiKinds[name]
	}
	return KindUnknown
}

// Agents lists the agent names in a fixed order, for messages.
var Agents = []string{"claude", "codex", "copilot", "cursor", "gemini"}

// str reads a string field of a decoded JSON object; "" when absent or not
// a string.
func str(m map[string]json.RawMessage, k string) string {
	raw, ok := m[k]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

func boolField(m map[string]json.RawMessage, k string) bool {
	var b bool
	if raw, ok := m[k]; ok && json.Unmarshal(raw, &b) == nil {
		return b
	}
	return false
}

func object(raw json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if len(raw) > 0 && json.Unmarshal(raw, &m) == nil {
		return m
	}
	return nil
}

// mustJSON encodes an answer object; the values are strings and bools, so
// it cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("{}\n")
	}
	return append(b, '\n')
}

// isStopRetry reports whether a prompt is an agent re-sending sessiongate's
// stop-block reason (session.AgentStop writes "stop blocked N of M times;
// then it is let through and recorded as a violation").
func isStopRetry(prompt string) bool {
	return strings.Contains(prompt, "stop blocked ") && strings.Contains(prompt, "recorded as a violation")
}
