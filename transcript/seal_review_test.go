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
		{"claude, sealed past the compaction size", Claude, State{Offset: 1 << 20, Seal: &Seal{From: 1 << 20, To: ClaudeCompactAt}}, true},
		{"claude, read past it, no seal", Claude, State{Offset: ClaudeCompactAt + 1}, true},
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
