package agenthook

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/transcript"
)

// codex speaks Codex CLI's hooks (.codex/hooks.json, Claude Code's shape):
// common fields session_id, turn_id, transcript_path, cwd,
// hook_event_name, model. Shell calls arrive as tool_name "Bash" with
// tool_input.command; file writes as "apply_patch" with the patch text in
// tool_input.command. Answers are Claude Code's (hookSpecificOutput deny,
// {"decision":"block"} on Stop, additionalContext).
type codex struct{}

var codexKinds = map[string]Kind{
	"SessionStart":      KindStart,
	"UserPromptSubmit":  KindPrompt,
	"PreToolUse":        KindPreTool,
	"PostToolUse":       KindPostTool,
	"Stop":              KindStop,
	"SessionEnd":        KindEnd,
	"PermissionRequest": KindNoop, // PreToolUse already judged the call
	"PreCompact":        KindNoop,
	"PostCompact":       KindNoop,
	"SubagentStart":     KindNoop,
	"SubagentStop":      KindNoop,
	"PreModelRequest":   KindNoop,
	"PostModelRequest":  KindNoop,
	"Interrupt":         KindNoop,
}

func (codex) Decode(name string, raw []byte) (*Event, error) {
	m, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	ev := &Event{Agent: "codex", Name: name, Kind: codexKinds[name]}
	if got := str(m, "hook_event_name"); got != "" && got != name {
		return nil, fmt.Errorf("the event says hook_event_name %q but the hook was installed for %q", got, name)
	}
	ev.AgentSession = str(m, "session_id")
	ev.Dir = str(m, "cwd")
	ev.Transcript = str(m, "transcript_path")
	switch ev.Kind {
	case KindStart:
		ev.Source = str(m, "source")
	case KindPrompt:
		ev.Prompt = str(m, "prompt")
	case KindStop:
		// Codex has no loop cap of its own: stop_hook_active is how the
		// blocks in a row are counted up to max_stop_blocks.
		ev.Continuing = boolField(m, "stop_hook_active")
	case KindPreTool, KindPostTool:
		ev.ToolID = str(m, "tool_use_id")
		ev.PermissionMode = str(m, "permission_mode")
		ev.Tool = codexTool(str(m, "tool_name"), object(m["tool_input"]))
		if ev.Kind == KindPreTool && ev.Tool.Kind == session.ToolShell {
			ev.ToolDigest = transcript.CommandDigest(ev.Tool.Command)
		}
		if ev.Kind == KindPostTool && ev.Tool.Kind == session.ToolShell {
			ev.Result = codexResult(m["tool_response"])
		}
	}
	return ev, nil
}

// codexTool classifies a Codex tool call. Codex also applies a patch given
// to its shell (`apply_patch <<'EOF' ... EOF`): a Bash line that carries a
// patch keeps its shell checks and has the patch's files judged too.
func codexTool(name string, in map[string]json.RawMessage) session.ToolCall {
	cmd := str(in, "command")
	switch {
	case name == "apply_patch":
		return session.ToolCall{Name: name, Kind: session.ToolEdit, Paths: patchPaths(cmd)}
	case name == "Bash" || name == "shell" || name == "exec_command" || name == "local_shell":
		return session.ToolCall{Name: name, Kind: session.ToolShell, Command: cmd, Paths: patchPaths(cmd)}
	}
	return otherTool(name, in)
}

// patchPaths lists the files an apply_patch text adds, updates, deletes or
// moves to ("*** Add File: x", "*** Update File: x", "*** Delete File: x",
// "*** Move to: x"). Paths are as written: relative to the agent's folder
// or absolute.
func patchPaths(patch string) []string {
	if !strings.Contains(patch, "*** ") {
		return nil
	}
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		for _, p := range []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"} {
			if rest, ok := strings.CutPrefix(line, p); ok {
				if f := strings.TrimSpace(rest); f != "" {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// codexResult reads a Bash PostToolUse tool_response: the command's output
// as a string. Codex 0.171 reports a failed command the same way, with no
// exit status: ExitCode stays -1 (unknown, never a pass) until the runtime
// finds it in the rollout (codexExitFromRollout).
func codexResult(raw json.RawMessage) *ShellResult {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	r := &ShellResult{Output: []byte(s), ExitCode: -1}
	if strings.HasPrefix(s, "Exit code: ") {
		r.ExitCode = exitFromText(s, "Exit code: ")
	}
	if m := object(raw); m != nil {
		for _, k := range []string{"exit_code", "exitCode"} {
			var n int
			if v, ok := m[k]; ok && json.Unmarshal(v, &n) == nil {
				r.ExitCode = n
			}
		}
	}
	return r
}

func (codex) Encode(ev *Event, a *Answer) []byte {
	return claude{}.Encode(ev, a)
}
