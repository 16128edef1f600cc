// Package transcript reads the transcripts coding agents write of their own
// sessions (Claude Code's and Gemini CLI's JSONL, Codex's rollout JSONL,
// Copilot CLI's events.jsonl) and turns their tool calls into Calls: files
// read, commands run with their exit status, searches. It needs no session:
// package session decides what a call proves.
//
// A transcript is the agent's own account, written by the agent's process.
// The readers are bounded (MaxLine, MaxRead) and never keep a body: a Call
// holds references (path, command line, pattern) and the sha256 of the
// tool's input.
package transcript

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
)

// Formats, named after the agent that writes them.
const (
	Claude  = "claude"
	Gemini  = "gemini"
	Codex   = "codex"
	Copilot = "copilot"
)

// Formats lists the known formats in a fixed order.
var Formats = []string{Claude, Codex, Copilot, Gemini}

// Kind is what a tool call did, as far as evidence cares.
type Kind string

// Call kinds.
const (
	Read   Kind = "read"   // a file's content reached the model
	Run    Kind = "run"    // a shell command ran
	Search Kind = "search" // a search over files (Grep, Glob, grep tool)
	// Delegate: a sub-agent ran (Claude Code's Agent tool, formerly
	// Task); Agent names its type.
	Delegate Kind = "delegate"
	// MCP: a tool of an MCP server ran (Claude Code's mcp__<server>__<tool>);
	// Tool names it.
	MCP Kind = "mcp"
)

// Limits that bound a reader in memory and time.
const (
	// MaxLine is the longest line parsed; a longer one (a huge tool
	// result) is skipped, and a call whose result it held stays pending.
	MaxLine = 4 << 20
	// MaxPending is the most calls waiting for their result; the oldest
	// is dropped past it (a transcript of calls with no results).
	MaxPending = 256
	// MaxField caps a kept reference (path, command, pattern).
	MaxField = 1024
)

// Call is one finished tool call of a transcript.
type Call struct {
	ID   string `json:"id"`   // the agent's tool call id
	Tool string `json:"tool"` // the agent's tool name: Read, read_file, view, Bash
	Kind Kind   `json:"kind"`
	// Paths are the files a read named, as written (absolute or relative
	// to Dir); for a search, its folder or file when it names one.
	Paths []string `json:"paths,omitempty"`
	// Command is a shell call's command line.
	Command string `json:"command,omitempty"`
	// Pattern is a search's pattern or glob.
	Pattern string `json:"pattern,omitempty"`
	// Agent is a delegation's sub-agent type ("qa", "general-purpose").
	Agent string `json:"agent,omitempty"`
	// Dir is the folder the agent said it worked in ("" unknown).
	Dir string `json:"dir,omitempty"`
	// Exit is a shell call's exit status; -1 when the transcript does
	// not say. Failed is set when the tool reported an error (a read of a
	// missing file, a command that failed).
	Exit   int  `json:"exit"`
	Failed bool `json:"failed,omitempty"`
	// InputSHA256 is the hex sha256 of the tool's input as the transcript
	// holds it (a reference to the call without its body).
	InputSHA256 string `json:"input_sha256"`
	// Witness is WitnessDigest of the call's input, which the agent's
	// hook kept when it saw the call ("" when the format has no hook
	// witness).
	Witness string `json:"witness,omitempty"`
	// Notified marks a sub-agent call Claude Code ran in the background:
	// its tool_result only said it was launched, and the call finished
	// with the <task-notification> the CLI sent as a prompt when the
	// sub-agent stopped. The gate counts it only if the UserPromptSubmit
	// hook saw that notification (session/outcomebound.go).
	Notified bool `json:"notified,omitempty"`
}

// Parser reads one format, line by line. Calls come out when their result
// is seen; calls still waiting are kept (Pending) so that reading can stop
// at any line and go on later from a saved state.
type Parser interface {
	// Line parses one complete line (without its newline) and returns the
	// calls it finished. A line that is not the format's JSON is skipped.
	Line(line []byte) []Call
	// Pending returns the calls still waiting for their result.
	Pending() []Call
	// Restore sets the calls waiting for their result (from Pending).
	Restore([]Call)
}

