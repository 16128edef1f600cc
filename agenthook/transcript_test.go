package agenthook

import (
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestTranscriptWrite: the agent may not write into its own transcript
// folder by a tool or by plain shell means; reading it, and writing
// elsewhere, is left alone.
func TestTranscriptWrite(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "CLAUDE_CONFIG_DIR": "/home/u/.claude"}
	getenv := func(k string) string { return env[k] }
	const tr = "/home/u/.claude/projects/-repo/abc.jsonl"
	tests := []struct {
		agent string
		tool  session.ToolCall
		deny  bool
	}{
		{"claude", session.ToolCall{Name: "Write", Kind: session.ToolEdit, Paths: []string{tr}}, true},
		{"claude", session.ToolCall{Name: "Bash", Kind: session.ToolShell, Command: "echo '{}' >> " + tr}, true},
		{"claude", session.ToolCall{Name: "Bash", Kind: session.ToolShell, Command: `echo '{"type":"assistant"}' >> ~/.claude/projects/-repo/abc.jsonl`}, true},
		{"claude", session.ToolCall{Name: "Bash", Kind: session.ToolShell, Command: `printf x | tee -a "$HOME/.claude/projects/-repo/abc.jsonl"`}, true},
		{"claude", session.ToolCall{Name: "Bash", Kind: session.ToolShell, Command: "cp /tmp/forged.jsonl " + tr}, true},
		{"claude", session.ToolCall{Name: "Bash", Kind: session.ToolShell, Command: `python3 -c 'open("/home/u/.claude/projects/-repo/abc.jsonl","a")'`}, true},
		// Reading it, or writing elsewhere, is fine.
		{"claude", session.ToolCall{Name: "Bash", Kind: session.ToolShell, Command: "tail -5 " + tr}, false},
		{"claude", session.ToolCall{Name: "Bash", Kind: session.ToolShell, Command: "go test ./... > /tmp/out.txt"}, false},
		{"claude", session.ToolCall{Name: "Write", Kind: session.ToolEdit, Paths: []string{"/repo/notes.md"}}, false},
		{"gemini", session.ToolCall{Name: "run_shell_command", Kind: session.ToolShell, Command: "echo x >> /home/u/.gemini/tmp/repo/chats/session-1.jsonl"}, true},
		{"gemini", session.ToolCall{Name: "write_file", Kind: session.ToolEdit, Paths: []string{"/home/u/.gemini/tmp/repo/chats/session-1.jsonl"}}, true},
		{"cursor", session.ToolCall{Name: "Write", Kind: session.ToolEdit, Paths: []string{tr}}, false},
	}
	for _, tt := range tests {
		ev := &Event{Agent: tt.agent, Tool: tt.tool}
		if got := transcriptWrite(ev, "/repo", getenv); (got != "") != tt.deny {
			t.Errorf("%s %s %q%v: %q, want deny %v", tt.agent, tt.tool.Name, tt.tool.Command, tt.tool.Paths, got, tt.deny)
		}
	}
}
