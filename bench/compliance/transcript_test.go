package compliance_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// useTranscript puts the scenario's agent under Claude Code: a config
// folder of its own (CLAUDE_CONFIG_DIR) holding the transcript its hooks
// name, as the real CLI lays it out.
func (w *world) useTranscript() {
	w.t.Helper()
	dir := filepath.Join(w.t.TempDir(), ".claude")
	w.transcript = filepath.Join(dir, "projects", "-"+strings.ReplaceAll(strings.Trim(w.root, "/"), "/", "-"), "bench-agent.jsonl")
	if err := os.MkdirAll(filepath.Dir(w.transcript), 0o700); err != nil {
		w.t.Fatal(err)
	}
	w.env = append(w.env, "CLAUDE_CONFIG_DIR="+dir)
}

// hookStart is Claude Code's SessionStart hook, as the installed config
// runs it: the agent session adopts the session just started and its
// transcript is recorded for it.
func (w *world) hookStart() {
	w.t.Helper()
	payload, _ := json.Marshal(map[string]string{"session_id": "bench-agent", "transcript_path": w.transcript,
		"cwd": w.root, "hook_event_name": "SessionStart", "source": "startup"})
	res := w.exec(w.root, string(payload), binary, "agent-hook", "claude", "SessionStart")
	if res.code != 0 || strings.Contains(res.err, "transcript not used") {
		w.t.Fatalf("agent-hook claude SessionStart: exit %d\n%s", res.code, res.text())
	}
}

// hookEnd is Claude Code's SessionEnd hook: the agent CLI exits, and its
// conversation is no longer open in the worktree.
func (w *world) hookEnd() {
	w.t.Helper()
	payload, _ := json.Marshal(map[string]string{"session_id": "bench-agent", "transcript_path": w.transcript,
		"cwd": w.root, "hook_event_name": "SessionEnd", "reason": "exit"})
	if res := w.exec(w.root, string(payload), binary, "agent-hook", "claude", "SessionEnd"); res.code != 0 {
		w.t.Fatalf("agent-hook claude SessionEnd: exit %d\n%s", res.code, res.text())
	}
}

// mcpCall is the agent calling an MCP tool under Claude Code (nothing
// without a transcript): the call and its result, as the CLI writes them
// (transcript/testdata/claude-2.1-mcp.jsonl).
func (w *world) mcpCall(tool, result string) {
	w.toolCall(tool, map[string]any{"memory_file_name": "skill-usage-mandatory"}, result)
}

// agentCall is the agent running a sub-agent with Claude Code's Agent tool
// (transcript/testdata/claude-2.1-agent.jsonl).
func (w *world) agentCall(typ, result string) {
	w.toolCall("Agent", map[string]any{"description": "Validate the change", "prompt": "Validate the feature", "subagent_type": typ}, result)
}

func (w *world) toolCall(tool string, input map[string]any, result string) {
	w.t.Helper()
	if w.transcript == "" {
		return
	}
	w.calls++
	id := fmt.Sprintf("toolu_bench%02d", w.calls)
	use, _ := json.Marshal(map[string]any{"type": "assistant", "cwd": w.root, "message": map[string]any{"role": "assistant",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": tool, "input": input}}}})
	res, _ := json.Marshal(map[string]any{"type": "user", "cwd": w.root, "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": result}}}})
	f, err := os.OpenFile(w.transcript, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		w.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(append(append(use, '\n'), append(res, '\n')...)); err != nil {
		w.t.Fatal(err)
	}
}

// readTool is the agent reading a file of the work tree with Claude Code's
// Read tool: the call and its result, as the CLI writes them
// (transcript/testdata/claude-2.1.jsonl).
func (w *world) readTool(rel string) {
	w.t.Helper()
	w.calls++
	id := fmt.Sprintf("toolu_bench%02d", w.calls)
	use, _ := json.Marshal(map[string]any{"type": "assistant", "cwd": w.root, "message": map[string]any{"role": "assistant",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Read", "input": map[string]any{"file_path": filepath.Join(w.root, rel)}}}}})
	result, _ := json.Marshal(map[string]any{"type": "user", "cwd": w.root, "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": "1\t" + strings.SplitN(w.read(rel), "\n", 2)[0]}}}})
	f, err := os.OpenFile(w.transcript, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		w.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(append(append(use, '\n'), append(result, '\n')...)); err != nil {
		w.t.Fatal(err)
	}
}

// preToolBash is Claude Code's PreToolUse hook for a Bash call: the
// reason when the hook denies the line, "" when it lets it run.
func (w *world) preToolBash(line string) string {
	w.t.Helper()
	payload, _ := json.Marshal(map[string]any{"session_id": "bench-agent", "transcript_path": w.transcript,
		"cwd": w.root, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_bench_sh",
		"tool_input": map[string]any{"command": line}})
	res := w.exec(w.root, string(payload), binary, "agent-hook", "claude", "PreToolUse")
	if res.code != 0 {
		w.t.Fatalf("agent-hook claude PreToolUse: exit %d\n%s", res.code, res.text())
	}
	var out struct {
		Hook struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(res.out), &out); err != nil {
		w.t.Fatalf("agent-hook claude PreToolUse: %v\n%s", err, res.out)
	}
	if out.Hook.Decision == "deny" {
		return out.Hook.Reason
	}
	return ""
}
