package agenthook

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// TestR58ShapeSessionOutside: in a container whose process session was
// made outside its PID namespace (CI's, round 58), /proc stat gives every
// process of that session the session 0 (ancestry.SessionOutside). Copilot's
// hooks run in that session: the shape learned at its first prompt must
// still say hook-not-leader, or a tool call's process that exec'd the hook
// (leading a session of its own, visible) passes. Before, the shape was
// learned only for a session id > 0: the real-Copilot exec forgery tests
// passed here and failed in CI.
func TestR58ShapeSessionOutside(t *testing.T) {
	out := ancestry.SessionOutside
	copilot := proc(137, out, "MainThread", "/x/node_modules/@github/copilot-linux-x64/copilot -p add hello.txt --allow-all-tools")
	honest := proc(420, out, "sessiongate", "/x/sessiongate agent-hook copilot userPromptSubmitted")
	r := &Runner{Self: func() ancestry.Process { return honest }, StdinPeer: func() int { return 0 }, Ancestors: func() []ancestry.Process { return nil }}
	if got := r.cliShape(copilot, []ancestry.Process{copilot}); got != shapeNotLeader {
		t.Errorf("Copilot's shape with its session's leader outside the namespace = %q, want %q", got, shapeNotLeader)
	}
	if _, ok := execedToolCall(honest, []ancestry.Process{copilot}); ok {
		t.Error("honest: a hook in a session led outside the namespace read as leading its own")
	}
	forged := proc(516, 516, "sessiongate", "/x/sessiongate agent-hook copilot postToolUse")
	if _, ok := execedToolCall(forged, []ancestry.Process{copilot}); !ok {
		t.Error("lazy: an exec'd hook leading its own session under Copilot: no verdict")
	}
	// Unknown (not read): nothing learned.
	r.Self = func() ancestry.Process { return proc(420, 0, "sessiongate", honest.Args) }
	if got := r.cliShape(copilot, []ancestry.Process{copilot}); got != "" {
		t.Errorf("shape with the session unknown = %q, want none", got)
	}
}
