package transcript

import "testing"

// TestReplacedByCLI: round 23 review. A rename over the transcript is the
// CLI's own only for Claude Code past its compaction size; below it, or
// for a CLI that only appends, it is the agent's shell.
func TestReplacedByCLI(t *testing.T) {
	cases := []struct {
		name   string
		format string
		st     State
		want   bool
	}{
		{"claude, small file read and sealed", Claude, State{Offset: 4 << 10, Seal: &Seal{From: 4 << 10, To: 9 << 10}}, false},
		{"claude, sealed up to the compaction floor", Claude, State{Offset: 1 << 20, Seal: &Seal{From: 1 << 20, To: ClaudeCompactMin}}, true},
		{"claude, read past it, no seal", Claude, State{Offset: ClaudeCompactMin + 1}, true},
		// Round 24: compacted after a conversation summary, not only at
		// the 20 MiB backstop (it was false below 20 MiB).
		{"claude, 6 MiB", Claude, State{Offset: 6 << 20}, true},
		{"claude, just under the floor", Claude, State{Offset: ClaudeCompactMin - 1}, false},
		{"gemini appends", Gemini, State{Offset: 64 << 20}, false},
		{"codex never renames its rollout", Codex, State{Offset: 64 << 20}, false},
		{"copilot appends", Copilot, State{Offset: 64 << 20}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ReplacedByCLI(c.format, c.st); got != c.want {
				t.Errorf("ReplacedByCLI(%s) = %v, want %v", c.format, got, c.want)
			}
		})
	}
}
