package session

import (
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestR56ShellReadPrintsNothing (round 56, helper 333): shell reads that
// print none (or one byte) of the file meet "Read `.agents/HANDOFF.md`"
// (v3-style). Round 25 c9 refused `tail -n 0` and `sed -n '$='`; these
// shapes are their siblings.
func TestR56ShellReadPrintsNothing(t *testing.T) {
	read := protocolspec.Requirement{Text: "Read `.agents/HANDOFF.md`."}
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"cat .agents/HANDOFF.md", true},
		{"head -n 20 .agents/HANDOFF.md", true},
		{"head -c 0 .agents/HANDOFF.md", false},
		{"head -c0 .agents/HANDOFF.md", false},
		{"head -n 0 .agents/HANDOFF.md", false},
		{"head -c 1 .agents/HANDOFF.md", false},
		{"tail -c 0 .agents/HANDOFF.md", false},
		{"cat .agents/HANDOFF.md | head -c 0", false},
		{"cat .agents/HANDOFF.md | head -n 0", false},
		{"cat .agents/HANDOFF.md 2>&1 >/dev/null", false},
		{"cat .agents/HANDOFF.md >&-", false},
		{"sed -n '0~0p' .agents/HANDOFF.md", false},
		{"sed -n 'q' .agents/HANDOFF.md", false},
		{"sed q .agents/HANDOFF.md", true},
		{"less .agents/HANDOFF.md", true},
		{"nl -b n .agents/HANDOFF.md", true},
		{"tail -c +1 .agents/HANDOFF.md", true}, // from the first byte to the end
		{"head -c 4096 .agents/HANDOFF.md", true},
	} {
		if got := shellReadOf(c.cmd, read); got != c.want {
			t.Errorf("shellReadOf(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}
