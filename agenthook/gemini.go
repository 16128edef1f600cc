package agenthook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/transcript"
)

// gemini speaks Gemini CLI's hooks (geminicli.com/docs/hooks/reference):
// common fields session_id, transcript_path, cwd, hook_event_name,
// timestamp; answers {decision, reason, systemMessage, hookSpecificOutput}.
type gemini struct{}

var geminiKinds = map[string]Kind{
	"SessionStart":        KindStart,
	"BeforeAgent":         KindPrompt,
	"BeforeTool":          KindPreTool,
	"AfterTool":           KindPostTool,
	"AfterAgent":          KindStop,
	"SessionEnd":          KindEnd,
	"PreCompress":         KindNoop,
	"Notification":        KindNoop,
	"BeforeModel":         KindNoop,
	"AfterModel":          KindNoop,
	"BeforeToolSelection": KindNoop,
}

// geminiTools classifies Gemini CLI's built-in tools.
var geminiTools = map[string]session.ToolKind{
	"write_file": session.ToolEdit, "replace": session.ToolEdit, "edit": session.ToolEdit,
	"run_shell_command": session.ToolShell,
	"read_file":         session.ToolRead, "read_many_files": session.ToolRead, "list_directory": session.ToolRead,
	"glob": session.ToolRead, "search_file_content": session.ToolRead, "grep": session.ToolRead,
	"web_fetch": session.ToolRead, "google_web_search": session.ToolRead,
}

func (gemini) Decode(name string, raw []byte) (*Event, error) {
	m, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	ev := &Event{Agent: "gemini", Name: name, Kind: geminiKinds[name]}
	ev.AgentSession = str(m, "session_id")
	ev.Dir = str(m, "cwd")
	ev.Transcript = str(m, "transcript_path")
	switch ev.Kind {
	case KindStart:
		ev.Source = str(m, "source")
	case KindPrompt:
		ev.Prompt = str(m, "prompt")
	case KindStop:
		// Gemini CLI answers a blocked AfterAgent by sending the reason as a
		// new prompt; that turn's stop continues the blocked one.
		ev.Continuing = boolField(m, "stop_hook_active") || isStopRetry(str(m, "prompt"))
	case KindPreTool, KindPostTool:
		tn := str(m, "tool_name")
		in := object(m["tool_input"])
		ev.Tool = session.ToolCall{Name: tn, Kind: geminiTools[tn]}
		if ev.Tool.Kind == "" {
			ev.Tool = otherTool(tn, in)
		}
		switch ev.Tool.Kind {
		case session.ToolEdit:
			if p := str(in, "file_path"); p != "" {
				ev.Tool.Paths = append(ev.Tool.Paths, p)
			}
		case session.ToolShell:
			ev.Tool.Command = str(in, "command")
			// is_background: AfterTool comes when it started ("Command
			// moved to background (PID: N)"), no status of it (round 24).
			var bg bool
			ev.Background = json.Unmarshal(in["is_background"], &bg) == nil && bg
		}
		if tn == "read_file" && ev.Kind == KindPreTool {
			// The witness of the chat recording's read_file line (a
			// forged one met a read requirement, issue 25).
			p := str(in, "file_path")
			sum := sha256.Sum256([]byte(ev.AgentSession + "\x00read_file\x00" + p))
			ev.ToolID, ev.ToolDigest = hex.EncodeToString(sum[:12]), transcript.ReadDigest(p)
		}
		if ev.Tool.Kind == session.ToolShell {
			// Gemini CLI gives tool calls no id: pair BeforeTool and
			// AfterTool by session and command line to time the call.
			sum := sha256.Sum256([]byte(ev.AgentSession + "\x00" + ev.Tool.Command))
			ev.ToolID = hex.EncodeToString(sum[:12])
			if ev.Kind == KindPreTool {
				// The witness of the chat recording's line of this call.
				ev.ToolDigest = transcript.CommandDigest(ev.Tool.Command)
			}
		}
		if ev.Kind == KindPostTool && ev.Tool.Kind == session.ToolShell {
			ev.Result = geminiResult(object(m["tool_response"]))
		}
	}
	return ev, nil
}

// geminiResult reads run_shell_command's tool_response {llmContent,
// returnDisplay, error}: llmContent carries "Exit Code: N" ("(none)" on
// success).
func geminiResult(resp map[string]json.RawMessage) *ShellResult {
	content := str(resp, "llmContent")
	if content == "" {
		if raw, ok := resp["llmContent"]; ok {
			content = string(raw)
		}
	}
	r := &ShellResult{Output: []byte(content)}
	failed := false
	if raw, ok := resp["error"]; ok && string(raw) != "null" && len(raw) > 0 {
		failed = true
	}
	switch {
	case strings.Contains(content, "Exit Code: (none)"):
		r.ExitCode = 0
	case strings.Contains(content, "Exit Code: "):
		r.ExitCode = exitFromText(content, "Exit Code: ")
	case strings.Contains(content, "Command moved to background"):
		r.ExitCode = -1 // still running: no status yet
	case failed:
		r.ExitCode = 1
	default:
		r.ExitCode = 0
	}
	return r
}

func (gemini) Encode(ev *Event, a *Answer) []byte {
	out := map[string]any{}
	switch ev.Kind {
	case KindStart, KindPrompt:
		if a.Context != "" {
			out["hookSpecificOutput"] = map[string]any{"hookEventName": ev.Name, "additionalContext": a.Context}
		}
	case KindPreTool, KindStop:
		if a.Deny {
			out["decision"] = "deny"
			out["reason"] = a.Reason
		}
	}
	if a.Notice != "" {
		out["systemMessage"] = a.Notice
	}
	return mustJSON(out)
}
