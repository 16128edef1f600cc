package agenthook

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/judgedinput"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/transcript"
)

// claude speaks Claude Code's hook protocol (code.claude.com/docs/en/hooks):
// common fields session_id, transcript_path, cwd, hook_event_name; answers
// are JSON on stdout with exit 0.
type claude struct{}

var claudeKinds = map[string]Kind{
	"SessionStart":       KindStart,
	"UserPromptSubmit":   KindPrompt,
	"PreToolUse":         KindPreTool,
	"PostToolUse":        KindPostTool,
	"PostToolUseFailure": KindPostTool,
	"Stop":               KindStop,
	"SessionEnd":         KindEnd,
	"PreCompact":         KindNoop,
	"SubagentStop":       KindNoop,
	"Notification":       KindNoop,
}

// claudeTools classifies Claude Code's built-in tools.
var claudeTools = map[string]session.ToolKind{
	"Write": session.ToolEdit, "Edit": session.ToolEdit, "MultiEdit": session.ToolEdit, "NotebookEdit": session.ToolEdit,
	"Bash": session.ToolShell,
	"Read": session.ToolRead, "Glob": session.ToolRead, "Grep": session.ToolRead, "LS": session.ToolRead,
	"NotebookRead": session.ToolRead, "WebFetch": session.ToolRead, "WebSearch": session.ToolRead,
}

func (claude) Decode(name string, raw []byte) (*Event, error) {
	m, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	ev := &Event{Agent: "claude", Name: name, Kind: claudeKinds[name]}
	if got := str(m, "hook_event_name"); got != "" && got != name {
		return nil, fmt.Errorf("the event says hook_event_name %q but the hook was installed for %q", got, name)
	}
	ev.AgentSession = str(m, "session_id")
	ev.Dir = str(m, "cwd")
	ev.Transcript = str(m, "transcript_path")
	switch ev.Kind {
	case KindStart:
		ev.Source = str(m, "source")
	case KindEnd:
		ev.Source = str(m, "reason") // clear, resume, logout, prompt_input_exit, other
	case KindPrompt:
		ev.Prompt = str(m, "prompt")
	case KindStop:
		ev.Continuing = boolField(m, "stop_hook_active")
		ev.Waiting = runningSubagents(m["background_tasks"])
	case KindPreTool, KindPostTool:
		ev.ToolID = str(m, "tool_use_id")
		if id := str(m, "agent_id"); session.ValidSubagentID(id) {
			ev.SubAgent = id
		}
		ev.Tool = claudeTool(str(m, "tool_name"), object(m["tool_input"]))
		// PostToolUse's digest is of the input as run, compared with the
		// one PreToolUse judged (inputRewritten).
		ev.ToolDigest = transcript.WitnessDigest(ev.Tool.Name, m["tool_input"])
		ev.InputDigest = judgedinput.Digest(m["tool_input"])
		ev.Background = ev.Tool.Kind == session.ToolShell && judgedinput.Background(m["tool_input"])
		if ev.Kind == KindPostTool && ev.Tool.Kind == session.ToolShell {
			ev.Result = claudeResult(name, m)
			// Claude Code 2.1 reports duration_ms; older versions do not,
			// and the runtime times the call from PreToolUse instead.
			var ms float64
			if json.Unmarshal(m["duration_ms"], &ms) == nil && ms > 0 {
				ev.Result.Duration = time.Duration(ms * float64(time.Millisecond))
			}
		}
	}
	return ev, nil
}

// runningSubagents reads Claude Code 2.1.330's Stop field background_tasks
// ([{"id", "type": "subagent", "status": "running", ...}]): the ids of the
// sub-agents still running. Background shells are left out: a sub-agent's
// stop always sends a notification prompt, a shell's need not.
func runningSubagents(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var tasks []struct {
		ID     string `json:"id"`
		Type   string `json:"type"`
		Status string `json:"status"`
	}
	if json.Unmarshal(raw, &tasks) != nil {
		return nil
	}
	var out []string
	for _, t := range tasks {
		if t.Type == "subagent" && t.Status == "running" && t.ID != "" && len(t.ID) <= 100 && !strings.ContainsAny(t.ID, " \t\n") && len(out) < 20 {
			out = append(out, t.ID)
		}
	}
	return out
}

func claudeTool(name string, in map[string]json.RawMessage) session.ToolCall {
	t := session.ToolCall{Name: name, Kind: claudeTools[name]}
	if t.Kind == "" {
		return otherTool(name, in)
	}
	switch t.Kind {
	case session.ToolEdit:
		for _, k := range []string{"file_path", "notebook_path"} {
			if p := str(in, k); p != "" {
				t.Paths = append(t.Paths, p)
			}
		}
	case session.ToolShell:
		t.Command = str(in, "command")
	}
	return t
}

// claudeResult reads a Bash result: PostToolUse comes only on exit 0 with
// tool_response {stdout, stderr, interrupted}; PostToolUseFailure carries
// error "Exit code N" followed by the output.
func claudeResult(name string, m map[string]json.RawMessage) *ShellResult {
	if name == "PostToolUseFailure" {
		e := str(m, "error")
		return &ShellResult{ExitCode: exitFromText(e, "Exit code "), Output: []byte(e)}
	}
	r := &ShellResult{ExitCode: 0}
	resp := object(m["tool_response"])
	if resp == nil {
		// A plain string response.
		r.Output = []byte(str(m, "tool_response"))
		return r
	}
	out := str(resp, "stdout")
	if e := str(resp, "stderr"); e != "" {
		out += "\n" + e
	}
	r.Output = []byte(out)
	if boolField(resp, "interrupted") {
		r.ExitCode = -1
	}
	return r
}

// exitFromText finds "<prefix>N" in s; 1 when the text has no code (a
// failure without a number is still a failure).
func exitFromText(s, prefix string) int {
	i := strings.Index(s, prefix)
	if i < 0 {
		return 1
	}
	rest := s[i+len(prefix):]
	j := 0
	for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || j == 0 && rest[j] == '-') {
		j++
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil {
		return 1
	}
	return n
}

func (claude) Encode(ev *Event, a *Answer) []byte {
	out := map[string]any{}
	hso := func(fields map[string]any) {
		fields["hookEventName"] = ev.Name
		out["hookSpecificOutput"] = fields
	}
	switch ev.Kind {
	case KindStart, KindPrompt:
		if a.Context != "" {
			hso(map[string]any{"additionalContext": a.Context})
		}
	case KindPreTool:
		// Only a deny is said: "allow" would skip Claude Code's own
		// permission prompts.
		if a.Deny {
			hso(map[string]any{"permissionDecision": "deny", "permissionDecisionReason": a.Reason})
		}
	case KindStop:
		if a.Deny {
			out["decision"] = "block"
			out["reason"] = a.Reason
		}
	case KindPostTool:
		if a.Context != "" {
			hso(map[string]any{"additionalContext": a.Context})
		}
	}
	if a.Notice != "" {
		out["systemMessage"] = a.Notice
	}
	return mustJSON(out)
}
