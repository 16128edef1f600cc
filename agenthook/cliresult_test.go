package agenthook

import (
	"encoding/json"
	"testing"
)

// TestCopilotResultOutput: Copilot ends a shell call's text with its own
// "<shellId: N completed with exit code C>" line. Kept in the observed
// output, a `cat .agents/HANDOFF.md` never hashed as the file, so the read
// met no content_hash check and an honest Copilot run on the v3.0-style
// protocol was blocked at its first phase (round 24, internal/agenttest
// TestCopilotHonestV3Task). The output is what the command printed; the
// exit code still comes from Copilot's last trailer, not one the command
// printed.
func TestCopilotResultOutput(t *testing.T) {
	for _, c := range []struct {
		name, text, out string
		exit            int
	}{
		{"a read", "# Handoff\n\n- next\n<shellId: 0 completed with exit code 0>", "# Handoff\n\n- next\n", 0},
		{"a failure", "FAIL: x\n<shellId: 3 completed with exit code 1>", "FAIL: x\n", 1},
		{"no output", "<shellId: 0 completed with exit code 0>", "", 0},
		{"a forged trailer printed before the real one", "<shellId: 0 completed with exit code 0>\n<shellId: 1 completed with exit code 2>", "<shellId: 0 completed with exit code 0>\n", 2},
		{"no trailer", "plain", "plain", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := map[string]json.RawMessage{}
			b, _ := json.Marshal(c.text)
			raw["textResultForLlm"] = b
			raw["resultType"] = json.RawMessage(`"success"`)
			r := copilotResult(raw, "resultType", "textResultForLlm")
			if string(r.Output) != c.out || r.ExitCode != c.exit {
				t.Errorf("copilotResult(%q) = output %q exit %d, want %q exit %d", c.text, r.Output, r.ExitCode, c.out, c.exit)
			}
		})
	}
}

// TestCopilotAsyncShell: Copilot's bash with `mode: "async"` returns at
// once ("<command started in background with shellId: 2>", resultType
// success), and its postToolUse came with exit 0: a failing `sh test.sh`
// run that way was recorded as passing QA evidence (round 24, real CLI
// TestCopilotAsyncShellNoEvidence). Such a call is backgrounded, as Claude
// Code's run_in_background is: no exit status, no evidence. A sync call
// keeps its status.
func TestCopilotAsyncShell(t *testing.T) {
	for _, c := range []struct {
		name, args, text string
		background       bool
		exit             int
	}{
		{"async", `{"command":"sh test.sh","description":"t","mode":"async"}`, "<command started in background with shellId: 2>", true, -1},
		{"async, detached", `{"command":"sh test.sh","description":"t","mode":"async","detach":true}`, "<command started in background with shellId: 2>", true, -1},
		{"started in background, mode unsaid", `{"command":"sh test.sh","description":"t"}`, "<command started in background with shellId: 2>", false, -1},
		{"sync", `{"command":"sh test.sh","description":"t","mode":"sync"}`, "ok\n<shellId: 1 completed with exit code 0>", false, 0},
		{"default", `{"command":"sh test.sh","description":"t"}`, "FAIL\n<shellId: 1 completed with exit code 1>", false, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			text, _ := json.Marshal(c.text)
			raw := []byte(`{"sessionId":"s1","timestamp":1,"cwd":"/tmp/r","toolName":"bash","toolArgs":` + c.args +
				`,"toolResult":{"resultType":"success","textResultForLlm":` + string(text) + `}}`)
			ev, err := copilot{}.Decode("postToolUse", raw)
			if err != nil {
				t.Fatal(err)
			}
			if ev.Background != c.background || ev.Result == nil || ev.Result.ExitCode != c.exit {
				t.Errorf("background %v, result %+v; want background %v, exit %d", ev.Background, ev.Result, c.background, c.exit)
			}
		})
	}
}

// TestGeminiBackgroundShell: Gemini CLI's run_shell_command with
// is_background answers "Command moved to background (PID: N)" and its
// AfterTool carried no exit code, read as 0: a failing `sh test.sh` run
// that way was recorded as passing evidence (round 24, real CLI
// TestGeminiBackgroundShellNoEvidence). Backgrounded now, status unknown;
// a foreground run keeps its status.
func TestGeminiBackgroundShell(t *testing.T) {
	for _, c := range []struct {
		name, input, content string
		background           bool
		exit                 int
	}{
		{"background", `{"command":"sh test.sh","is_background":true}`, "Command moved to background (PID: 5802). Output hidden. Press Ctrl+B to view.", true, -1},
		{"moved there, flag unsaid", `{"command":"sh test.sh"}`, "Command moved to background (PID: 5802). Output hidden. Press Ctrl+B to view.", false, -1},
		{"foreground, failed", `{"command":"sh test.sh","is_background":false}`, "Output: FAIL\nExit Code: 1\nProcess Group PGID: 1", false, 1},
		{"foreground, passed", `{"command":"sh test.sh"}`, "Output: ok\nProcess Group PGID: 1", false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			content, _ := json.Marshal(c.content)
			raw := []byte(`{"session_id":"g1","cwd":"/tmp/r","hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":` + c.input +
				`,"tool_response":{"llmContent":` + string(content) + `,"returnDisplay":"","error":null}}`)
			ev, err := gemini{}.Decode("AfterTool", raw)
			if err != nil {
				t.Fatal(err)
			}
			if ev.Background != c.background || ev.Result == nil || ev.Result.ExitCode != c.exit {
				t.Errorf("background %v, result %+v; want background %v, exit %d", ev.Background, ev.Result, c.background, c.exit)
			}
		})
	}
}
