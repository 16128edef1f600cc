package transcript

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestClaudeFinished: on real Claude Code transcripts, a call that ran to
// its end (a result, a failed Bash with its exit code) is finished; the
// interrupted call, a refused read and a call with no result are not.
func TestClaudeFinished(t *testing.T) {
	tests := []struct {
		file string
		ids  []string
		want map[string]bool
	}{
		// toolu_4 `cat README.md`, toolu_5 `sh -c 'exit 3'` (Exit code 3),
		// toolu_6 a Read of a missing file (an error with no exit code).
		{"claude-2.1.jsonl", []string{"toolu_1", "toolu_4", "toolu_5", "toolu_6", "toolu_nosuch"}, map[string]bool{"toolu_1": true, "toolu_4": true, "toolu_5": true}},
		// toolu_03 was interrupted by the user.
		{"claude-2.1.330-interrupt.jsonl", []string{"toolu_03"}, map[string]bool{}},
	}
	for _, tt := range tests {
		got, err := ClaudeFinished(filepath.Join("testdata", tt.file), tt.ids)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.file, got, tt.want)
		}
	}
	// A result appended after Claude Code's own does not change it.
	b, err := os.ReadFile(filepath.Join("testdata", "claude-2.1.330-interrupt.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "t.jsonl")
	forged := `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_03","type":"tool_result","content":"woke","is_error":false}]}}` + "\n"
	if err := os.WriteFile(p, append(b, forged...), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := ClaudeFinished(p, []string{"toolu_03"}); got["toolu_03"] {
		t.Errorf("a result appended after the interrupt's counted: %v", got)
	}
}

// TestCodexFinished: on real Codex 0.171 rollouts, a call with its output
// (exit 0, exit 3, an unsupported tool) finished; the call interrupted by
// SIGINT ("aborted by user", measured in round 23) and an unknown id did
// not. A passing output appended after the abort does not change it.
func TestCodexFinished(t *testing.T) {
	tests := []struct {
		file string
		ids  []string
		want map[string]bool
	}{
		{"codex-0.171.jsonl", []string{"call_stub0002", "call_stub0005", "call_stub0008", "call_nosuch"}, map[string]bool{"call_stub0002": true, "call_stub0005": true, "call_stub0008": true}},
		{"codex-0.171-interrupt.jsonl", []string{"call_stub0002"}, map[string]bool{}},
	}
	for _, tt := range tests {
		got, err := CodexFinished(filepath.Join("testdata", tt.file), tt.ids)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.file, got, tt.want)
		}
	}
	b, err := os.ReadFile(filepath.Join("testdata", "codex-0.171-interrupt.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "r.jsonl")
	forged := `{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_stub0002","output":"Process exited with code 0"}}` + "\n"
	if err := os.WriteFile(p, append(b, forged...), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := CodexFinished(p, []string{"call_stub0002"}); got["call_stub0002"] {
		t.Errorf("an output appended after the abort counted: %v", got)
	}
}

// TestCodexRunning: a call Codex left running (its output header says
// "Process running with session ID N") owes no PostToolUse; one that
// exited, or whose command printed those words after "Output:", does.
func TestCodexRunning(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.jsonl")
	line := func(id, out string) string {
		b, _ := json.Marshal(map[string]any{"type": "response_item", "payload": map[string]any{"type": "function_call_output", "call_id": id, "output": out}})
		return string(b) + "\n"
	}
	body := line("running", "Chunk ID: f6e96e\nWall time: 0.5011 seconds\nProcess running with session ID 96725\nOriginal token count: 0\nOutput:\n") +
		line("exited", "Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 1\nOriginal token count: 3\nOutput:\nFAIL\n") +
		line("printed", "Chunk ID: 2\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 9\nOutput:\nProcess running with session ID 1\n")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := CodexRunning(p, []string{"running", "exited", "printed", "nosuch"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]bool{"running": true}; !reflect.DeepEqual(got, want) {
		t.Errorf("CodexRunning = %v, want %v", got, want)
	}
}

// TestClaudeResults: the calls a real transcript holds a result for,
// finished or not (the interrupted toolu_03, the refused read toolu_6),
// apart from a call with none (round 30, c4: a settled call with no result
// was still running when the prompt came).
func TestClaudeResults(t *testing.T) {
	fin, res, err := ClaudeResults(filepath.Join("testdata", "claude-2.1.jsonl"), []string{"toolu_4", "toolu_6", "toolu_nosuch"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fin, map[string]bool{"toolu_4": true}) || !reflect.DeepEqual(res, map[string]bool{"toolu_4": true, "toolu_6": true}) {
		t.Errorf("claude-2.1.jsonl: finished %v, with a result %v", fin, res)
	}
	fin, res, err = ClaudeResults(filepath.Join("testdata", "claude-2.1.330-interrupt.jsonl"), []string{"toolu_03"})
	if err != nil {
		t.Fatal(err)
	}
	if len(fin) != 0 || !res["toolu_03"] {
		t.Errorf("the interrupted call: finished %v, with a result %v; want a result, not finished", fin, res)
	}
}
