package session_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestCodexPromptSettlesOnlyInterruptedCalls: round 22's rule for Codex,
// measured in round 23 (transcript/testdata/codex-0.171-interrupt.jsonl):
// Codex 0.171 interrupted during a shell call writes its output as
// "aborted by user" and runs its Interrupt hook, not PostToolUse. A new
// prompt settled every pending Codex call, so one whose PostToolUse was
// dropped after it finished ended clean (the lazy row; clean on the old
// code); now it is owed at Stop (TOOL_RESULT_MISSING). The honest twins: the
// interrupted call, and a call with no output yet.
func TestCodexPromptSettlesOnlyInterruptedCalls(t *testing.T) {
	requireGit(t)
	interrupted, err := os.ReadFile(filepath.Join("..", "transcript", "testdata", "codex-0.171-interrupt.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	finished := `{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\": \"sleep 30\"}","call_id":"call_stub0002"}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"call_stub0002","output":"Chunk ID: 1\nWall time: 30 seconds\nProcess exited with code 0\nOutput:\n"}}` + "\n"
	running := `{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\": \"sleep 30\"}","call_id":"call_stub0002"}}` + "\n"
	tests := []struct {
		name    string
		rollout string
		missing bool
	}{
		{"lazy: finished, post dropped, prompt", finished, true},
		{"honest: interrupted (the real rollout)", string(interrupted), false},
		{"honest: no output yet", running, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			id := e.start("codex")
			path := filepath.Join(t.TempDir(), "rollout.jsonl")
			appendTo(t, path, "{}\n")
			if err := e.engine.BindTranscript(ctx, id, "codex", "thread-1", path); err != nil {
				t.Fatal(err)
			}
			if err := e.engine.KeepOwedReport(ctx, id, "codex", "call_stub0002", "Bash"); err != nil {
				t.Fatal(err)
			}
			appendTo(t, path, tt.rollout)
			if err := e.engine.SettleUnreported(ctx, id, "codex", "interrupted"); err != nil {
				t.Fatal(err)
			}
			if _, err := e.engine.ToolResultsMissing(ctx, id, "codex"); err != nil {
				t.Fatal(err)
			}
			// Recorded at the prompt since round 24 (the settled calls
			// are judged there), else at Stop; once either way.
			vs, err := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id})
			if err != nil {
				t.Fatal(err)
			}
			if (len(vs) == 1 && vs[0].Code == session.CodeToolResultMissing) != tt.missing || !tt.missing && len(vs) > 0 {
				t.Errorf("violations %+v, want one TOOL_RESULT_MISSING %v", vs, tt.missing)
			}
		})
	}
}
