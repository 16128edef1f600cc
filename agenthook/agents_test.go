package agenthook_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestGemini runs Gemini CLI's real payloads (captured by the harness from
// Gemini CLI 0.61.0): context at start, write_file denied before the start
// gates, shell results observed with their exit codes, AfterAgent denied
// while work waits for the end protocol.
func TestGemini(t *testing.T) {
	r := newRepo(t, "")
	const sid = "gemini-session-1"
	out, _ := r.hook("gemini", "SessionStart", golden(t, r, "gemini", "SessionStart", sid))
	if !strings.Contains(pathStr(out, "hookSpecificOutput", "additionalContext"), "CONTEXT_RETRIEVAL") {
		t.Fatalf("SessionStart: %v", out)
	}
	s := r.active()
	out, _ = r.hook("gemini", "BeforeTool", golden(t, r, "gemini", "BeforeTool-write_file", sid))
	if out["decision"] != "deny" || !strings.Contains(out["reason"].(string), "CONTEXT_RETRIEVAL") {
		t.Fatalf("write_file before the start gates: %v", out)
	}
	if out, _ := r.hook("gemini", "BeforeTool", golden(t, r, "gemini", "BeforeTool-run_shell_command", sid)); len(out) != 0 {
		t.Fatalf("shell `true` before the start gates: %v", out)
	}
	r.hook("gemini", "AfterTool", golden(t, r, "gemini", "AfterTool-run_shell_command", sid))
	r.hook("gemini", "AfterTool", golden(t, r, "gemini", "AfterTool-run_shell_command-failed", sid))
	r.hook("gemini", "AfterTool", golden(t, r, "gemini", "AfterTool-write_file", sid))
	evs, err := r.db().ListEvidence(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || *evs[0].ExitCode != 0 || *evs[1].ExitCode != 3 || evs[1].Command != "echo to-stdout; echo to-stderr >&2; exit 3" || evs[0].Source != "gemini" {
		t.Fatalf("observed evidence %+v", evs)
	}
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	r.hook("gemini", "BeforeAgent", golden(t, r, "gemini", "BeforeAgent", sid))
	writeFile(t, filepath.Join(r.root, "hello.txt"), "hello\n")
	out, _ = r.hook("gemini", "AfterAgent", golden(t, r, "gemini", "AfterAgent", sid))
	if out["decision"] != "deny" || !strings.Contains(out["reason"].(string), "QA_VALIDATION") {
		t.Fatalf("AfterAgent with work and no end protocol: %v", out)
	}
	if out, _ := r.hook("gemini", "SessionEnd", golden(t, r, "gemini", "SessionEnd", sid)); len(out) != 0 {
		t.Fatalf("SessionEnd: %v", out)
	}
}

// TestCursor uses Cursor's documented payloads (its CLI is not on npm, so
// no real client runs here): conversation_id binds, preToolUse and
// beforeShellExecution answer with permission, afterShellExecution is
// observed (exit code unknown: -1), stop answers followup_message.
func TestCursor(t *testing.T) {
	r := newRepo(t, "")
	base := map[string]any{"conversation_id": "cursor-conv-1", "generation_id": "gen-1", "workspace_roots": []string{r.root}}
	ev := func(name string, kv ...any) map[string]any {
		return with(base, append([]any{"hook_event_name", name}, kv...)...)
	}
	out, _ := r.hook("cursor", "sessionStart", ev("sessionStart", "session_id", "cursor-conv-1"))
	if !strings.Contains(pathStr(out, "additional_context"), "CONTEXT_RETRIEVAL") {
		t.Fatalf("sessionStart: %v", out)
	}
	s := r.active()
	out, _ = r.hook("cursor", "preToolUse", ev("preToolUse", "tool_name", "Write", "tool_input", map[string]any{"file_path": filepath.Join(r.root, "a.go")}))
	if out["permission"] != "deny" || !strings.Contains(pathStr(out, "agent_message"), "CONTEXT_RETRIEVAL") {
		t.Fatalf("preToolUse Write: %v", out)
	}
	out, _ = r.hook("cursor", "beforeShellExecution", ev("beforeShellExecution", "command", "git push origin main", "cwd", r.root))
	if out["permission"] != "deny" {
		t.Fatalf("git push before the start gates: %v", out)
	}
	out, _ = r.hook("cursor", "beforeShellExecution", ev("beforeShellExecution", "command", "ls -la", "cwd", r.root))
	if out["permission"] != "allow" {
		t.Fatalf("ls: %v", out)
	}
	r.hook("cursor", "afterShellExecution", ev("afterShellExecution", "command", "sh test.sh", "output", "tests ok\n", "duration", 150))
	evs, err := r.db().ListEvidence(context.Background(), s.ID)
	// Run before the start gates passed: not QA evidence yet, but the
	// current start phase's (docs/evidence.md, "Evidence before the work").
	if err != nil || len(evs) != 1 || *evs[0].ExitCode != -1 || evs[0].Phase != "CONTEXT_RETRIEVAL" || evs[0].Duration.Milliseconds() != 150 {
		t.Fatalf("observed %+v %v (want the current start phase, exit -1: Cursor does not report it)", evs, err)
	}
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	r.hook("cursor", "beforeSubmitPrompt", ev("beforeSubmitPrompt", "prompt", "add a feature"))
	writeFile(t, filepath.Join(r.root, "feature.go"), "package main\n")
	out, _ = r.hook("cursor", "stop", ev("stop", "status", "completed", "loop_count", 0))
	if !strings.Contains(pathStr(out, "followup_message"), "QA_VALIDATION") {
		t.Fatalf("stop with work: %v", out)
	}
}

// TestOtherWritingToolsGeminiCursor: Gemini CLI names MCP tools
// mcp_<server>_<tool>; Cursor's preToolUse sends every tool by name. A
// writing one on a worktree file is an edit in both; sessiongate's own
// MCP tools and reading ones are not.
func TestOtherWritingToolsGeminiCursor(t *testing.T) {
	r := newRepo(t, "")
	const sid = "gemini-mcp"
	r.hook("gemini", "SessionStart", golden(t, r, "gemini", "SessionStart", sid))
	before := golden(t, r, "gemini", "BeforeTool-write_file", sid)
	gem := func(tool string, input map[string]any) map[string]any {
		out, _ := r.hook("gemini", "BeforeTool", with(before, "tool_name", tool, "tool_input", input))
		return out
	}
	if out := gem("mcp_filesystem_write_file", map[string]any{"path": "src/a.go", "content": "x"}); out["decision"] != "deny" {
		t.Errorf("gemini mcp_filesystem_write_file before the start gates: %v, want deny", out)
	}
	if out := gem("mcp_filesystem_read_text_file", map[string]any{"path": "src/a.go"}); len(out) != 0 {
		t.Errorf("gemini mcp_filesystem_read_text_file: %v, want {}", out)
	}
	if out := gem("mcp_sessiongate_record_evidence", map[string]any{"phase": "CONTEXT_RETRIEVAL", "path": "x"}); len(out) != 0 {
		t.Errorf("gemini mcp_sessiongate_record_evidence: %v, want {}", out)
	}
	base := map[string]any{"conversation_id": "cursor-mcp", "generation_id": "gen-1", "workspace_roots": []string{r.root}, "hook_event_name": "preToolUse"}
	out, _ := r.hook("cursor", "preToolUse", with(base, "tool_name", "edit_file", "tool_input", map[string]any{"path": filepath.Join(r.root, "sessiongate.yaml")}))
	if out["permission"] != "deny" {
		t.Errorf("cursor edit_file on the config: %v, want deny", out)
	}
}
