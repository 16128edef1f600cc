package agenthook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// cursor speaks Cursor's hooks (.cursor/hooks.json, version 1): common
// fields conversation_id, generation_id, hook_event_name, workspace_roots.
// Permission events answer {permission, user_message, agent_message}; stop
// answers {followup_message}; sessionStart {additional_context}.
type cursor struct{}

var cursorKinds = map[string]Kind{
	"sessionStart":         KindStart,
	"beforeSubmitPrompt":   KindPrompt,
	"preToolUse":           KindPreTool,
	"beforeShellExecution": KindPreTool,
	"beforeReadFile":       KindPreTool,
	"beforeMCPExecution":   KindPreTool,
	"afterShellExecution":  KindPostTool,
	"postToolUse":          KindNoop, // shell results come from afterShellExecution
	"afterFileEdit":        KindNoop,
	"stop":                 KindStop,
	"sessionEnd":           KindEnd,
	"preCompact":           KindNoop,
	"afterAgentResponse":   KindNoop,
	"afterAgentThought":    KindNoop,
	"afterMCPExecution":    KindNoop,
}

// cursorTools classifies the tool names preToolUse reports.
var cursorTools = map[string]session.ToolKind{
	"Write": session.ToolEdit, "Edit": session.ToolEdit, "StrReplace": session.ToolEdit, "MultiEdit": session.ToolEdit,
	"Delete": session.ToolEdit, "EditNotebook": session.ToolEdit, "NotebookEdit": session.ToolEdit,
	"Shell": session.ToolShell,
	"Read":  session.ToolRead, "Grep": session.ToolRead, "Glob": session.ToolRead, "LS": session.ToolRead,
	"SemanticSearch": session.ToolRead, "WebSearch": session.ToolRead, "WebFetch": session.ToolRead,
}

func (cursor) Decode(name string, raw []byte) (*Event, error) {
	m, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	ev := &Event{Agent: "cursor", Name: name, Kind: cursorKinds[name]}
	ev.AgentSession = str(m, "conversation_id")
	if ev.AgentSession == "" {
		ev.AgentSession = str(m, "session_id")
	}
	var roots []string
	if json.Unmarshal(m["workspace_roots"], &roots) == nil && len(roots) > 0 {
		ev.Dir = roots[0]
	}
	if ev.Dir == "" {
		ev.Dir = str(m, "cwd")
	}
	switch name {
	case "sessionStart":
		ev.Source = "startup"
	case "beforeSubmitPrompt":
		ev.Prompt = str(m, "prompt")
	case "stop":
		var n int
		if json.Unmarshal(m["loop_count"], &n) == nil && n > 0 {
			ev.Continuing = true
		}
	case "beforeShellExecution":
		ev.Tool = session.ToolCall{Kind: session.ToolShell, Name: "Shell", Command: str(m, "command")}
		ev.ToolID = cursorShellID(ev.AgentSession, ev.Tool.Command)
	case "beforeReadFile":
		ev.Tool = session.ToolCall{Kind: session.ToolRead, Name: "Read"}
	case "beforeMCPExecution":
		ev.Tool = session.ToolCall{Kind: session.ToolOther, Name: str(m, "tool_name")}
	case "preToolUse":
		ev.ToolID = str(m, "tool_use_id")
		tn := str(m, "tool_name")
		in := object(m["tool_input"])
		ev.Tool = session.ToolCall{Name: tn, Kind: cursorTools[tn]}
		if ev.Tool.Kind == "" {
			ev.Tool.Kind = session.ToolOther
			ev.Tool.Paths = otherToolPaths(tn, in)
		}
		switch ev.Tool.Kind {
		case session.ToolEdit:
			for _, k := range []string{"file_path", "path", "target_file", "target_notebook"} {
				if p := str(in, k); p != "" {
					ev.Tool.Paths = append(ev.Tool.Paths, p)
				}
			}
		case session.ToolShell:
			ev.Tool.Command = str(in, "command")
		}
	case "afterShellExecution":
		ev.Tool = session.ToolCall{Kind: session.ToolShell, Name: "Shell", Command: str(m, "command")}
		ev.ToolID = cursorShellID(ev.AgentSession, ev.Tool.Command)
		r := &ShellResult{ExitCode: -1, Output: []byte(str(m, "output"))}
		// The documented payload has no exit code; a newer one may.
		for _, k := range []string{"exit_code", "exitCode"} {
			var n int
			if raw, ok := m[k]; ok && json.Unmarshal(raw, &n) == nil {
				r.ExitCode = n
			}
		}
		var ms float64
		if json.Unmarshal(m["duration"], &ms) == nil && ms > 0 {
			r.Duration = time.Duration(ms * float64(time.Millisecond))
		}
		ev.Result = r
	}
	return ev, nil
}

func (cursor) Encode(ev *Event, a *Answer) []byte {
	out := map[string]any{}
	switch {
	case ev.Kind == KindPreTool || strings.HasPrefix(ev.Name, "before") && ev.Name != "beforeSubmitPrompt":
		if a.Deny {
			out["permission"] = "deny"
			out["agent_message"] = a.Reason
			out["user_message"] = a.Reason
		} else {
			out["permission"] = "allow"
			if a.Notice != "" {
				out["user_message"] = a.Notice
			}
		}
	case ev.Kind == KindPrompt:
		out["continue"] = true
		if a.Notice != "" {
			out["user_message"] = a.Notice
		}
	case ev.Kind == KindStart:
		if a.Context != "" {
			out["additional_context"] = a.Context
		}
	case ev.Kind == KindStop:
		if a.Deny {
			out["followup_message"] = a.Reason
		}
	}
	return mustJSON(out)
}

// cursorShellID pairs a beforeShellExecution with its afterShellExecution:
// Cursor's documented shell payloads carry no call id, so the pair is
// named by conversation and command line, as Gemini CLI's (identical lines
// pair by count, in order). It lets a shell call that never reported be
// named at stop and at the gates (TOOL_RESULT_MISSING).
func cursorShellID(conversation, command string) string {
	sum := sha256.Sum256([]byte(conversation + "\x00" + command))
	return "cursor-" + hex.EncodeToString(sum[:12])
}