// NewParser returns the parser of a format.
func NewParser(format string) (Parser, error) {
	switch format {
	case Claude:
		return &claudeParser{pending: pendingSet{}}, nil
	case Gemini:
		return &geminiParser{pending: pendingSet{}, seen: map[string]bool{}}, nil
	case Codex:
		return &codexParser{pending: pendingSet{}}, nil
	case Copilot:
		return &copilotParser{pending: pendingSet{}}, nil
	}
	return nil, fmt.Errorf("unknown transcript format %q (want one of claude, codex, copilot, gemini)", format)
}

// pendingSet holds calls by id until their result comes, in arrival order.
type pendingSet map[string]*pendingCall

type pendingCall struct {
	Call
	seq int
}

func (p pendingSet) add(c Call) {
	if c.ID == "" {
		return
	}
	if len(p) >= MaxPending {
		oldest, seq := "", -1
		for id, x := range p {
			if seq < 0 || x.seq < seq {
				oldest, seq = id, x.seq
			}
		}
		delete(p, oldest)
	}
	next := 0
	for _, x := range p {
		next = max(next, x.seq+1)
	}
	p[c.ID] = &pendingCall{Call: c, seq: next}
}

func (p pendingSet) take(id string) (Call, bool) {
	x, ok := p[id]
	if !ok {
		return Call{}, false
	}
	delete(p, id)
	return x.Call, true
}

func (p pendingSet) list() []Call {
	xs := make([]*pendingCall, 0, len(p))
	for _, x := range p {
		xs = append(xs, x)
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i].seq < xs[j].seq })
	out := make([]Call, len(xs))
	for i, x := range xs {
		out[i] = x.Call
	}
	return out
}

func (p pendingSet) restore(cs []Call) {
	for k := range p {
		delete(p, k)
	}
	for _, c := range cs {
		p.add(c)
	}
}

// inputHash is the sha256 of a tool input as written.
func inputHash(raw []byte) string {
	s := sha256.Sum256(raw)
	return hex.EncodeToString(s[:])
}

// clip caps a kept reference at MaxField bytes, on a rune boundary.
func clip(s string) string {
	if len(s) <= MaxField {
		return s
	}
	s = s[:MaxField]
	for len(s) > 0 && s[len(s)-1]&0xc0 == 0x80 {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] >= 0xc0 {
		s = s[:len(s)-1]
	}
	return s
}

// str reads a string field of a decoded object ("" when absent or not a
// string).
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

func object(raw []byte) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// shellCall builds the Call of a shell command, its reads included.
func shellCall(id, tool, command, dir string, input []byte) Call {
	return Call{ID: id, Tool: tool, Kind: Run, Command: clip(command), Dir: clip(dir), Exit: -1, InputSHA256: inputHash(input)}
}

// finish settles a call from its result: a shell call's exit status
// (exit, -1 when unknown) and whether the tool failed. A shell call whose
// command reads files to the model becomes a Read with those paths as well
// as a Run (Expand).
func finish(c Call, exit int, failed bool) Call {
	c.Failed = failed
	if c.Kind == Run {
		c.Exit = exit
		if failed && exit == 0 {
			c.Exit = -1
		}
	} else {
		c.Exit = 0
		if failed {
			c.Exit = -1
		}
	}
	return c
}

// Expand returns the call, and for a shell command that printed files to
// the model (ShellReads) also a Read call of those files, with the same
// id. A shell read counts only when the command succeeded.
func Expand(c Call) []Call {
	out := []Call{c}
	if c.Kind != Run || c.Exit != 0 {
		return out
	}
	if paths := ShellReads(c.Command); len(paths) > 0 {
		r := c
		r.Kind, r.Paths = Read, paths
		out = append(out, r)
	}
	return out
}
