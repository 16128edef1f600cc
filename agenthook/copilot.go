package agenthook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"unicode"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/judgedinput"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/transcript"
)

// copilot speaks GitHub Copilot's hooks (Copilot CLI, and the cloud agent
// that reads .github/hooks/*.json from the default branch). A version 1
// file with camelCase events sends camelCase payloads (sessionId, cwd,
// toolName, toolArgs) and reads top-level answers: permissionDecision and
// permissionDecisionReason on preToolUse, {"decision":"block"} on
// agentStop, additionalContext on sessionStart, userPromptSubmitted and
// postToolUse. A file with PascalCase events (Claude Code's names) is
// accepted too: its payloads are snake_case with Claude's tool names, and
// are decoded as such here.
type copilot struct{}

var copilotKinds = map[string]Kind{
	"sessionStart":          KindStart,
	"userPromptSubmitted":   KindPrompt,
	"preToolUse":            KindPreTool,
	"postToolUse":           KindPostTool,
	"postToolUseFailure":    KindPostTool,
	"agentStop":             KindStop,
	"sessionEnd":            KindEnd,
	"errorOccurred":         KindError,
	"userPromptTransformed": KindNoop,
	"permissionRequest":     KindNoop, // preToolUse already judged the call
	"preMcpToolCall":        KindNoop,
	"subagentStart":         KindNoop,
	"subagentStop":          KindNoop,
	"preCompact":            KindNoop,
	"notification":          KindNoop,
}

// copilotTools classifies Copilot CLI's built-in tools. write_bash and
// write_powershell type into a running shell: what they send is a command.
var copilotTools = map[string]session.ToolKind{
	"create": session.ToolEdit, "edit": session.ToolEdit, "str_replace_editor": session.ToolEdit, "apply_patch": session.ToolEdit,
	"bash": session.ToolShell, "powershell": session.ToolShell, "write_bash": session.ToolShell, "write_powershell": session.ToolShell,
	"view": session.ToolRead, "grep": session.ToolRead, "glob": session.ToolRead, "read_bash": session.ToolRead,
	"read_powershell": session.ToolRead, "list_bash": session.ToolRead, "list_powershell": session.ToolRead,
	"stop_bash": session.ToolRead, "stop_powershell": session.ToolRead, "web_fetch": session.ToolRead,
	"report_intent": session.ToolRead, "think": session.ToolRead, "update_todo": session.ToolRead,
}

// pascal reports whether an event name is PascalCase (a Copilot hook file
// written with Claude Code's event names).
func pascal(name string) bool {
	return name != "" && unicode.IsUpper(rune(name[0]))
}

func (copilot) Decode(name string, raw []byte) (*Event, error) {
	if pascal(name) {
		ev, err := claude{}.Decode(name, raw)
		if err != nil {
			return nil, err
		}
		ev.Agent = "copilot"
		if ev.Kind == KindPostTool && ev.Tool.Kind == session.ToolShell {
			m, _ := decodeObject(raw)
			ev.Result = copilotResult(object(m["tool_result"]), "result_type", "text_result_for_llm")
		}
		copilotToolID(ev)
		return ev, nil
	}
	m, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	ev := &Event{Agent: "copilot", Name: name, Kind: copilotKinds[name]}
	ev.AgentSession = str(m, "sessionId")
	ev.Dir = str(m, "cwd")
	// Only agentStop names the transcript (transcriptPath).
	ev.Transcript = str(m, "transcriptPath")
	switch ev.Kind {
	case KindStart:
		ev.Source = str(m, "source")
	case KindPrompt:
		ev.Prompt = str(m, "prompt")
	case KindStop:
		// A blocked agentStop's reason comes back as the next prompt; the
		// stop after it continues the blocked one.
		ev.Continuing = boolField(m, "stop_hook_active")
	case KindError:
		e := object(m["error"])
		ev.Prompt = strings.TrimSpace(str(m, "errorContext") + ": " + str(e, "name") + ": " + str(e, "message"))
	case KindPreTool, KindPostTool:
		tn := str(m, "toolName")
		in := object(m["toolArgs"])
		// The whole input, to pair postToolUse with preToolUse (no call id).
		ev.InputDigest = judgedinput.Digest(m["toolArgs"])
		ev.Tool = session.ToolCall{Name: tn, Kind: copilotTools[tn]}
		switch ev.Tool.Kind {
		case "":
			ev.Tool = otherTool(tn, in)
		case session.ToolEdit:
			for _, k := range []string{"path", "file_path"} {
				if p := str(in, k); p != "" {
					ev.Tool.Paths = append(ev.Tool.Paths, p)
				}
			}
			// apply_patch (GPT models) carries the patch text.
			for _, k := range []string{"input", "patch", "command"} {
				ev.Tool.Paths = append(ev.Tool.Paths, patchPaths(str(in, k))...)
			}
		case session.ToolShell:
			ev.Tool.Command = str(in, "command")
			if ev.Tool.Command == "" {
				ev.Tool.Command = str(in, "input") // write_bash
			}
			// mode "async" returns at once, before the command ends: its
			// postToolUse carries no exit status of it (round 24).
			ev.Background = str(in, "mode") == "async"
			if strings.HasSuffix(tn, "powershell") {
				// Copilot on Windows: the line is PowerShell (issue 27).
				ev.Tool.Shell = shellline.PowerShell
			}
		}
		if tn == "view" && ev.Kind == KindPreTool {
			// The witness of the events.jsonl view line (a forged one met
			// "read docs/X" as Gemini CLI's read_file did, issue 25): the
			// hook and the transcript name the path the same way.
			p := str(in, "path")
			sum := sha256.Sum256([]byte(ev.AgentSession + "\x00view\x00" + p))
			ev.ToolID, ev.ToolDigest = hex.EncodeToString(sum[:12]), transcript.ReadDigest(p)
		}
		if ev.Kind == KindPostTool && ev.Tool.Kind == session.ToolShell {
			if name == "postToolUseFailure" {
				e := str(m, "error")
				ev.Result = &ShellResult{ExitCode: exitFromText(e, "exit code "), Output: []byte(e)}
			} else {
				ev.Result = copilotResult(object(m["toolResult"]), "resultType", "textResultForLlm")
			}
		}
		copilotToolID(ev)
	}
	return ev, nil
}

// copilotToolID pairs preToolUse and postToolUse of a shell command (they
// carry no call id) by session and command line, to time the call.
// The preToolUse of one also keeps the digest of its command line, the
// witness of its events.jsonl line.
func copilotToolID(ev *Event) {
	if ev.Tool.Kind == session.ToolShell && ev.ToolID == "" {
		sum := sha256.Sum256([]byte(ev.AgentSession + "\x00" + ev.Tool.Command))
		ev.ToolID = hex.EncodeToString(sum[:12])
	}
	if ev.Tool.Kind == session.ToolShell && ev.Kind == KindPreTool {
		ev.ToolDigest = transcript.CommandDigest(ev.Tool.Command)
	}
}

// copilotTrailerRE is the line Copilot appends to a shell call's text.
var copilotTrailerRE = lazyregexp.New(`\n?<shellId: [^>\n]* completed with exit code -?\d+>\s*$`)

// copilotResult reads a shell toolResult {resultType, textResultForLlm}:
// the text ends "<shellId: N completed with exit code C>".
func copilotResult(res map[string]json.RawMessage, typeKey, textKey string) *ShellResult {
	text := str(res, textKey)
	// The output is what the command printed: Copilot's own trailer line
	// kept in it made no `cat FILE` hash as the file (round 24).
	out := text
	if loc := copilotTrailerRE.FindStringIndex(text); loc != nil {
		out = text[:loc[0]]
		if loc[0] > 0 && text[loc[0]] == '\n' {
			out = text[:loc[0]+1]
		}
	}
	r := &ShellResult{Output: []byte(out)}
	switch {
	case strings.Contains(text, "with exit code "):
		r.ExitCode = exitFromText(text[strings.LastIndex(text, "with exit code "):], "with exit code ")
	case strings.HasPrefix(strings.TrimSpace(text), "<command started in background"):
		r.ExitCode = -1 // still running: "success" says it started
	case str(res, typeKey) == "success":
		r.ExitCode = 0
	case str(res, typeKey) != "":
		r.ExitCode = 1 // a failure without a number is still a failure
	default:
		r.ExitCode = -1
	}
	return r
}

func (copilot) Encode(ev *Event, a *Answer) []byte {
	out := map[string]any{}
	switch ev.Kind {
	case KindStart, KindPrompt, KindPostTool:
		// Copilot reads context only at the top level, in both file forms.
		if a.Context != "" {
			out["additionalContext"] = a.Context
		}
	case KindPreTool:
		if a.Deny {
			out["permissionDecision"] = "deny"
			out["permissionDecisionReason"] = a.Reason
			if pascal(ev.Name) {
				out["hookSpecificOutput"] = map[string]any{"hookEventName": ev.Name, "permissionDecision": "deny", "permissionDecisionReason": a.Reason}
			}
		}
	case KindStop:
		if a.Deny {
			out["decision"] = "block"
			out["reason"] = a.Reason
		}
	}
	if a.Notice != "" {
		out["systemMessage"] = a.Notice
	}
	return mustJSON(out)
}
